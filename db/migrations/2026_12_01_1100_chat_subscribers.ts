import { sql, type Kysely } from 'kysely'

/**
 * Slack and Teams subscribers: one active subscriber per URL on a page, whatever it is sent
 * (webhook JSON, a Slack message or a Teams card), as webhooks alone were before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX subscribers_active_url`.execute(db)
  await sql`CREATE UNIQUE INDEX subscribers_active_url ON subscribers (page_id, url) WHERE unsubscribed_at IS NULL AND kind <> 'email'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX subscribers_active_url`.execute(db)
  await sql`CREATE UNIQUE INDEX subscribers_active_url ON subscribers (page_id, url) WHERE unsubscribed_at IS NULL AND kind = 'webhook'`.execute(db)
}
