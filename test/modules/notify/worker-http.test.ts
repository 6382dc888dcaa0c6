import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { OutboxWorker, RETRY_DELAYS_MIN } from '../../../src/modules/notify/worker.ts'

const MINUTE = 60_000

describe('webhook and chat deliveries through the outbox worker', () => {
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

  const enqueue = (target: string, path: string, body: unknown) =>
    ctx.database.db.transaction().execute((trx) =>
      ctx.app.services.outbox.enqueue(trx, [{ target, request: { url: `${hub.url}${path}`, headers: { 'x-signature': 'sig' }, body: JSON.stringify(body) } }]),
    )

  test('one target gets its deliveries one at a time, in the order they were queued', async () => {
    const { outboxWorker } = ctx.app.services
    hub.answer('/ordered', [{ status: 200, delayMs: 30 }])
    for (let n = 1; n <= 5; n++) await enqueue('channel:ordered', '/ordered', { n })
    expect(await outboxWorker.drain()).toEqual({ sent: 5, failed: 0, dead: 0 })
    const requests = hub.received('/ordered')
    expect(requests.map((r) => r.json().n)).toEqual([1, 2, 3, 4, 5])
    // Each arrived after the one before was answered (a resolve never overtakes its trigger).
    expect(requests.map((r) => r.concurrent)).toEqual([0, 0, 0, 0, 0])
  })

  test('a 500 is retried after 1 minute (not before), then a 200 marks it sent', async () => {
    const { outboxWorker } = ctx.app.services
    hub.answer('/retry', [500, 200])
    await enqueue('channel:1', '/retry', { text: 'API is down' })
    expect(await outboxWorker.drain()).toEqual({ sent: 0, failed: 1, dead: 0 })
    expect((await outboxWorker.deliveryHistory(['channel:1'])).get('channel:1')).toMatchObject({ lastResult: 'failed', lastError: 'HTTP 500', queued: 1 })
    ctx.clock.advance(MINUTE - 1)
    expect(await outboxWorker.drain()).toEqual({ sent: 0, failed: 0, dead: 0 })
    ctx.clock.advance(1)
    expect(await outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
    const requests = hub.received('/retry')
    expect(requests).toHaveLength(2)
    expect(requests[1]!.json()).toEqual({ text: 'API is down' })
    expect(requests[1]!.headers.get('x-signature')).toBe('sig')
    expect(requests[1]!.headers.get('content-type')).toBe('application/json')
    expect((await outboxWorker.deliveryHistory(['channel:1'])).get('channel:1')).toMatchObject({ lastResult: 'sent', lastError: null, queued: 0 })
  })
})

describe('more deliveries than slots', () => {
  test('drain() keeps claiming until nothing is due, whatever the concurrency', async () => {
    const hub = await startChatHub()
    const ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
    const worker = new OutboxWorker({ db: ctx.database.db, clock: ctx.clock, mail: undefined, guard: ctx.app.services.checkDeps.guard, userAgent: 'test', concurrency: 2 })
    try {
      await ctx.database.db.transaction().execute((trx) =>
        ctx.app.services.outbox.enqueue(trx, Array.from({ length: 25 }, (_, i) => ({ target: `channel:${i % 3}`, request: { url: `${hub.url}/many`, headers: {}, body: `{"n":${i}}` } }))),
      )
      expect(await worker.drain()).toEqual({ sent: 25, failed: 0, dead: 0 })
      expect(hub.received('/many').map((request) => request.json().n).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i))
    } finally {
      await worker.stop(0)
      await ctx.close()
      await hub.close()
    }
  })
})

