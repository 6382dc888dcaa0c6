import type { Kysely } from 'kysely'

/**
 * Password-reset links: one row per link mailed to an account, the token stored only as its
 * SHA-256. A link is spent once (`used_at`) and lapses at `expires_at`; a new link or a reset ends
 * every other live link of the user. Rows are swept some time after they lapse.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('used_at', 'integer')
    .execute()
  await db.schema.createIndex('password_resets_user').on('password_resets').columns(['user_id', 'expires_at']).execute()
  await db.schema.createIndex('password_resets_expiry').on('password_resets').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_resets').execute()
}
