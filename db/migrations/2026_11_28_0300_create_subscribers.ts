import { sql, type Kysely } from 'kysely'

/**
 * Page subscribers (issue 14 item 4): email or webhook, optionally only some components (JSON id
 * list; null = all). An email subscriber that signed up on the page (`source` self) is pending
 * until the confirmation link (hashed token, 7 days) is followed; owner-added and imported ones are
 * confirmed at once. Unsubscribing keeps the row (`unsubscribed_at`), so an address is unique per
 * page among active rows only. `manage_key` is a per-subscriber random value that, with the
 * instance's signing key (`subscriber_signing_keys`), makes the manage/unsubscribe token each mail
 * carries: the token itself is never stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscribers')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('url', 'text')
    .addColumn('component_ids', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('confirm_token_hash', 'text')
    .addColumn('confirm_expires_at', 'integer')
    .addColumn('confirmed_at', 'integer')
    .addColumn('manage_key', 'text', (c) => c.notNull())
    .addColumn('notice_sent_at', 'integer')
    .addColumn('unsubscribed_at', 'integer')
    .addColumn('unsubscribe_reason', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await sql`CREATE UNIQUE INDEX subscribers_active_email ON subscribers (page_id, email) WHERE unsubscribed_at IS NULL AND kind = 'email'`.execute(db)
  await sql`CREATE UNIQUE INDEX subscribers_active_url ON subscribers (page_id, url) WHERE unsubscribed_at IS NULL AND kind = 'webhook'`.execute(db)
  await sql`CREATE UNIQUE INDEX subscribers_confirm_token ON subscribers (confirm_token_hash) WHERE confirm_token_hash IS NOT NULL`.execute(db)
  await db.schema.createIndex('subscribers_page').on('subscribers').columns(['page_id', 'id']).execute()

  await db.schema
    .createTable('subscriber_signing_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('subscriber_signing_keys').execute()
  await db.schema.dropTable('subscribers').execute()
}
