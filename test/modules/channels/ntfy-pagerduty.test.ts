/**
 * ntfy's byte limit and PagerDuty's alert lifecycle, over the wire to the chat hub: a long
 * non-ASCII message stays within ntfy's 4,096 bytes and is still valid UTF-8; "Send test" leaves
 * no PagerDuty alert open; maintenance windows become change events, never alerts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const ROUTING_KEY = 'R0123456789abcdef0123456789abcde'

describe('ntfy and PagerDuty', () => {
  let hub: ChatHub
  let ctx: TestContext
  let key: string
  let pageId: number
  const ids: Record<string, number> = {}
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
  const drain = () => ctx.app.services.outboxWorker.drain()

  beforeAll(async () => {
    hub = await startChatHub()
    ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1', NTFY_URL: `${hub.url}/ntfy`, PAGERDUTY_EVENTS_URL: `${hub.url}/pd/v2/enqueue` } })
    ;({ key } = await ctx.createOwner())
    pageId = (await ctx.createPage(key, { name: 'Acme', slug: 'acme' })).id
    for (const [type, settings] of [['ntfy', { topic: 'alerts' }], ['pagerduty', { routing_key: ROUTING_KEY }]] as const) {
      const created = await api('/notification-channels', { method: 'POST', json: { type, name: type, ...settings } })
      expect(created.status).toBe(201)
      ids[type] = (await json(created)).data.id
    }
  })
  afterAll(async () => {
    await ctx.close()
    await hub.close()
  })

  test('"Send test" to PagerDuty triggers and resolves the same alert, in that order', async () => {
    expect((await api(`/notification-channels/${ids.pagerduty}/test`, { method: 'POST' })).status).toBe(202)
    await drain()
    const sent = (await hub.waitFor('/pd/v2/enqueue', 2)).map((r) => r.json())
    expect(sent.map((p) => p.event_action)).toEqual(['trigger', 'resolve'])
    expect(sent[0].dedup_key).toStartWith('lantern:test:')
    expect(sent[1]).toEqual({ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: sent[0].dedup_key })
    expect((await json(await api(`/notification-channels/${ids.pagerduty}`))).data.verified).toBe(true)
  })

  test('a maintenance window goes to PagerDuty as change events, never as an alert', async () => {
    const alertsBefore = hub.received('/pd/v2/enqueue').length
    const start = ctx.clock.now() + 3_600_000
    const created = await api('/maintenances', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Upgrade', start_at: new Date(start).toISOString(), end_at: new Date(start + 1_800_000).toISOString() },
    })
    expect(created.status).toBe(201)
    ctx.clock.set(start)
    await ctx.app.services.maintenanceSweeper.sweep()
    ctx.clock.set(start + 1_800_000)
    await ctx.app.services.maintenanceSweeper.sweep()
    await drain()
    const changes = (await hub.waitFor('/pd/v2/change/enqueue', 3)).map((r) => r.json())
    expect(changes.map((c) => c.payload.custom_details.event)).toEqual(['maintenance.scheduled', 'maintenance.started', 'maintenance.ended'])
    expect(changes[0]).toMatchObject({ routing_key: ROUTING_KEY, payload: { summary: 'Maintenance scheduled: Upgrade', source: 'https://acme.status.test' } })
    for (const change of changes) expect(change.event_action).toBeUndefined()
    expect(hub.received('/pd/v2/enqueue')).toHaveLength(alertsBefore)
  })

  test('a long non-ASCII message reaches ntfy within 4,096 bytes, cut between characters', async () => {
    expect((await api(`/notification-channels/${ids.ntfy}/test`, { method: 'POST' })).status).toBe(202)
    await drain()
    expect((await json(await api(`/notification-channels/${ids.ntfy}`))).data.verified).toBe(true)
    // Under 4,000 characters (the old cut) but far over 4,096 bytes: letters of 2 bytes, a horse of 4.
    const message = 'Žluťoučký kůň 🐎 '.repeat(230).trim()
    expect(message.length).toBeLessThan(3_950)
    expect(new TextEncoder().encode(message).length).toBeGreaterThan(5_000)
    const created = await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Přerušení služby', message } })
    expect(created.status).toBe(201)
    await drain()
    const request = (await hub.waitFor('/ntfy/alerts', 2)).at(-1)
    const bytes = new TextEncoder().encode(request!.body)
    expect(bytes.length).toBeLessThanOrEqual(4096)
    expect(bytes.length).toBeGreaterThan(4000)
    // Valid UTF-8 that decodes without a replacement character, ending on a whole character.
    expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toBe(request!.body)
    expect(request!.body).not.toContain('\ufffd')
    expect(request!.body).toEndWith('…')
    expect(request!.body).toContain('Žluťoučký kůň 🐎')
  })
})
