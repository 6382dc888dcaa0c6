import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'

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
