import type { Kysely } from 'kysely'

/**
 * What an import made from what: one row per source object (a Kuma monitor, a Gatus endpoint…) and
 * the Lantern row it became, per account, so that running an import again changes nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_mappings')
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('lantern_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_mappings_pk', ['owner_id', 'source', 'source_key'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_mappings').execute()
}
