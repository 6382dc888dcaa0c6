/**
 * The Notifier's hold: events that carry a cause wait in the database until the cause is flushed,
 * then reach a chat channel as one message. A cause nobody flushes (the process died between the
 * component's write and the incident's) goes out after HOLD_LIMIT_MS; a rolled-back write holds
 * nothing. Events without a cause (a person's change) go out at once, each on its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { HOLD_LIMIT_MS, type NotifyEvent } from '../../../src/modules/notify/contract.ts'

let hub: ChatHub
let ctx: TestContext
let pageId: number
let componentId: number
let seen = 0

/** Slack messages since the last call. */
function fresh() {
  const all = hub.received('/slack')
  const news = all.slice(seen)
  seen = all.length
  return news.map((request) => request.json())
}
const drain = () => ctx.app.services.outboxWorker.drain()
const held = async () => Number((await ctx.database.db.selectFrom('notify_held_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

beforeAll(async () => {
  hub = await startChatHub()
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
  const { key } = await ctx.createOwner('pro')
  const api = (path: string, body?: unknown) => ctx.request(`/user/api/v1${path}`, { method: body === undefined ? 'GET' : 'POST', key, json: body })
  pageId = (await ctx.createPage(key, { name: 'Hold', slug: 'hold' })).id
  componentId = (await json(await api(`/status-pages/${pageId}/components`, { name: 'API' }))).data.id
  const channel = (await json(await api('/notification-channels', { type: 'slack', name: 'Ops', url: `${hub.url}/slack` }))).data
  await api(`/notification-channels/${channel.id}/test`, {})
  await drain()
  // Listing the channel records its verification (the test was delivered).
  expect((await json(await api('/notification-channels'))).data[0].verified).toBe(true)
  fresh()
})
afterAll(async () => {
  await ctx.close()
  await hub.close()
})

/** A component flip and an incident opened under one cause, written in two transactions as the services do. */
async function emitPair(key: string): Promise<void> {
  const { notifier, incidents } = ctx.app.services
  const incident = await ctx.database.db.transaction().execute(async (trx) => {
    const cause = { key, monitorIds: [] }
    await notifier.emit(trx, { kind: 'component.status_changed', pageId, componentId, from: 'up', to: 'down', at: ctx.clock.now(), cause })
    return cause
  })
  const opened = await incidents.openAutomatic({ pageId, componentId, title: `Outage ${key}`, message: 'Down.', notifySubscribers: false, cause: incident })
  expect(opened).toBeDefined()
}

describe('holding the events of a cause', () => {
  test('nothing goes out until the cause is flushed; then one message with both', async () => {
    await emitPair('cause-1')
    await drain()
    expect(fresh()).toHaveLength(0)
    expect(await held()).toBe(2)
    await ctx.app.services.notifier.flush('cause-1')
    expect(await held()).toBe(0)
    await drain()
    const [message, ...more] = fresh()
    expect(more).toHaveLength(0)
    expect(message.blocks[0].text.text).toBe('API: Major outage')
    expect(message.blocks[1].text.text).toContain('Operational → Major outage')
    expect(message.blocks[1].text.text).toContain('Incident opened: Outage cause-1 (Investigating)')
    // A second flush of the same cause sends nothing.
    await ctx.app.services.notifier.flush('cause-1')
    await drain()
    expect(fresh()).toHaveLength(0)
  })

  test('a cause nobody flushed goes out after the hold limit, as one message', async () => {
    await ctx.app.services.incidents.changeAutomatic((await ctx.app.services.incidents.latestAutomatic(componentId))!.id, {
      expect: 'open', state: 'resolved', message: 'Back.', notifySubscribers: false,
    })
    await drain()
    fresh()
    await emitPair('cause-2')
    ctx.clock.advance(HOLD_LIMIT_MS - 1)
    await drain()
    expect(fresh()).toHaveLength(0)
    ctx.clock.advance(2)
    await drain()
    expect(await held()).toBe(0)
    const messages = fresh()
    expect(messages).toHaveLength(1)
    expect(messages[0].blocks[1].text.text).toContain('Incident opened: Outage cause-2')
  })

  test('a write that rolls back holds nothing; an event without a cause goes out at once', async () => {
    const event: NotifyEvent = { kind: 'component.status_changed', pageId, componentId, from: 'down', to: 'up', at: ctx.clock.now(), cause: { key: 'cause-3', monitorIds: [] } }
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        await ctx.app.services.notifier.emit(trx, event)
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await held()).toBe(0)
    const { cause: _cause, ...byPerson } = event
    await ctx.database.db.transaction().execute((trx) => ctx.app.services.notifier.emit(trx, byPerson))
    await drain()
    const messages = fresh()
    expect(messages).toHaveLength(1)
    expect(messages[0].blocks[0].text.text).toStartWith('API: Operational')
  })
})
