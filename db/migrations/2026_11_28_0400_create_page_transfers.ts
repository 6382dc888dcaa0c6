import { sql, type Kysely } from 'kysely'

/**
 * Ownership transfers of status pages (issue 14 item 5). `to_user_id` is null when no account had
 * the address: the row exists anyway so the owner sees the same pending notice either way (nothing
 * reveals which addresses have accounts), and nobody can accept it. At most one pending transfer
 * per page (partial unique index); the token is stored only as its SHA-256.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('page_transfers')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('to_email_lower', 'text', (c) => c.notNull())
    .addColumn('to_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'accepted', 'cancelled', 'expired', 'declined')`))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('decided_at', 'integer')
    .execute()
  await sql`create unique index page_transfers_one_pending on page_transfers(page_id) where status = 'pending'`.execute(db)
  await sql`create index page_transfers_pending_expiry on page_transfers(expires_at) where status = 'pending'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('page_transfers').execute()
}
