import { sql, type Kysely } from 'kysely'

/**
 * Standard Webhooks signatures and the delivery log.
 *
 * - `outbox.message_id`: the `webhook-id` of a delivery, random, the same on every attempt and on
 *   "send again" (`resend_of` names the delivery sent again). Rows from before have none: theirs
 *   is derived from the row id.
 * - `outbox.status_code`, `latency_ms`, `last_attempt_at`: what the last attempt got (HTTP status,
 *   milliseconds until the answer), for the delivery log.
 * - `outbox.finished_at`: when a row was sent or given up; finished rows are deleted that long
 *   after (the retention period), found by `outbox_finished`. Rows finished before: their sent time,
 *   or else their queue time.
 * - Webhook channels and webhook subscribers get a `whsec_` signing secret each (channels keep
 *   their own secret of before for the deprecated X-Lantern-Signature header).
 */
const newSecret = () => `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('message_id', 'text').execute()
  await db.schema.alterTable('outbox').addColumn('resend_of', 'integer').execute()
  await db.schema.alterTable('outbox').addColumn('status_code', 'integer').execute()
  await db.schema.alterTable('outbox').addColumn('latency_ms', 'integer').execute()
  await db.schema.alterTable('outbox').addColumn('last_attempt_at', 'integer').execute()
  await db.schema.alterTable('outbox').addColumn('finished_at', 'integer').execute()
  await sql`UPDATE outbox SET finished_at = COALESCE(sent_at, created_at) WHERE status <> 'queued'`.execute(db)
  await sql`CREATE INDEX outbox_finished ON outbox (finished_at) WHERE status <> 'queued'`.execute(db)

  await db.schema.alterTable('subscribers').addColumn('signing_secret', 'text').execute()
  const subscribers = await db.selectFrom('subscribers').select('id').where('kind', '=', 'webhook').execute()
  for (const { id } of subscribers) await db.updateTable('subscribers').set({ signing_secret: newSecret() }).where('id', '=', id).execute()

  const channels = await db.selectFrom('notification_channels').select(['id', 'config_json']).where('type', '=', 'webhook').execute()
  for (const { id, config_json } of channels) {
    const config = JSON.parse(config_json) as Record<string, string>
    if (!config.signing_secret) config.signing_secret = newSecret()
    await db.updateTable('notification_channels').set({ config_json: JSON.stringify(config) }).where('id', '=', id).execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const channels = await db.selectFrom('notification_channels').select(['id', 'config_json']).where('type', '=', 'webhook').execute()
  for (const { id, config_json } of channels) {
    const { signing_secret: _, ...config } = JSON.parse(config_json) as Record<string, string>
    await db.updateTable('notification_channels').set({ config_json: JSON.stringify(config) }).where('id', '=', id).execute()
  }
  await db.schema.alterTable('subscribers').dropColumn('signing_secret').execute()
  await db.schema.dropIndex('outbox_finished').execute()
  for (const column of ['finished_at', 'last_attempt_at', 'latency_ms', 'status_code', 'resend_of', 'message_id']) await db.schema.alterTable('outbox').dropColumn(column).execute()
}
