/**
 * What one outage tells people, end to end: a monitored component with automatic incidents goes
 * down because its server stops (connection refused), then comes back. The real scheduler and
 * recorder on the ManualClock, the real SMTP server for the owner's email channel and a
 * subscriber, the chat hub for Slack, Discord, Telegram, Teams, ntfy, PagerDuty and a webhook.
 *
 * Each mail and chat channel gets ONE message when the outage starts (naming the monitor, its
 * target and the reason, with the incident that was opened) and ONE when it ends (with the
 * duration); the webhook still gets one payload per event; the subscriber hears the incident only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type ReceivedMail, type SmtpHarness } from '../../helpers/smtp.ts'
import { schedulerFor } from '../monitors/scheduling.ts'
import { formatDuration } from '../../../src/modules/auto-incidents/rules.ts'
import { escapeHtml } from '../../../src/lib/html.ts'

const BOT = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345'
const ROUTING_KEY = 'R0123456789abcdef0123456789abcde'
const OWNER_ADDRESS = 'ops@example.com'
const SUBSCRIBER = 'reader@example.com'
const CHAT_PATHS: Record<string, string> = {
  slack: '/slack',
  discord: '/discord',
  teams: '/teams',
  telegram: `/telegram/bot${BOT}/sendMessage`,
  ntfy: '/ntfy/alerts',
  pagerduty: '/pd',
}

/** A web server on a fixed port that can be stopped (connection refused) and started again. */
function startSite() {
  const serve = (port: number) => Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response('ok') })
  let server: ReturnType<typeof serve> | undefined = serve(0)
  const port = server.port!
  return {
    url: `http://127.0.0.1:${port}/health`,
    stop: () => {
      server?.stop(true)
      server = undefined
    },
    start: () => {
      server ??= serve(port)
    },
  }
}

let smtp: SmtpHarness
let hub: ChatHub
let ctx: TestContext
let key: string
let site: ReturnType<typeof startSite>
let scheduler: ReturnType<typeof schedulerFor>
let pageId: number
let componentId: number
let monitorId: number
const seen = new Map<string, number>()

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
async function post(path: string, body: unknown) {
  const response = await api(path, { method: 'POST', json: body })
  if (response.status !== 201 && response.status !== 202) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return (await json(response)).data
}
/** Delivers what is queued, then waits until the SMTP server has parsed every mail the relay accepted. */
async function drain() {
  await ctx.app.services.outboxWorker.drain()
  const { sent } = await ctx.database.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('sent')).where('kind', '=', 'mail').where('status', '=', 'sent').executeTakeFirstOrThrow()
  await smtp.waitForCount(Number(sent))
}
/** One monitor interval, every due monitor run and recorded, then everything queued delivered. */
async function step(times = 1) {
  for (let i = 0; i < times; i++) {
    ctx.clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
  }
  await drain()
}
/** What `path` of the hub received since the last call. */
function fresh(path: string) {
  const all = hub.received(path)
  const news = all.slice(seen.get(path) ?? 0)
  seen.set(path, all.length)
  return news
}
function freshMails(to: string): ReceivedMail[] {
  const all = smtp.mails.filter((mail) => mail.to === to)
  const news = all.slice(seen.get(to) ?? 0)
  seen.set(to, all.length)
  return news
}
const monitor = async () => (await json(await api(`/monitors/${monitorId}`))).data

