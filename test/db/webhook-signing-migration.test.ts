/**
 * An instance upgraded with webhooks already set up (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): existing webhook channels and subscribers get a whsec_ secret, a channel
 * keeps its old secret for the deprecated header, finished outbox rows get their finish time, and a
 * row queued before the upgrade is delivered signed, with a webhook-id derived from its row.
 */
import { expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { verifyLegacySignature } from '../../src/modules/notify/webhook-signing.ts'
import { createServices } from '../../src/services.ts'
import { startChatHub } from '../helpers/chat-hub.ts'
import { ManualClock } from '../helpers/clock.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { verifyStandardWebhook } from '../helpers/standard-webhooks.ts'

const BEFORE = '2026_11_30_0400_notify_held_events'
const LEGACY = 'an-old-secret-0123456789'

test('the Standard Webhooks migration on a database made before it', async () => {
  const hub = await startChatHub()
  const database = await databaseBefore(BEFORE)
  const { db } = database
  try {
    const now = Date.UTC(2026, 10, 20)
    const user = await db.insertInto('users').values({ email: 'o@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: now }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old', name: 'Old', visibility: 'public', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()
    const channel = await db
      .insertInto('notification_channels')
      .values({ owner_id: user.id, type: 'webhook', name: 'Old hook', config_json: JSON.stringify({ url: `${hub.url}/old`, secret: LEGACY }), events_json: '["incident.opened"]', verified_at: now, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const subscriber = (kind: string, address: Record<string, string>) =>
      db.insertInto('subscribers').values({ page_id: page.id, kind, ...address, source: 'owner', confirmed_at: now, manage_key: `k-${kind}`, created_at: now } as never).returning('id').executeTakeFirstOrThrow()
    const hook = await subscriber('webhook', { url: `${hub.url}/sub` })
    const mail = await subscriber('email', { email: 'r@example.com' })
    const row = (status: string, payload: unknown, sentAt: number | null) =>
      db
        .insertInto('outbox')
        .values({ target: `channel:${channel.id}`, kind: 'http', payload_json: JSON.stringify(payload), attempts: sentAt ? 1 : 0, next_attempt_at: now, status, created_at: now - 60_000, sent_at: sentAt } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    const body = JSON.stringify({ version: '1', type: 'incident.opened' })
    const sent = await row('sent', { request: { url: `${hub.url}/old`, headers: {}, body, signed: true } }, now - 30_000)
    const queued = await row('queued', { request: { url: `${hub.url}/old`, headers: { 'content-type': 'application/json' }, body, signed: true } }, null)

    expect((await migrateToLatest(db))[0]).toBe('2026_11_30_0500_webhook_signing_and_delivery_log')
    const settings = JSON.parse((await db.selectFrom('notification_channels').select('config_json').where('id', '=', channel.id).executeTakeFirstOrThrow()).config_json)
    const signingSecret: string = settings.signing_secret
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(settings).toEqual({ url: `${hub.url}/old`, secret: LEGACY, signing_secret: signingSecret })
    const secrets = await db.selectFrom('subscribers').select(['id', 'signing_secret']).orderBy('id').execute()
    expect(secrets.find((s: { id: number }) => s.id === hook.id)!.signing_secret).toMatch(/^whsec_/)
    expect(secrets.find((s: { id: number }) => s.id === mail.id)!.signing_secret).toBeNull()
    const rows = await db.selectFrom('outbox').select(['id', 'finished_at', 'message_id']).orderBy('id').execute()
    expect(rows.map((r) => [r.id, r.finished_at === null ? null : Number(r.finished_at), r.message_id])).toEqual([
      [sent.id, now - 30_000, null],
      [queued.id, null, null],
    ])

    // The upgraded server delivers the row queued before: signed both ways, its webhook-id from the row.
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', MONITOR_PRIVATE_TARGETS: '1', ...database.env })
    const services = createServices({ db, config, clock: new ManualClock(now) })
    expect(await services.outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
    const [delivered] = hub.received('/old')
    expect(delivered!.headers.get('webhook-id')).toBe(`msg_outbox_${queued.id}`)
    expect(verifyStandardWebhook(signingSecret, delivered!)).toEqual(JSON.parse(body))
    expect(await verifyLegacySignature(LEGACY, delivered!.body, delivered!.headers.get('x-lantern-signature'))).toBe(true)
  } finally {
    await database.dispose()
    await hub.close()
  }
})
