import type { Kysely } from 'kysely'

/**
 * First-run setup: while the database has no users, one setup token (its SHA-256 only) lets the
 * first person create the administrator from the browser. Sessions learn when they were last seen
 * and a short summary of the browser ("Chrome on Linux"), for the account's session list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('setup_tokens')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'integer').execute()
  await db.schema.alterTable('sessions').addColumn('client', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('client').execute()
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute()
  await db.schema.dropTable('setup_tokens').execute()
}
