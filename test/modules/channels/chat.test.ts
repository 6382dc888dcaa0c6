/**
 * Channels end to end over the wire: the API adds a channel of each chat type pointing at the local
 * chat hub, "Send test" verifies it through the outbox, and every producer's event reaches each
 * channel exactly once with the service's payload shape.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { verifyStandardWebhook } from '../../helpers/standard-webhooks.ts'
import { verifyLegacySignature } from '../../../src/modules/notify/webhook-signing.ts'

const SECRET = 'whsec-0123456789abcdef'
const ROUTING_KEY = 'R0123456789abcdef0123456789abcde'
const BOT = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345'

describe('chat and webhook channels', () => {
  let hub: ChatHub
  let ctx: TestContext
  let key: string
  let pageId: number
  let componentId: number
  const channelIds: Record<string, number> = {}
  /** The webhook channel's signing secret, as its create answer showed it (once). */
  let signingSecret = ''
  const seen: Record<string, number> = {}

  const paths: Record<string, string> = {
    slack: '/slack', discord: '/discord', teams: '/teams', webhook: '/hook',
    telegram: `/telegram/bot${BOT}/sendMessage`, ntfy: '/ntfy/lantern-alerts', pagerduty: '/pd',
  }
  /** The requests each channel got since the last call (asserts none arrived twice). */
  const fresh = (type: string) => {
    const all = hub.received(paths[type]!)
    const news = all.slice(seen[type] ?? 0)
    seen[type] = all.length
    return news
  }
  const drain = () => ctx.app.services.outboxWorker.drain()
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })

  beforeAll(async () => {
    hub = await startChatHub()
    ctx = await createTestContext({
      env: {
        MONITOR_PRIVATE_TARGETS: '1',
        TELEGRAM_API_URL: `${hub.url}/telegram`,
        NTFY_URL: `${hub.url}/ntfy`,
        PAGERDUTY_EVENTS_URL: `${hub.url}/pd`,
      },
    })
    ;({ key } = await ctx.createOwner())
    pageId = (await ctx.createPage(key, { name: 'Acme <Status>', slug: 'acme' })).id
    const component = await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'API' } })
    componentId = (await json(component)).data.id
    const settings: Record<string, Record<string, string>> = {
      slack: { url: `${hub.url}/slack` },
      discord: { url: `${hub.url}/discord` },
      teams: { url: `${hub.url}/teams` },
      webhook: { url: `${hub.url}/hook`, secret: SECRET },
      telegram: { bot_token: BOT, chat_id: '-100123' },
      ntfy: { topic: 'lantern-alerts' },
      pagerduty: { routing_key: ROUTING_KEY },
    }
    for (const [type, values] of Object.entries(settings)) {
      const response = await api('/notification-channels', { method: 'POST', json: { type, name: `My ${type}`, ...values } })
      expect(response.status).toBe(201)
      const data = (await json(response)).data
      channelIds[type] = data.id
      if (type === 'webhook') signingSecret = data.signing_secret
    }
  })
  afterAll(async () => {
    await ctx.close()
    await hub.close()
  })

  test('secrets are never shown back in full', async () => {
    const body = await (await api('/notification-channels')).text()
    expect(signingSecret).toMatch(/^whsec_/)
    for (const secret of [SECRET, signingSecret, ROUTING_KEY, BOT, `${hub.url}/slack`]) expect(body).not.toContain(secret)
    const list = JSON.parse(body).data as Array<{ type: string; settings: Record<string, string>; verified: boolean }>
    expect(list.find((c) => c.type === 'webhook')!.settings.secret).toBe('…cdef')
    expect(list.find((c) => c.type === 'telegram')!.settings.chat_id).toBe('-100123')
    expect(list.every((c) => !c.verified)).toBe(true)
  })

  test('unverified channels receive no events', async () => {
    await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Before verification' } })
    await drain()
    for (const type of Object.keys(paths)) expect(fresh(type)).toHaveLength(0)
  })

  test('"Send test" goes through the outbox and verifies the channel on success', async () => {
    for (const id of Object.values(channelIds)) expect((await api(`/notification-channels/${id}/test`, { method: 'POST' })).status).toBe(202)
    await drain()
    // PagerDuty's test is an alert and its resolve, so no alert stays open.
    for (const type of Object.keys(paths)) expect(fresh(type)).toHaveLength(type === 'pagerduty' ? 2 : 1)
    const list = (await json(await api('/notification-channels'))).data as Array<{ verified: boolean; last_delivery: { result: string } }>
    expect(list.map((c) => [c.verified, c.last_delivery.result])).toEqual(list.map(() => [true, 'sent']))
  })

  test('an incident opened, updated and resolved reaches every channel once per event, in each service’s shape', async () => {
    const created = await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'DB <b>slow</b> & co', message: 'Looking into it', component_ids: [componentId] } })
    const incident = (await json(created)).data
    await drain()
    const slack = fresh('slack')
    expect(slack).toHaveLength(1)
    expect(slack[0]!.json().blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Incident opened: DB <b>slow</b> & co', emoji: true } })
    expect(slack[0]!.json().blocks[1].text.text).toContain('Looking into it')
    const discord = fresh('discord')[0]!.json()
    expect(discord.embeds[0].title).toBe('Incident opened: DB <b>slow</b> & co')
    expect(discord.allowed_mentions).toEqual({ parse: [] })
    const telegram = fresh('telegram')[0]!.json()
    expect(telegram).toMatchObject({ chat_id: '-100123', parse_mode: 'HTML' })
    expect(telegram.text).toStartWith('<b>Incident opened: DB &lt;b&gt;slow&lt;/b&gt; &amp; co</b>')
    const teams = fresh('teams')[0]!.json()
    expect(teams.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive')
    expect(teams.attachments[0].content.body[0].text).toBe('Incident opened: DB <b>slow</b> & co')
    const ntfy = fresh('ntfy')[0]!
    expect(ntfy.headers.get('priority')).toBe('4')
    expect(ntfy.body).toContain('Looking into it')
    const pd = fresh('pagerduty')[0]!.json()
    expect(pd).toMatchObject({ routing_key: ROUTING_KEY, event_action: 'trigger', dedup_key: `lantern:incident:${incident.id}` })
    const hook = fresh('webhook')[0]!
    // Standard Webhooks, checked by the official library; the deprecated header beside it (the channel has a secret of its own).
    expect(verifyStandardWebhook(signingSecret, hook)).toEqual(hook.json())
    expect(() => verifyStandardWebhook(signingSecret, { ...hook, body: hook.body.replace('slow', 'fast') })).toThrow()
    expect(await verifyLegacySignature(SECRET, hook.body, hook.headers.get('x-lantern-signature'))).toBe(true)
    expect(await verifyLegacySignature('another-secret-0000', hook.body, hook.headers.get('x-lantern-signature'))).toBe(false)
    const payload = hook.json()
    expect(payload).toMatchObject({ version: '2', type: 'incident.opened', page: { id: 'acme', api_id: pageId, name: 'Acme <Status>', status_indicator: 'minor' } })
    expect(payload.incident).toMatchObject({ id: String(incident.id), name: 'DB <b>slow</b> & co', status: 'investigating' })
    expect(payload.incident.incident_updates[0]).toMatchObject({ status: 'investigating', body: 'Looking into it' })
    expect(payload.incident.components).toEqual([{ id: String(componentId), name: 'API', status: 'operational' }])

    // A new title alone is no news; an update is.
    await api(`/incidents/${incident.id}`, { method: 'PATCH', json: { title: 'DB slow' } })
    await drain()
    expect(fresh('slack')).toHaveLength(0)
    await api(`/incidents/${incident.id}/updates`, { method: 'POST', json: { message: 'Fix deployed', state: 'monitoring' } })
    await drain()
    expect(fresh('webhook')[0]!.json()).toMatchObject({ type: 'incident.updated', incident: { status: 'monitoring' } })
    expect(fresh('pagerduty')[0]!.json()).toMatchObject({ event_action: 'trigger', dedup_key: `lantern:incident:${incident.id}` })
    for (const type of ['slack', 'discord', 'telegram', 'teams', 'ntfy']) expect(fresh(type)).toHaveLength(1)

    await api(`/incidents/${incident.id}`, { method: 'PATCH', json: { state: 'resolved', message: 'All good' } })
    await drain()
    // Resolve closes the alert the trigger opened: same dedup_key.
    expect(fresh('pagerduty')[0]!.json()).toEqual({ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: `lantern:incident:${incident.id}` })
    expect(fresh('ntfy')[0]!.headers.get('priority')).toBe('3')
    expect(fresh('webhook')[0]!.json().type).toBe('incident.resolved')
    for (const type of ['slack', 'discord', 'telegram', 'teams']) expect(fresh(type)).toHaveLength(1)
  })

  test('component status changes: one event per real change, by hand or by monitors', async () => {
    await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'down' } })
    await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'down' } })
    await drain()
    const hooks = fresh('webhook')
    expect(hooks).toHaveLength(1)
    expect(hooks[0]!.json()).toMatchObject({
      type: 'component.status_changed',
      component_update: { component_id: String(componentId), old_status: 'operational', new_status: 'major_outage' },
    })
    expect(fresh('pagerduty')[0]!.json()).toMatchObject({ event_action: 'trigger', dedup_key: `lantern:component:${componentId}` })
    // The monitors' path (MonitorRecorder → applyMonitorStatus) after the owner clears the override.
    await api(`/components/${componentId}`, { method: 'PATCH', json: { status_override: false } })
    const { components } = ctx.app.services
    expect(await components.applyMonitorStatus(componentId, 'up')).toBe(true)
    expect(await components.applyMonitorStatus(componentId, 'up')).toBe(false)
    await drain()
    expect(fresh('webhook').map((r) => r.json().component_update.new_status)).toEqual(['operational'])
    expect(fresh('pagerduty').map((r) => r.json())).toEqual([{ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: `lantern:component:${componentId}` }])
    for (const type of ['slack', 'discord', 'telegram', 'teams', 'ntfy']) expect(fresh(type)).toHaveLength(2)
  })

  test('a push monitor drives its component: one event per confirmed change, none per check', async () => {
    const component = (await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'Nightly job' } }))).data
    const monitor = (await json(await api('/monitors', {
      method: 'POST',
      json: { name: 'Nightly', type: 'push', interval_seconds: 3600, component_id: component.id, confirm_failures: 1, confirm_successes: 1 },
    }))).data
    const push = (status: string) => ctx.request(`${monitor.push_url}?status=${status}`)
    for (const status of ['up', 'down', 'down', 'down', 'up', 'up']) {
      expect((await push(status)).status).toBe(200)
      ctx.clock.advance(1000)
    }
    await drain()
    const changes = fresh('webhook').map((r) => r.json()).filter((p) => p.component?.id === String(component.id))
    // Created "up"; the first push confirms up (no change); then one down, one back up.
    expect(changes.map((p) => [p.component_update.old_status, p.component_update.new_status])).toEqual([
      ['operational', 'major_outage'],
      ['major_outage', 'operational'],
    ])
    expect(fresh('pagerduty').map((r) => r.json().event_action)).toEqual(['trigger', 'resolve'])
    for (const type of ['slack', 'discord', 'telegram', 'teams', 'ntfy']) expect(fresh(type)).toHaveLength(2)
  })

  test('maintenance: scheduled on create, started and ended once each by the sweeper', async () => {
    const start = ctx.clock.now() + 3_600_000
    const created = await api('/maintenances', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Upgrade', start_at: new Date(start).toISOString(), end_at: new Date(start + 1_800_000).toISOString() },
    })
    expect(created.status).toBe(201)
    const { maintenanceSweeper } = ctx.app.services
    expect(await maintenanceSweeper.sweep()).toBe(0)
    await drain()
    expect(fresh('webhook').map((r) => r.json().type)).toEqual(['maintenance.scheduled'])
    ctx.clock.set(start - 1)
    expect(await maintenanceSweeper.sweep()).toBe(0)
    ctx.clock.set(start)
    expect(await maintenanceSweeper.sweep()).toBe(1)
    expect(await maintenanceSweeper.sweep()).toBe(0)
    ctx.clock.set(start + 1_800_000)
    expect(await maintenanceSweeper.sweep()).toBe(1)
    expect(await maintenanceSweeper.sweep()).toBe(0)
    await drain()
    const hooks = fresh('webhook').map((r) => r.json())
    expect(hooks.map((h) => h.type)).toEqual(['maintenance.started', 'maintenance.ended'])
    expect(hooks[0].incident).toMatchObject({ name: 'Upgrade', impact: 'maintenance', status: 'in_progress', scheduled_for: new Date(start).toISOString() })
    expect(hooks[1].incident.status).toBe('completed')
    // Maintenance is no alert: PagerDuty hears it as change events.
    expect(fresh('pagerduty')).toHaveLength(0)
    expect(hub.received('/pd/change').map((r) => r.json().payload.custom_details.event)).toEqual(['maintenance.scheduled', 'maintenance.started', 'maintenance.ended'])
  })

  test('events without a page go to the owner\'s channels on "all pages" that listen to them', async () => {
    const { notifier } = ctx.app.services
    for (const type of Object.keys(paths)) fresh(type)
    // The webhook hears certificates on all pages; Slack only this page's certificate events.
    await api(`/notification-channels/${channelIds.webhook}`, { method: 'PATCH', json: { events: ['certificate.expiring', 'incident.opened'] } })
    await api(`/notification-channels/${channelIds.slack}`, { method: 'PATCH', json: { all_pages: false, page_ids: [pageId], events: ['certificate.expiring'] } })
    const ownerId = (await ctx.database.db.selectFrom('status_pages').select('owner_id').where('id', '=', pageId).executeTakeFirstOrThrow()).owner_id
    await ctx.database.db.transaction().execute((trx) =>
      notifier.emit(trx, { kind: 'certificate.expiring', pageId: null, ownerId, monitorId: 9, host: 'api.acme.example', daysLeft: 5, notAfter: ctx.clock.now() + 5 * 86_400_000, at: ctx.clock.now() }),
    )
    await drain()
    const hooks = fresh('webhook').map((r) => r.json())
    expect(hooks.map((h) => [h.type, h.page, h.details.host])).toEqual([['certificate.expiring', null, 'api.acme.example']])
    // Slack hears certificates of one page only; PagerDuty does not listen to them at all.
    expect(fresh('slack')).toHaveLength(0)
    expect(fresh('pagerduty')).toHaveLength(0)
    // And a kind a channel does not listen to reaches it not at all.
    await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'degraded' } })
    await drain()
    expect(fresh('webhook')).toHaveLength(0)
    expect(fresh('slack')).toHaveLength(0)
    expect(fresh('discord')).toHaveLength(1)
  })

  test("another owner's channel is a 404 and stays as it was", async () => {
    const other = await ctx.createOwner()
    const id = channelIds.slack!
    for (const [method, path, body] of [
      ['GET', `/notification-channels/${id}`],
      ['PATCH', `/notification-channels/${id}`, { name: 'Mine now' }],
      ['POST', `/notification-channels/${id}/test`],
      ['DELETE', `/notification-channels/${id}`],
    ] as const) {
      const response = await ctx.request(`/user/api/v1${path}`, { method, key: other.key, json: body })
      expect(response.status).toBe(404)
    }
    expect((await json(await api(`/notification-channels/${id}`))).data.name).toBe('My slack')
    // Nor can a page of someone else be attached.
    const response = await ctx.request('/user/api/v1/notification-channels', { method: 'POST', key: other.key, json: { type: 'slack', name: 'x', url: `${hub.url}/x`, page_ids: [pageId] } })
    expect(response.status).toBe(400)
  })

  test('bad input is a 400 naming the field, and changes nothing', async () => {
    const before = (await json(await api('/notification-channels'))).data.length
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'sms', name: 'x' }, 'type must be one of'],
      [{ type: 'slack', name: 'x' }, 'slack channels take url, or bot_token and chat_id'],
      [{ type: 'slack', name: 'x', bot_token: 'xoxb-1234567890-abcdefghij' }, 'chat_id is required for slack channels'],
      [{ type: 'slack', name: 'x', url: 'https://hooks.slack.com/x', bot_token: 'xoxb-1234567890-abcdefghij', chat_id: 'C0123456789' }, 'not both'],
      [{ type: 'slack', name: 'x', bot_token: '123456789:AAbbccddeeffgghhiijjkkllmmnnooppqq', chat_id: 'C0123456789' }, 'bot_token must be a Slack bot token'],
      [{ type: 'slack', name: 'x', bot_token: 'xoxb-1234567890-abcdefghij', chat_id: '#general<b>' }, 'chat_id must be the Slack channel id'],
      [{ type: 'slack', name: 'x', url: 'ftp://example.com/' }, 'url must be an absolute https or http URL'],
      [{ type: 'webhook', name: 'x', url: 'https://example.com/', secret: 'short' }, 'secret must be'],
      [{ type: 'email', name: 'x', address: 'nope' }, 'address is not a valid email address'],
      [{ type: 'slack', name: 'x', url: 'https://hooks.slack.com/x', routing_key: ROUTING_KEY }, 'routing_key is not a setting of slack channels'],
      [{ type: 'slack', name: 'x', url: 'https://hooks.slack.com/x', events: ['incident.exploded'] }, 'events holds "incident.exploded", which is not an event kind'],
      [{ type: 'ntfy', name: 'x', topic: 'a/b' }, 'topic must be'],
    ]
    for (const [body, message] of cases) {
      const response = await api('/notification-channels', { method: 'POST', json: body })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain(message)
    }
    expect((await json(await api('/notification-channels'))).data.length).toBe(before)
  })

  test('a webhook retry is signed at the time of the attempt, so receivers that reject old timestamps accept it', async () => {
    hub.answer('/hook', [500, 200])
    const queuedAt = ctx.clock.now()
    const created = await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Retry me', message: 'Down', component_ids: [componentId] } })
    expect(created.status).toBe(201)
    await drain()
    const [first] = fresh('webhook')
    expect(first!.headers.get('webhook-timestamp')).toBe(String(Math.floor(queuedAt / 1000)))
    expect(first!.headers.get('x-lantern-signature')).toStartWith(`t=${Math.floor(queuedAt / 1000)},`)
    // The second attempt comes 30 minutes later (after the 1- and 5-minute retries' due times).
    ctx.clock.advance(30 * 60_000)
    await drain()
    const [retry] = fresh('webhook')
    const header = retry!.headers.get('x-lantern-signature')
    expect(header).toStartWith(`t=${Math.floor(ctx.clock.now() / 1000)},`)
    expect(await verifyLegacySignature(SECRET, retry!.body, header)).toBe(true)
    expect(retry!.body).toBe(first!.body)
    // One delivery, one webhook-id: the retry carries the first attempt's, with a fresh timestamp.
    expect(retry!.headers.get('webhook-id')).toBe(first!.headers.get('webhook-id'))
    expect(retry!.headers.get('webhook-id')).toMatch(/^msg_[A-Za-z0-9_-]{24}$/)
    expect(retry!.headers.get('webhook-timestamp')).toBe(String(Math.floor(ctx.clock.now() / 1000)))
    expect(verifyStandardWebhook(signingSecret, retry!)).toEqual(retry!.json())
    hub.answer('/hook', [200])
    for (const type of Object.keys(paths)) fresh(type)
  })
})