describe('the production loop', () => {
  test('start() keeps delivering while all slots are busy when it looks, and stop() ends it', async () => {
    const hub = await startChatHub()
    const ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
    // Looking every millisecond with two slots: most looks find every slot busy.
    const worker = new OutboxWorker({ db: ctx.database.db, clock: ctx.clock, mail: undefined, guard: ctx.app.services.checkDeps.guard, userAgent: 'test', concurrency: 2, pollMs: 1 })
    try {
      await ctx.database.db.transaction().execute((trx) =>
        ctx.app.services.outbox.enqueue(trx, Array.from({ length: 60 }, (_, i) => ({ target: `channel:${i}`, request: { url: `${hub.url}/loop`, headers: {}, body: '{}' } }))),
      )
      await worker.start()
      await hub.waitFor('/loop', 60, 20_000)
    } finally {
      await worker.stop()
      await ctx.close()
      await hub.close()
    }
  })
})

describe('failures, timeouts and disabling', () => {
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
  // Each test starts with an empty queue: what one test left for later is not another's business.
  afterEach(() => ctx.database.db.deleteFrom('outbox').where('status', '=', 'queued').execute())

  const enqueue = (target: string, path: string, count = 1) =>
    ctx.database.db.transaction().execute((trx) =>
      ctx.app.services.outbox.enqueue(trx, Array.from({ length: count }, (_, i) => ({ target, request: { url: `${hub.url}${path}`, headers: {}, body: `{"n":${i}}` } }))),
    )
  const queuedFor = async (target: string) =>
    Number((await ctx.database.db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('n')).where('target', '=', target).where('status', '=', 'queued').executeTakeFirstOrThrow()).n)

  /** Drains, then walks the clock through the whole retry schedule (1, 5, 30, 120, 720 min). */
  async function throughSchedule(): Promise<{ sent: number; failed: number; dead: number }> {
    const total = { sent: 0, failed: 0, dead: 0 }
    const add = (counts: typeof total) => {
      total.sent += counts.sent
      total.failed += counts.failed
      total.dead += counts.dead
    }
    add(await ctx.app.services.outboxWorker.drain())
    for (const minutes of RETRY_DELAYS_MIN) {
      ctx.clock.advance(minutes * MINUTE)
      add(await ctx.app.services.outboxWorker.drain())
    }
    return total
  }

  test('a 3xx is a failure and the redirect is not followed', async () => {
    hub.answer('/moved', [{ status: 302, location: `${hub.url}/elsewhere` }])
    await enqueue('channel:moved', '/moved')
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 0, failed: 1, dead: 0 })
    expect(hub.received('/elsewhere')).toHaveLength(0)
    const history = (await ctx.app.services.outboxWorker.deliveryHistory(['channel:moved'])).get('channel:moved')!
    expect(history.lastError).toStartWith('HTTP 302 (redirects are not followed')
  })

  test('a delivery that fails six times goes dead after the documented schedule: 1, 5, 30, 120, 720 minutes', async () => {
    hub.answer('/down', [503])
    await enqueue('channel:down', '/down')
    expect(await throughSchedule()).toEqual({ sent: 0, failed: 5, dead: 1 })
    expect(hub.received('/down')).toHaveLength(6)
    const row = await ctx.database.db.selectFrom('outbox').selectAll().where('target', '=', 'channel:down').executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'dead', attempts: 6, last_error: 'HTTP 503' })
    // Nothing more is ever tried.
    ctx.clock.advance(30 * 24 * 60 * MINUTE)
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 0, failed: 0, dead: 0 })
  })

  test('20 dead deliveries in a row disable the target, run the hooks once, and stop new rows; a success resets the count', async () => {
    const disabled: string[] = []
    ctx.app.services.outboxWorker.onTargetDisabled(async (trx, target) => {
      // The hook runs in the worker's transaction: it can write.
      await trx.updateTable('outbox_targets').set({ last_error: `told the owner of ${target}` }).where('target', '=', target).execute()
      disabled.push(target)
    })
    hub.answer('/flaky', [500])
    await enqueue('channel:flaky', '/flaky', 19)
    expect(await throughSchedule()).toMatchObject({ dead: 19 })
    // One success in between resets the count: 19 + 1 more dead is not 20 in a row.
    hub.answer('/flaky', [200, 500])
    await enqueue('channel:flaky', '/flaky')
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
    await enqueue('channel:flaky', '/flaky')
    expect(await throughSchedule()).toMatchObject({ dead: 1 })
    expect(disabled).toEqual([])

    await enqueue('channel:flaky', '/flaky', 19)
    expect(await throughSchedule()).toMatchObject({ dead: 19 })
    expect(disabled).toEqual(['channel:flaky'])
    const history = (await ctx.app.services.outboxWorker.deliveryHistory(['channel:flaky'])).get('channel:flaky')!
    expect(history).toMatchObject({ lastResult: 'dead', consecutiveDead: 20, disabledAt: ctx.clock.now(), lastError: 'told the owner of channel:flaky' })

    // A disabled target gets no new rows; other targets still do.
    await enqueue('channel:flaky', '/flaky', 3)
    expect(await queuedFor('channel:flaky')).toBe(0)
    await enqueue('channel:other', '/other')
    expect(await queuedFor('channel:other')).toBe(1)
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })

    // The owner fixed it: enabled again, with a clean count.
    await ctx.app.services.outbox.enableTarget(ctx.database.db, 'channel:flaky')
    await enqueue('channel:flaky', '/flaky')
    expect(await queuedFor('channel:flaky')).toBe(1)
    expect((await ctx.app.services.outboxWorker.deliveryHistory(['channel:flaky'])).get('channel:flaky')).toMatchObject({ consecutiveDead: 0, disabledAt: null, queued: 1 })
  })

  test('a hanging receiver times out as a failure and does not hold up the others', async () => {
    const worker = new OutboxWorker({ db: ctx.database.db, clock: ctx.clock, mail: undefined, guard: ctx.app.services.checkDeps.guard, userAgent: 'test', httpTimeoutMs: 3000 })
    hub.answer('/hang', ['hang'])
    hub.answer('/fast', [200])
    await enqueue('channel:hang', '/hang', 2)
    for (let i = 0; i < 5; i++) await enqueue(`channel:fast${i}`, '/fast')
    let drained = false
    const draining = worker.drain().then((counts) => {
      drained = true
      return counts
    })
    // All five fast deliveries arrive while the hanging ones still wait for their answer.
    await hub.waitFor('/fast', 5)
    await hub.waitFor('/hang', 2)
    expect(drained).toBe(false)
    expect(await draining).toEqual({ sent: 5, failed: 2, dead: 0 })
    const history = (await worker.deliveryHistory(['channel:hang'])).get('channel:hang')!
    expect(history).toMatchObject({ lastResult: 'failed', lastError: 'no answer within 3 s', queued: 2 })
    await worker.stop(0)
  })
})

describe('the address guard', () => {
  test('refuses a private URL unless MONITOR_PRIVATE_TARGETS allows it, and nothing is sent', async () => {
    const hub = await startChatHub()
    const ctx = await createTestContext()
    try {
      await ctx.database.db.transaction().execute((trx) =>
        ctx.app.services.outbox.enqueue(trx, [
          { target: 'channel:private', request: { url: `${hub.url}/private`, headers: {}, body: '{}' } },
          { target: 'channel:metadata', request: { url: 'http://169.254.169.254/latest/meta-data/', headers: {}, body: '{}' } },
        ]),
      )
      expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 0, failed: 2, dead: 0 })
      expect(hub.requests).toHaveLength(0)
      const history = await ctx.app.services.outboxWorker.deliveryHistory(['channel:private', 'channel:metadata'])
      expect(history.get('channel:private')!.lastError).toContain('MONITOR_PRIVATE_TARGETS=1 allows it')
      expect(history.get('channel:metadata')!.lastError).toContain('cloud metadata')
    } finally {
      await ctx.close()
      await hub.close()
    }
  })
})
