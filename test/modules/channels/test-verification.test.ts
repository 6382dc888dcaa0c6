/**
 * A webhook or chat channel is verified by its test send, as soon as the outbox records that
 * delivery's success (in the same transaction), not when someone next reads the channel: an alert
 * right after the test reaches it although nobody looked at the channel in between.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

describe('channels: verified by a successful test send, without a read', () => {
  let hub: ChatHub
  let ctx: TestContext
  let key: string
  let pageId: number
  let componentId: number
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
  const drain = () => ctx.app.services.outboxWorker.drain()
  /** The channel's row as stored (reading it through the API is what this file must not do). */
  const stored = (id: number) => ctx.database.db.selectFrom('notification_channels').select(['verified_at', 'test_requested_at']).where('id', '=', id).executeTakeFirstOrThrow()
  const create = async (body: Record<string, unknown>) => {
    const response = await api('/notification-channels', { method: 'POST', json: { events: ['component.status_changed'], ...body } })
    expect(response.status).toBe(201)
    return (await json(response)).data.id as number
  }

  beforeAll(async () => {
    hub = await startChatHub()
    ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
    ;({ key } = await ctx.createOwner('pro'))
    pageId = (await ctx.createPage(key, { name: 'Acme', slug: 'acme-verify' })).id
    componentId = (await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'API' } }))).data.id
  })
  afterAll(async () => {
    await ctx.close()
    await hub.close()
  })

  test('a webhook and a Slack channel tested and never read again get the next alert', async () => {
    const hook = await create({ type: 'webhook', name: 'Hook', url: `${hub.url}/hook` })
    const slack = await create({ type: 'slack', name: 'Slack', url: `${hub.url}/slack` })
    for (const id of [hook, slack]) expect((await api(`/notification-channels/${id}/test`, { method: 'POST' })).status).toBe(202)
    expect((await drain()).sent).toBe(2)
    expect(hub.received('/hook').map((r) => r.json().type)).toEqual(['test'])
    expect(hub.received('/slack')).toHaveLength(1)
    // Verified when the outbox recorded the success: the row says so before anyone reads it.
    for (const id of [hook, slack]) expect((await stored(id)).verified_at).toBe(ctx.clock.now())

    ctx.clock.advance(60_000)
    expect((await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'down' } })).status).toBe(200)
    await drain()
    const alerts = (await hub.waitFor('/hook', 2)).slice(1).map((r) => r.json())
    expect(alerts).toMatchObject([{ type: 'component.status_changed', component_update: { component_id: String(componentId), new_status: 'major_outage' } }])
    expect(await hub.waitFor('/slack', 2)).toHaveLength(2)
  })

  test('a failed test verifies nothing; its successful retry does', async () => {
    hub.answer('/flaky', [500, 200])
    const id = await create({ type: 'webhook', name: 'Flaky', url: `${hub.url}/flaky` })
    await api(`/notification-channels/${id}/test`, { method: 'POST' })
    expect(await drain()).toMatchObject({ sent: 0, failed: 1 })
    expect((await stored(id)).verified_at).toBeNull()
    // Nothing but the test goes to an unverified channel.
    await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'degraded' } })
    await drain()
    expect(hub.received('/flaky')).toHaveLength(1)

    ctx.clock.advance(60_000)
    expect(await drain()).toMatchObject({ sent: 1 })
    expect((await stored(id)).verified_at).toBe(ctx.clock.now())
    await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'up' } })
    await drain()
    const got = await hub.waitFor('/flaky', 3)
    expect(got.map((r) => r.json().type)).toEqual(['test', 'test', 'component.status_changed'])
  })

  test('changing the URL makes the channel unverified; a delivery that was already queued does not verify it again', async () => {
    const id = await create({ type: 'webhook', name: 'Moving', url: `${hub.url}/old` })
    await api(`/notification-channels/${id}/test`, { method: 'POST' })
    await drain()
    expect((await stored(id)).verified_at).not.toBeNull()
    // An alert queued for the old URL, then the URL changes before the outbox sends it.
    await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'down' } })
    expect((await api(`/notification-channels/${id}`, { method: 'PATCH', json: { url: `${hub.url}/new` } })).status).toBe(200)
    expect(await stored(id)).toEqual({ verified_at: null, test_requested_at: null })
    await drain()
    expect(await stored(id)).toEqual({ verified_at: null, test_requested_at: null })
  })
})
