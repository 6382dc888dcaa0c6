import { expect, test } from 'bun:test'
import { migrations } from '../../db/migrations/index.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createAddressGuard } from '../../src/lib/address-guard.ts'
import { HeldEventsRepo } from '../../src/modules/notify/held-events.ts'
import { createSmtpSender } from '../../src/modules/notify/smtp-transport.ts'
import { OutboxWorker } from '../../src/modules/notify/worker.ts'
import { ManualClock } from '../helpers/clock.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { databaseBefore } from '../helpers/database-before.ts'

// An instance upgraded with a mail still queued by the old code (no Message-ID in its row): the
// new table arrives, and the old row goes out with the Message-ID the old code would have given it.
test('the held-events migration on a database of the code before it; an old queued mail keeps its old Message-ID', async () => {
  const smtp = await startSmtp()
  const database = await databaseBefore('2026_11_29_0100_status_daily_down_spans')
  const { db } = database
  try {
    const clock = new ManualClock(Date.UTC(2026, 10, 30, 9, 0, 0))
    const old = { mail: { to: 'old@example.com', subject: 'Queued before the upgrade', text: 'Hello.' } }
    const { id } = await db
      .insertInto('outbox')
      .values({ target: 'address:old@example.com', kind: 'mail', payload_json: JSON.stringify(old), next_attempt_at: clock.now(), lease_until: null, last_error: null, created_at: clock.now(), sent_at: null })
      .returning('id')
      .executeTakeFirstOrThrow()

    // Every later migration runs too (the test keeps working as migrations are added); this one first.
    expect((await migrateToLatest(db))[0]).toBe('2026_11_30_0400_notify_held_events')
    const held = new HeldEventsRepo(db, clock)
    await held.hold(db, 'k', { kind: 'component.status_changed', pageId: 1, componentId: 2, from: 'up', to: 'down', at: clock.now() })
    expect(await held.transaction((trx) => held.take(trx, 'k'))).toEqual([{ kind: 'component.status_changed', pageId: 1, componentId: 2, from: 'up', to: 'down', at: clock.now() }])

    const config = loadConfig({ BASE_URL: 'https://lantern.test', ...database.env, ...smtp.env })
    const worker = new OutboxWorker({ db, clock, mail: createSmtpSender(config.mail), guard: createAddressGuard({ resolve: async () => [], allowPrivate: false }), userAgent: 'test' })
    expect(await worker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
    await worker.stop()
    const mail = await smtp.waitFor((m) => m.to === 'old@example.com')
    expect(mail.messageId).toBe(`<outbox.${id}@lantern.test>`)
    expect(mail.html).toContain('<p>Hello.</p>')
  } finally {
    await database.dispose()
    await smtp.close()
  }
})
