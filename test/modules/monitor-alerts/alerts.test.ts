/**
 * A monitor's own alerts, end to end on the real scheduler and recorder (ManualClock), the real
 * SMTP server and the chat hub: a monitor with no component alerts the channels it picked (and
 * those that take every monitor) once going down and once coming back; reminders while down, at
 * most M; a snooze keeps it quiet; a monitored component's outage is still one message per channel.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type ReceivedMail, type SmtpHarness } from '../../helpers/smtp.ts'
import { schedulerFor } from '../monitors/scheduling.ts'

const PICKED = 'picked@example.com'
const OTHER = 'other@example.com'

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
let monitorId: number
let pickedId: number
/** The Message-ID of the outage's first mail: the thread later mails answer. */
let threadId = ''
const seen = new Map<string, number>()

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
async function post(path: string, body: unknown) {
  const response = await api(path, { method: 'POST', json: body })
  if (response.status !== 201 && response.status !== 202) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return (await json(response)).data
}
const patchAlerts = (id: number, body: unknown) => api(`/monitors/${id}/alerts`, { method: 'PATCH', json: body })
async function drain() {
  await ctx.app.services.outboxWorker.drain()
  const { sent } = await ctx.database.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('sent')).where('kind', '=', 'mail').where('status', '=', 'sent').executeTakeFirstOrThrow()
  await smtp.waitForCount(Number(sent))
}
async function step(times = 1) {
  for (let i = 0; i < times; i++) {
    ctx.clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
  }
  await drain()
}
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
const monitor = async (id = monitorId) => (await json(await api(`/monitors/${id}`))).data

