import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openConfiguredDatabase } from '../../../src/db/open.ts'
import { OutboxWorker } from '../../../src/modules/notify/worker.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

describe('claims', () => {
  let hub: ChatHub
  let ctx: TestContext

  beforeAll(async () => {
    hub = await startChatHub()
    ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  })
  afterAll(async () => {
    await ctx.close()
    await hub.close()
  })

  test('two workers on two connections to one database never send the same row twice', async () => {
    await ctx.database.db.transaction().execute((trx) =>
      ctx.app.services.outbox.enqueue(trx, Array.from({ length: 300 }, (_, i) => ({ target: `channel:${i}`, request: { url: `${hub.url}/shared`, headers: {}, body: `{"n":${i}}` } }))),
    )
    const other = openConfiguredDatabase(ctx.config)
    const guard = ctx.app.services.checkDeps.guard
    const first = new OutboxWorker({ db: ctx.database.db, clock: ctx.clock, mail: undefined, guard, userAgent: 'a', concurrency: 8 })
    const second = new OutboxWorker({ db: other.db, clock: ctx.clock, mail: undefined, guard, userAgent: 'b', concurrency: 8 })
    try {
      const [a, b] = await Promise.all([first.drain(), second.drain()])
      expect(a.sent + b.sent).toBe(300)
      expect(a.sent).toBeGreaterThan(0)
      expect(b.sent).toBeGreaterThan(0)
      const numbers = hub.received('/shared').map((request) => request.json().n as number)
      expect(numbers).toHaveLength(300)
      expect(new Set(numbers).size).toBe(300)
    } finally {
      await first.stop(0)
      await second.stop(0)
      await other.close()
    }
  })

  test('stop() lets a delivery in flight finish within the grace time, and gives a hanging one back to the queue', async () => {
    hub.answer('/hang', ['hang'])
    await ctx.database.db.transaction().execute((trx) =>
      ctx.app.services.outbox.enqueue(trx, [
        { target: 'channel:hang', request: { url: `${hub.url}/hang`, headers: {}, body: '{}' } },
        { target: 'channel:quick', request: { url: `${hub.url}/quick`, headers: {}, body: '{}' } },
      ]),
    )
    const worker = new OutboxWorker({ db: ctx.database.db, clock: ctx.clock, mail: undefined, guard: ctx.app.services.checkDeps.guard, userAgent: 'test' })
    await worker.start()
    await hub.waitFor('/hang')
    await hub.waitFor('/quick')
    await worker.stop(300)
    const rows = await ctx.database.db.selectFrom('outbox').select(['target', 'status', 'attempts', 'lease_until']).where('target', 'in', ['channel:hang', 'channel:quick']).orderBy('target').execute()
    expect(rows).toEqual([
      // Given back untouched: the next start sends it at once.
      { target: 'channel:hang', status: 'queued', attempts: 0, lease_until: null },
      { target: 'channel:quick', status: 'sent', attempts: 1, lease_until: null },
    ])
    // The next run (here: a drain) sends it again.
    hub.answer('/hang', [200])
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
  })
})