beforeAll(async () => {
  smtp = await startSmtp()
  hub = await startChatHub()
  site = startSite()
  ctx = await createTestContext({
    env: {
      ...smtp.env,
      MONITOR_PRIVATE_TARGETS: '1',
      TELEGRAM_API_URL: `${hub.url}/telegram`,
      NTFY_URL: `${hub.url}/ntfy`,
      PAGERDUTY_EVENTS_URL: `${hub.url}/pd`,
    },
  })
  scheduler = schedulerFor(ctx, { perHostCap: 100, globalCap: 100 })
  ;({ key } = await ctx.createOwner('enterprise'))
  pageId = (await ctx.createPage(key, { name: 'Acme', slug: 'acme-outage' })).id
  componentId = (await post(`/status-pages/${pageId}/components`, { name: 'Website' })).id
  monitorId = (
    await post('/monitors', {
      name: 'Homepage check',
      type: 'http',
      target: site.url,
      interval_seconds: 60,
      retries: 0,
      confirm_failures: 2,
      confirm_successes: 2,
      component_id: componentId,
    })
  ).id
  const automation = await api(`/status-pages/${pageId}/auto-incidents`, {
    method: 'PATCH',
    json: { auto_incidents: true, auto_incident_notify: true, auto_resolve: true, component_ids: [componentId] },
  })
  expect(automation.status).toBe(200)

  // The owner's channels: an email address (verified by its link) and every chat type, verified by a test.
  await post('/notification-channels', { type: 'email', name: 'Ops mail', address: OWNER_ADDRESS })
  await drain()
  const verification = await smtp.waitFor((mail) => mail.to === OWNER_ADDRESS && mail.subject.startsWith('Confirm'))
  const token = new URL(/https:\/\/lantern\.test\/user\/notifications\/verify\?token=[^\s"<]+/.exec(verification.text)![0]).searchParams.get('token')!
  const confirmed = await ctx.request('/user/notifications/verify', {
    method: 'POST',
    headers: { origin: 'https://lantern.test', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  })
  expect(confirmed.status).toBeLessThan(400)
  const chats: Record<string, Record<string, string>> = {
    slack: { url: `${hub.url}/slack` },
    discord: { url: `${hub.url}/discord` },
    teams: { url: `${hub.url}/teams` },
    telegram: { bot_token: BOT, chat_id: '-100123' },
    ntfy: { topic: 'alerts' },
    pagerduty: { routing_key: ROUTING_KEY },
    webhook: { url: `${hub.url}/hook`, secret: 'whsec-0123456789abcdef' },
  }
  for (const [type, settings] of Object.entries(chats)) {
    const channel = await post('/notification-channels', { type, name: `Ops ${type}`, ...settings })
    await post(`/notification-channels/${channel.id}/test`, {})
  }
  await drain()
  // A chat channel counts as verified once its test was delivered.
  const listed = (await json(await api('/notification-channels'))).data as Array<{ type: string; verified: boolean }>
  expect(listed.map((c) => [c.type, c.verified])).toEqual(listed.map((c) => [c.type, true]))
  await post(`/status-pages/${pageId}/subscribers`, { type: 'email', email: SUBSCRIBER, consent: true })

  // Up and confirmed; everything so far (tests, verification) is forgotten.
  await step()
  expect((await monitor()).state).toBe('up')
  for (const path of [...Object.values(CHAT_PATHS), '/hook']) fresh(path)
  freshMails(OWNER_ADDRESS)
  freshMails(SUBSCRIBER)
})

afterAll(async () => {
  await scheduler.stop()
  site.stop()
  await ctx.close()
  await hub.close()
  await smtp.close()
})

describe('one outage, one message per channel', () => {
  let downAt = 0
  let reason = ''

  test('going down: one owner mail and one chat message per channel, naming the monitor, its target, the reason and the incident', async () => {
    site.stop()
    await step()
    // One failure is not confirmed: nothing yet.
    expect(freshMails(OWNER_ADDRESS)).toHaveLength(0)
    await step()
    downAt = ctx.clock.now()
    const checked = await monitor()
    expect(checked.state).toBe('down')
    reason = checked.last_message
    expect(reason.length).toBeGreaterThan(0)

    const [mail, ...more] = freshMails(OWNER_ADDRESS)
    expect(more).toHaveLength(0)
    expect(mail!.subject).toContain('Website')
    expect(mail!.subject).toContain('Major outage')
    for (const [part, shown] of [[mail!.text, (s: string) => s], [mail!.html!, escapeHtml]] as const) {
      expect(part).toContain('Homepage check')
      expect(part).toContain(shown(site.url))
      expect(part).toContain(shown(reason))
      expect(part).toContain('Website is experiencing issues')
    }
    expect(mail!.text).toContain('Operational → Major outage')
    expect(mail!.text).not.toMatch(/\bup → down\b|\boperational → down\b/)

    for (const [type, path] of Object.entries(CHAT_PATHS)) {
      const got = fresh(path)
      expect({ type, count: got.length }).toEqual({ type, count: 1 })
      if (type === 'pagerduty') {
        expect(got[0]!.json()).toMatchObject({ event_action: 'trigger', dedup_key: `lantern:component:${componentId}` })
        expect(got[0]!.json().payload.summary).toContain('Major outage')
        continue
      }
      const body = got[0]!.body
      expect({ type, monitor: body.includes('Homepage check'), target: body.includes(site.url), incident: body.includes('experiencing issues') }).toEqual({ type, monitor: true, target: true, incident: true })
    }
    // Machines still get one payload per event.
    expect(fresh('/hook').map((r) => r.json().type)).toEqual(['component.status_changed', 'incident.opened'])

    // The subscriber hears the incident, once.
    const news = freshMails(SUBSCRIBER)
    expect(news.map((m) => m.subject)).toEqual(['[Acme] New incident: Website is experiencing issues'])
  })

  test('still down: nothing more', async () => {
    await step(3)
    expect(freshMails(OWNER_ADDRESS)).toHaveLength(0)
    expect(freshMails(SUBSCRIBER)).toHaveLength(0)
    for (const path of [...Object.values(CHAT_PATHS), '/hook']) expect(fresh(path)).toHaveLength(0)
  })

  test('recovery: one more each, with the duration; the subscriber gets one sane "Resolved" mail', async () => {
    site.start()
    await step(2)
    const upAt = ctx.clock.now()
    expect((await monitor()).state).toBe('up')
    const duration = formatDuration(upAt - downAt)

    const [mail, ...more] = freshMails(OWNER_ADDRESS)
    expect(more).toHaveLength(0)
    expect(mail!.subject).toContain('Website')
    expect(mail!.subject).toContain('Operational')
    expect(mail!.text).toContain(duration)
    expect(mail!.text).toContain('Major outage → Operational')
    expect(mail!.text).toContain('Homepage check')
    expect(mail!.text).toContain('resolved')

    for (const [type, path] of Object.entries(CHAT_PATHS)) {
      const got = fresh(path)
      expect({ type, count: got.length }).toEqual({ type, count: 1 })
      if (type === 'pagerduty') {
        expect(got[0]!.json()).toEqual({ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: `lantern:component:${componentId}` })
        continue
      }
      expect({ type, duration: got[0]!.body.includes(duration) }).toEqual({ type, duration: true })
    }
    expect(fresh('/hook').map((r) => r.json().type)).toEqual(['component.status_changed', 'incident.resolved'])

    const [resolved, ...others] = freshMails(SUBSCRIBER)
    expect(others).toHaveLength(0)
    expect(resolved!.subject).toBe('[Acme] Resolved: Website is experiencing issues')
    expect(resolved!.text).not.toMatch(/Resolved\W+Resolved/)
    expect(resolved!.text).toContain(`Website recovered at`)
    expect(resolved!.text).toContain(duration)
  })
})