async function emailChannel(name: string, address: string, extra: Record<string, unknown> = {}) {
  const channel = await post('/notification-channels', { type: 'email', name, address, ...extra })
  await drain()
  const verification = await smtp.waitFor((mail) => mail.to === address && mail.subject.startsWith('Confirm'))
  const token = new URL(/https:\/\/lantern\.test\/user\/notifications\/verify\?token=[^\s"<]+/.exec(verification.text)![0]).searchParams.get('token')!
  const confirmed = await ctx.request('/user/notifications/verify', {
    method: 'POST',
    headers: { origin: 'https://lantern.test', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  })
  expect(confirmed.status).toBeLessThan(400)
  return channel.id as number
}

beforeAll(async () => {
  smtp = await startSmtp()
  hub = await startChatHub()
  site = startSite()
  ctx = await createTestContext({ env: { ...smtp.env, MONITOR_PRIVATE_TARGETS: '1' } })
  scheduler = schedulerFor(ctx, { perHostCap: 100, globalCap: 100 })
  ;({ key } = await ctx.createOwner('enterprise'))
  monitorId = (await post('/monitors', { name: 'Backend TCP', type: 'http', target: site.url, interval_seconds: 60, retries: 0, confirm_failures: 2, confirm_successes: 1 })).id
  pickedId = await emailChannel('Picked mail', PICKED)
  await emailChannel('Other mail', OTHER)
  const slack = await post('/notification-channels', { type: 'slack', name: 'Ops slack', url: `${hub.url}/slack` })
  const hook = await post('/notification-channels', { type: 'webhook', name: 'Every monitor', url: `${hub.url}/hook`, all_monitors: true })
  expect(hook.all_monitors).toBe(true)
  await post(`/notification-channels/${slack.id}/test`, {})
  await post(`/notification-channels/${hook.id}/test`, {})
  await drain()
  // A chat or webhook channel counts as verified once its test was delivered (seen when listed).
  const listed = (await json(await api('/notification-channels'))).data as Array<{ verified: boolean }>
  expect(listed.every((c) => c.verified)).toBe(true)
  const picked = await patchAlerts(monitorId, { channel_ids: [pickedId, slack.id] })
  expect(picked.status).toBe(200)
  expect((await json(picked)).data).toMatchObject({ monitor_id: monitorId, channel_ids: [pickedId, slack.id].sort((a, b) => a - b), remind_every_minutes: null, remind_max: 0, snoozed_until: null })
  await step()
  expect((await monitor()).state).toBe('up')
  for (const path of ['/slack', '/hook']) fresh(path)
  freshMails(PICKED)
  freshMails(OTHER)
})

afterAll(async () => {
  await scheduler.stop()
  site.stop()
  await ctx.close()
  await hub.close()
  await smtp.close()
})

describe('a monitor with no component alerts on its own', () => {
  test('a new monitor coming up says nothing; going down: one message per picked channel naming the monitor, target, reason and its screen', async () => {
    site.stop()
    await step()
    expect(freshMails(PICKED)).toHaveLength(0)
    await step()
    const checked = await monitor()
    expect(checked.state).toBe('down')
    const reason: string = checked.last_message
    const [mail, ...more] = freshMails(PICKED)
    expect(more).toHaveLength(0)
    expect(mail!.subject).toBe(`[Lantern] Monitor "Backend TCP" is down: ${reason}`)
    expect(mail!.text).toContain(`Target: ${site.url}`)
    expect(mail!.text).toContain(`Reason: ${reason}`)
    expect(mail!.text).toContain('Since ')
    expect(mail!.text).toContain(`https://lantern.test/user/monitors/${monitorId}`)
    threadId = mail!.messageId!
    expect(threadId).toMatch(/^<outage\.[0-9a-f]{32}@/)
    expect(mail!.headers.has('in-reply-to')).toBe(false)
    // A channel the monitor did not pick hears nothing of it.
    expect(freshMails(OTHER)).toHaveLength(0)
    const chat = fresh('/slack')
    expect(chat).toHaveLength(1)
    expect(chat[0]!.body).toContain('Backend TCP')
    const hooks = fresh('/hook')
    expect(hooks).toHaveLength(1)
    const payload = hooks[0]!.json()
    expect(payload.type).toBe('monitor.down')
    expect(payload.details).toMatchObject({ monitor_id: monitorId, monitor_name: 'Backend TCP', target: site.url, previous_state: 'up', state: 'down', reason, reminder: null })
  })

  test('still down, no reminders set: nothing more', async () => {
    await step(3)
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(0)
    expect(freshMails(PICKED)).toHaveLength(0)
    expect(fresh('/hook')).toHaveLength(0)
  })

  test('reminders every 5 minutes, at most 2, then silence', async () => {
    expect((await patchAlerts(monitorId, { remind_every_minutes: 5, remind_max: 2 })).status).toBe(200)
    // The alert went out 3 minutes ago: the first reminder is due 5 minutes after it.
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(0)
    await step(2)
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(1)
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(0)
    await drain()
    const [first, ...more] = freshMails(PICKED)
    expect(more).toHaveLength(0)
    expect(first!.subject).toStartWith('[Lantern] Still down (reminder 1): Monitor "Backend TCP" is down')
    // Threaded under the outage's first mail, with an id of its own.
    expect([first!.headers.get('in-reply-to'), first!.headers.get('references')]).toEqual([threadId, threadId])
    expect(first!.messageId).not.toBe(threadId)
    await step(5)
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(1)
    await step(10)
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(0)
    await drain()
    expect(freshMails(PICKED).map((m) => m.subject.slice(0, 34))).toEqual(['[Lantern] Still down (reminder 2):'])
    expect(fresh('/hook').map((r) => r.json().details.reminder)).toEqual([1, 2])
    expect(fresh('/slack')).toHaveLength(2)
  })

  test('back up: one recovery message with the duration', async () => {
    site.start()
    await step()
    expect((await monitor()).state).toBe('up')
    const [mail, ...more] = freshMails(PICKED)
    expect(more).toHaveLength(0)
    expect(mail!.subject).toMatch(/^\[Lantern\] Monitor "Backend TCP" is up again after \d+ min/)
    expect(mail!.text).toContain('Duration: ')
    expect([mail!.headers.get('in-reply-to'), mail!.headers.get('references')]).toEqual([threadId, threadId])
    const hooks = fresh('/hook')
    expect(hooks.map((r) => r.json().type)).toEqual(['monitor.up'])
    expect(fresh('/slack')).toHaveLength(1)
    expect(freshMails(OTHER)).toHaveLength(0)
  })

  test('snoozed: the outage and its recovery send nothing; the snooze is in the API', async () => {
    const until = new Date(ctx.clock.now() + 3_600_000).toISOString()
    const snoozed = await patchAlerts(monitorId, { snoozed_until: until })
    expect(snoozed.status).toBe(200)
    expect((await json(snoozed)).data.snoozed_until).toBe(until)
    site.stop()
    await step(8)
    expect((await monitor()).state).toBe('down')
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(0)
    site.start()
    await step()
    expect(freshMails(PICKED)).toHaveLength(0)
    expect(fresh('/hook')).toHaveLength(0)
    expect(fresh('/slack')).toHaveLength(0)
    const ended = await patchAlerts(monitorId, { snoozed_until: null })
    expect((await json(ended)).data.snoozed_until).toBeNull()
  })

  test('bad input is a 400 (or 422) and changes nothing; someone else\'s monitor is a 404', async () => {
    const before = (await json(await api(`/monitors/${monitorId}/alerts`))).data
    for (const body of [
      { remind_every_minutes: 0 },
      { remind_max: -1 },
      { snoozed_until: 'tomorrow' },
      { snoozed_until: new Date(ctx.clock.now() - 1000).toISOString() },
      { snoozed_until: new Date(ctx.clock.now() + 40 * 86_400_000).toISOString() },
      { channel_ids: [999_999] },
      { channel_ids: 'all' },
    ]) {
      const response = await patchAlerts(monitorId, body)
      expect({ body, refused: [400, 422].includes(response.status) }).toEqual({ body, refused: true })
    }
    expect((await json(await api(`/monitors/${monitorId}/alerts`))).data).toEqual(before)
    const stranger = await ctx.createOwner('enterprise')
    const foreign = await ctx.request(`/user/api/v1/monitors/${monitorId}/alerts`, { key: stranger.key })
    expect(foreign.status).toBe(404)
    const strangersChannel = (await json(await ctx.request('/user/api/v1/notification-channels', { key: stranger.key, method: 'POST', json: { type: 'slack', name: 'x', url: `${hub.url}/x` } }))).data
    expect((await patchAlerts(monitorId, { channel_ids: [strangersChannel.id] })).status).toBe(400)
  })
})

describe('a monitored component: one outage, one message', () => {
  test('the monitor picked a channel that also hears the page: one mail going down and one coming back', async () => {
    const pageId = (await ctx.createPage(key, { name: 'Acme', slug: 'acme-alerts' })).id
    const componentId = (await post(`/status-pages/${pageId}/components`, { name: 'Website' })).id
    const site2 = startSite()
    try {
      const id = (await post('/monitors', { name: 'Homepage', type: 'http', target: site2.url, interval_seconds: 60, retries: 0, confirm_failures: 1, confirm_successes: 1, component_id: componentId })).id
      expect((await patchAlerts(id, { channel_ids: [pickedId] })).status).toBe(200)
      await step()
      expect((await monitor(id)).state).toBe('up')
      freshMails(PICKED)
      fresh('/hook')
      site2.stop()
      await step()
      expect((await monitor(id)).state).toBe('down')
      const [mail, ...more] = freshMails(PICKED)
      expect(more).toHaveLength(0)
      expect(mail!.subject).toContain('Website')
      expect(mail!.text).toContain('Monitor "Homepage"')
      expect(mail!.text).toContain(`Monitor screen: https://lantern.test/user/monitors/${id}`)
      // The webhook (every monitor, every page) still gets one payload per event.
      expect(fresh('/hook').map((r) => r.json().type)).toEqual(['monitor.down', 'component.status_changed'])
      site2.start()
      await step()
      const back = freshMails(PICKED)
      expect(back).toHaveLength(1)
      expect(back[0]!.subject).toContain('Website')
      // The recovery answers the outage's first mail.
      expect(mail!.messageId).toMatch(/^<outage\./)
      expect(back[0]!.headers.get('in-reply-to')).toBe(mail!.messageId!)
    } finally {
      site2.stop()
    }
  })
})
