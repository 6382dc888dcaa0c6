/**
 * Webhooks end to end, received by the chat hub: one payload for channels and subscribers (every
 * captured body valid against the one schema, checked by ajv with no field the schema leaves out),
 * Statuspage's page indicator, Standard Webhooks signatures checked by the official library on
 * both kinds, and the delivery log with "send again" in the API (ownership, 404s, 409s, retention).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { startChatHub, type ChatHub, type HubRequest } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { verifyStandardWebhook } from '../../helpers/standard-webhooks.ts'
import { WebhookPayload } from '../../../src/modules/channels/webhook-schema.ts'

/** The schema with every object closed: a payload field the schema does not describe fails too. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed)
  if (schema === null || typeof schema !== 'object') return schema
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) copy[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, closed(v)])) : closed(value)
  if ((schema as { type?: string }).type === 'object' && 'properties' in schema) copy.additionalProperties = false
  return copy
}

const ajv = new Ajv2020({ allErrors: true, strict: false })
addFormats(ajv)
const validate = ajv.compile(closed(WebhookPayload) as object)

describe('webhooks: one payload, Standard Webhooks, delivery log', () => {
  let hub: ChatHub
  let ctx: TestContext
  let key: string
  let other: string
  let pageId: number
  let componentIds: number[]
  let channelId: number
  let channelSecret: string
  let subscriberId: number
  let subscriberSecret: string
  const api = (path: string, init: RequestInit & { json?: unknown } = {}, apiKey = key) => ctx.request(`/user/api/v1${path}`, { key: apiKey, ...init })
  const drain = () => ctx.app.services.outboxWorker.drain()
  const captured: HubRequest[] = []
  const seen = { '/channel': 0, '/subscriber': 0 }
  /** What each receiver got since the last call. */
  const fresh = (path: '/channel' | '/subscriber') => {
    const all = hub.received(path)
    const news = all.slice(seen[path])
    seen[path] = all.length
    captured.push(...news)
    return news
  }

  beforeAll(async () => {
    hub = await startChatHub()
    ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1' } })
    ;({ key } = await ctx.createOwner('pro'))
    ;({ key: other } = await ctx.createOwner('pro'))
    pageId = (await ctx.createPage(key, { name: 'Acme', slug: 'acme' })).id
    componentIds = []
    for (const name of ['API', 'Web']) componentIds.push((await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name } }))).data.id)
    const channel = await api('/notification-channels', { method: 'POST', json: { type: 'webhook', name: 'Hook', url: `${hub.url}/channel`, events: ['incident.opened', 'incident.updated', 'incident.resolved', 'component.status_changed', 'maintenance.scheduled', 'maintenance.started', 'maintenance.ended', 'certificate.expiring'] } })
    expect(channel.status).toBe(201)
    ;({ id: channelId, signing_secret: channelSecret } = (await json(channel)).data)
    const subscriber = await api(`/status-pages/${pageId}/subscribers`, { method: 'POST', json: { kind: 'webhook', url: `${hub.url}/subscriber`, consent: true } })
    expect(subscriber.status).toBe(201)
    ;({ id: subscriberId, signing_secret: subscriberSecret } = (await json(subscriber)).data)
  })
  afterAll(async () => {
    await ctx.close()
    await hub.close()
  })

  test('the signing secrets are shown once, in the answer that made them', async () => {
    expect(channelSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(subscriberSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const channel = await (await api(`/notification-channels/${channelId}`)).text()
    expect(channel).not.toContain(channelSecret)
    expect(JSON.parse(channel).data.settings.signing_secret).toBe(`…${channelSecret.slice(-4)}`)
    expect(await (await api(`/status-pages/${pageId}/subscribers`)).text()).not.toContain(subscriberSecret)
  })

  test('a test send: the schema\'s shape, no page, signed', async () => {
    expect((await api(`/notification-channels/${channelId}/test`, { method: 'POST' })).status).toBe(202)
    await drain()
    const [request] = fresh('/channel')
    expect(verifyStandardWebhook(channelSecret, request!)).toMatchObject({ version: '2', type: 'test', page: null, details: { test: 1 } })
    expect((await json(await api(`/notification-channels/${channelId}`))).data.verified).toBe(true)
  })

  test('every event: channel and subscriber get the same body but the unsubscribe link, Statuspage-complete', async () => {
    const incident = (await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Errors', message: 'Looking', component_ids: [componentIds[0]], notify_subscribers: true } }))).data
    await drain()
    const [channel] = fresh('/channel')
    const [subscriber] = fresh('/subscriber')
    const fromChannel = channel!.json()
    const fromSubscriber = subscriber!.json()
    expect(fromSubscriber.meta.unsubscribe).toStartWith('https://acme.status.test/unsubscribe?token=')
    expect(fromChannel.meta.unsubscribe).toBeNull()
    expect({ ...fromSubscriber, meta: { ...fromSubscriber.meta, unsubscribe: null } }).toEqual(fromChannel)
    expect(fromChannel).toMatchObject({
      type: 'incident.opened',
      meta: { documentation: 'https://lantern.test/docs/notifications' },
      // An open incident shows the page as degraded: Statuspage's "minor".
      page: { id: 'acme', api_id: pageId, name: 'Acme', url: 'https://acme.status.test', status_indicator: 'minor', status_description: 'Minor Service Outage' },
      incident: { id: String(incident.id), name: 'Errors', status: 'investigating', impact: 'minor', page_id: 'acme', shortlink: `https://acme.status.test/incidents/${incident.id}`, scheduled_for: null },
    })
    expect(fromChannel.incident.incident_updates[0]).toMatchObject({ status: 'investigating', body: 'Looking', incident_id: String(incident.id) })
    // Both kinds are signed, each with its own secret, and pass the official verifier.
    expect(verifyStandardWebhook(channelSecret, channel!)).toEqual(fromChannel)
    expect(verifyStandardWebhook(subscriberSecret, subscriber!)).toEqual(fromSubscriber)
    expect(() => verifyStandardWebhook(channelSecret, subscriber!)).toThrow()
    expect(subscriber!.headers.get('x-lantern-signature')).toBeNull()

    await api(`/incidents/${incident.id}/updates`, { method: 'POST', json: { message: 'Fixed', state: 'monitoring', notify_subscribers: true } })
    await api(`/incidents/${incident.id}`, { method: 'PATCH', json: { state: 'resolved', message: 'All good', notify_subscribers: true } })
    await drain()
    const [updated, resolved] = fresh('/channel').map((r) => r.json())
    expect(updated.incident).toMatchObject({ status: 'monitoring', monitoring_at: expect.any(String) })
    expect(resolved).toMatchObject({ type: 'incident.resolved', page: { status_indicator: 'none', status_description: 'All Systems Operational' }, incident: { status: 'resolved', resolved_at: expect.any(String) } })
    expect(fresh('/subscriber').map((r) => r.json().type)).toEqual(['incident.updated', 'incident.resolved'])
  })

  test('page indicators follow the page: degraded minor, one of two down major, all down critical', async () => {
    const expected: Array<[number, string, string, string, string]> = [
      [componentIds[0]!, 'degraded', 'minor', 'Minor Service Outage', 'degraded_performance'],
      [componentIds[0]!, 'down', 'major', 'Partial System Outage', 'major_outage'],
      [componentIds[1]!, 'down', 'critical', 'Major Service Outage', 'major_outage'],
      [componentIds[0]!, 'up', 'major', 'Partial System Outage', 'operational'],
      [componentIds[1]!, 'up', 'none', 'All Systems Operational', 'operational'],
    ]
    for (const [id, status] of expected) await api(`/components/${id}`, { method: 'PATCH', json: { status } })
    await drain()
    const got = fresh('/channel').map((r) => r.json())
    expect(got.map((p) => [Number(p.component.id), p.page.status_indicator, p.page.status_description, p.component_update.new_status])).toEqual(
      expected.map(([id, , indicator, description, word]) => [id, indicator, description, word]),
    )
    expect(got[1]).toMatchObject({ component_update: { component_id: String(componentIds[0]), old_status: 'degraded_performance', new_status: 'major_outage' }, component: { name: 'API' } })
  })

  test('maintenance: an incident with impact maintenance, to both kinds; events without a page carry details', async () => {
    const start = ctx.clock.now() + 3_600_000
    const created = await api('/maintenances', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Upgrade', message: 'Read-only', start_at: new Date(start).toISOString(), end_at: new Date(start + 1_800_000).toISOString(), component_ids: [componentIds[1]], notify_subscribers: true },
    })
    expect(created.status).toBe(201)
    ctx.clock.set(start)
    await ctx.app.services.maintenanceSweeper.sweep()
    await drain()
    const [scheduled, started] = fresh('/channel').map((r) => r.json())
    expect(scheduled.incident).toMatchObject({ impact: 'maintenance', status: 'scheduled', scheduled_for: new Date(start).toISOString(), components: [{ id: String(componentIds[1]), name: 'Web' }] })
    expect(started).toMatchObject({ page: { status_indicator: 'maintenance' }, incident: { status: 'in_progress' } })
    expect(fresh('/subscriber').map((r) => r.json().incident.status)).toEqual(['scheduled', 'in_progress'])
    const ownerId = (await ctx.database.db.selectFrom('status_pages').select('owner_id').where('id', '=', pageId).executeTakeFirstOrThrow()).owner_id
    await ctx.database.db.transaction().execute((trx) =>
      ctx.app.services.notifier.emit(trx, { kind: 'certificate.expiring', pageId: null, ownerId, monitorId: 4, host: 'api.acme.example', daysLeft: 5, notAfter: ctx.clock.now() + 5 * 86_400_000, at: ctx.clock.now() }),
    )
    await drain()
    expect(fresh('/channel').map((r) => r.json())).toMatchObject([{ type: 'certificate.expiring', page: null, details: { host: 'api.acme.example', days_left: 5 } }])
  })

  test('every captured payload of both kinds is valid against the one schema, and nothing else is in it', () => {
    expect(captured.length).toBeGreaterThanOrEqual(15)
    expect(new Set(captured.map((r) => r.path))).toEqual(new Set(['/channel', '/subscriber']))
    for (const request of captured) {
      if (!validate(request.json())) throw new Error(`${request.path} ${request.json().type}: ${ajv.errorsText(validate.errors)}`)
    }
    // What Zulip's Statuspage integration reads (it failed on every event before): topic from
    // page.status_description, text from the incident or the component change.
    const pageEvents = captured.map((r) => r.json()).filter((p) => p.incident || p.component)
    expect(pageEvents.length).toBeGreaterThanOrEqual(12)
    for (const p of pageEvents) {
      const read = p.incident ? [p.incident.name, p.incident.status, p.incident.incident_updates[0].body] : [p.component.name, p.component_update.old_status, p.component_update.new_status]
      expect([p.type, typeof p.page.status_description, ...read.map((v: unknown) => typeof v)]).toEqual([p.type, 'string', 'string', 'string', 'string'])
    }
    expect(validate({ ...captured[0]!.json(), surprise: true })).toBe(false)
    expect(validate({ ...captured[1]!.json(), page: { ...captured[1]!.json().page, status_indicator: 'unknown' } })).toBe(false)
  })

  test('the delivery log: status code, latency, attempts, next retry, error; send again keeps the webhook-id', async () => {
    hub.answer('/channel', [503, 200])
    await api(`/components/${componentIds[0]}`, { method: 'PATCH', json: { status: 'degraded' } })
    await drain()
    const [failed] = fresh('/channel')
    const log = await json(await api(`/notification-channels/${channelId}/deliveries`))
    expect(log.meta).toEqual({ retention_days: 30 })
    const [entry] = log.data
    expect(entry).toMatchObject({ kind: 'http', status: 'queued', attempts: 1, status_code: 503, error: 'HTTP 503', what: 'API: Degraded performance', message_id: failed!.headers.get('webhook-id'), resend_of: null })
    expect(entry.latency_ms).toBeGreaterThanOrEqual(0)
    expect(entry.last_attempt_at).toBe(new Date(ctx.clock.now()).toISOString())
    expect(entry.next_attempt_at).toBe(new Date(ctx.clock.now() + 60_000).toISOString())
    // Still queued: it will be retried on its own.
    const early = await api(`/notification-channels/${channelId}/deliveries/${entry.id}/resend`, { method: 'POST' })
    expect(early.status).toBe(409)
    ctx.clock.advance(60_000)
    await drain()
    const [retried] = fresh('/channel')
    expect(retried!.headers.get('webhook-id')).toBe(failed!.headers.get('webhook-id'))
    const after = (await json(await api(`/notification-channels/${channelId}/deliveries`))).data[0]
    expect(after).toMatchObject({ id: entry.id, status: 'sent', attempts: 2, status_code: 200, error: null, next_attempt_at: null })

    const again = await api(`/notification-channels/${channelId}/deliveries/${entry.id}/resend`, { method: 'POST' })
    expect(again.status).toBe(202)
    const copy = (await json(again)).data
    expect(copy).toMatchObject({ status: 'queued', attempts: 0, resend_of: entry.id, message_id: entry.message_id })
    await drain()
    const [resent] = fresh('/channel')
    expect(resent!.body).toBe(retried!.body)
    expect(resent!.headers.get('webhook-id')).toBe(entry.message_id)
    expect(verifyStandardWebhook(channelSecret, resent!)).toEqual(retried!.json())
    const newest = (await json(await api(`/notification-channels/${channelId}/deliveries?limit=2`))).data
    expect(newest.map((d: { id: number }) => d.id)).toEqual([copy.id, entry.id])
    expect(newest[0]).toMatchObject({ status: 'sent', status_code: 200, attempts: 1 })
    expect((await json(await api(`/notification-channels/${channelId}/deliveries?before=${copy.id}&limit=1`))).data[0].id).toBe(entry.id)
  })

  test('the subscriber\'s log and send again; a new signing secret replaces the old one at once', async () => {
    const log = (await json(await api(`/status-pages/${pageId}/subscribers/${subscriberId}/deliveries`))).data
    expect(log.length).toBeGreaterThanOrEqual(5)
    expect(log.every((d: { status: string; status_code: number }) => d.status === 'sent' && d.status_code === 200)).toBe(true)
    const renewed = await api(`/status-pages/${pageId}/subscribers/${subscriberId}/signing-secret`, { method: 'POST' })
    expect(renewed.status).toBe(200)
    const secret = (await json(renewed)).data.signing_secret
    expect(secret).toMatch(/^whsec_/)
    expect(secret).not.toBe(subscriberSecret)
    expect((await api(`/status-pages/${pageId}/subscribers/${subscriberId}/deliveries/${log[0].id}/resend`, { method: 'POST' })).status).toBe(202)
    await drain()
    const [resent] = fresh('/subscriber')
    expect(resent!.headers.get('webhook-id')).toBe(log[0].message_id)
    expect(verifyStandardWebhook(secret, resent!)).toEqual(resent!.json())
    expect(() => verifyStandardWebhook(subscriberSecret, resent!)).toThrow()
  })

  test("someone else's channel, subscriber or delivery is a 404 and nothing is sent", async () => {
    const delivery = (await json(await api(`/notification-channels/${channelId}/deliveries`))).data[0].id
    const subscriberDelivery = (await json(await api(`/status-pages/${pageId}/subscribers/${subscriberId}/deliveries`))).data[0].id
    const mine = (await json(await api('/notification-channels', { method: 'POST', json: { type: 'webhook', name: 'Other', url: `${hub.url}/other` } }, other))).data.id
    const attempts: Array<[string, string, string]> = [
      ['GET', `/notification-channels/${channelId}/deliveries`, other],
      ['POST', `/notification-channels/${channelId}/deliveries/${delivery}/resend`, other],
      ['POST', `/notification-channels/${channelId}/signing-secret`, other],
      ['GET', `/status-pages/${pageId}/subscribers/${subscriberId}/deliveries`, other],
      ['POST', `/status-pages/${pageId}/subscribers/${subscriberId}/deliveries/${subscriberDelivery}/resend`, other],
      ['POST', `/status-pages/${pageId}/subscribers/${subscriberId}/signing-secret`, other],
      // A delivery of another receiver, through one's own channel or subscriber.
      ['POST', `/notification-channels/${mine}/deliveries/${delivery}/resend`, other],
      ['POST', `/status-pages/${pageId}/subscribers/${subscriberId}/deliveries/${delivery}/resend`, key],
      ['POST', `/notification-channels/${channelId}/deliveries/${subscriberDelivery}/resend`, key],
      ['POST', `/notification-channels/${channelId}/deliveries/not-an-id/resend`, key],
      ['POST', `/notification-channels/${channelId}/deliveries/99999999999999999999/resend`, key],
    ]
    for (const [method, path, apiKey] of attempts) {
      const response = await api(path, { method }, apiKey)
      expect([path, response.status]).toEqual([path, 404])
      expect((await json(response)).error).toBeString()
    }
    for (const query of ['limit=0', 'limit=201', 'before=x', 'limit=<b>']) expect((await api(`/notification-channels/${channelId}/deliveries?${query}`)).status).toBe(400)
    const slack = (await json(await api('/notification-channels', { method: 'POST', json: { type: 'slack', name: 'S', url: `${hub.url}/slack` } }))).data.id
    expect((await api(`/notification-channels/${slack}/signing-secret`, { method: 'POST' })).status).toBe(400)
    expect((await json(await api('/notification-channels', { method: 'POST', json: { type: 'webhook', name: 'x', url: `${hub.url}/x`, signing_secret: 'whsec_<b>' } }))).error).toContain('signing_secret must be whsec_')
    await drain()
    expect(fresh('/channel')).toHaveLength(0)
    expect(fresh('/subscriber')).toHaveLength(0)
  })

  test('retention: finished deliveries go 30 days after they finished; queued ones stay', async () => {
    hub.answer('/channel', [500])
    await api(`/components/${componentIds[0]}`, { method: 'PATCH', json: { status: 'up' } })
    await drain()
    const before = (await json(await api(`/notification-channels/${channelId}/deliveries?limit=200`))).data as Array<{ status: string }>
    expect(before.filter((d) => d.status === 'queued')).toHaveLength(1)
    const { deliveryLog } = ctx.app.services
    ctx.clock.advance(29 * 86_400_000)
    expect(await deliveryLog.prune()).toBe(0)
    ctx.clock.advance(2 * 86_400_000)
    expect(await deliveryLog.prune()).toBeGreaterThan(0)
    const after = (await json(await api(`/notification-channels/${channelId}/deliveries?limit=200`))).data as Array<{ status: string }>
    expect(after.map((d) => d.status)).toEqual(['queued'])
    hub.answer('/channel', [200])
  })
})
