/**
 * One way of writing dates for people (src/lib/human-time.ts), checked where people read them: the
 * web app's screens, the status pages, mails as the SMTP server receives them, and the SLA PDF read
 * back as text. Each shows dates as "23 Nov 2026, 12:00 UTC" (an instant, its zone named) or
 * "23 Nov 2026" (a day), never ISO, never US month-first, never a time without its zone. Machine
 * formats stay where machines read them: `datetime` attributes, links, the APIs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { formatDate, formatDateTime, formatDayRange, formatMonth } from '../../src/lib/human-time.ts'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../helpers/smtp.ts'
import { loginCookie } from '../modules/analytics/helpers.ts'
import { pdfText } from '../modules/sla/helpers.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const HOUR = 3_600_000
const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec'
/** An instant for people, its zone named. */
const INSTANT = new RegExp(`\\b\\d{1,2} (?:${MONTHS}) \\d{4}, \\d{2}:\\d{2} (?:UTC|GMT[+-]\\d{1,2}(?::\\d{2})?|[A-Z]{3,4})\\b`)
/** Forms that must not reach people: ISO days or times, US month-first, a weekday-first form, a time without its zone. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['ISO date', /\b\d{4}-\d{2}-\d{2}\b/],
  ['US month-first', new RegExp(`\\b(?:${MONTHS})[a-z]* \\d{1,2}, \\d{4}`)],
  ['weekday first', /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} /],
  ['time without a zone', new RegExp(`\\b\\d{1,2} (?:${MONTHS}) \\d{4}, \\d{2}:\\d{2}(?! (?:UTC|GMT|[A-Z]{3,4}\\b))`)],
]

/** What a person reads on an HTML page: text only (tags, attributes, scripts and styles dropped). */
const visibleText = (html: string) =>
  html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#?\w+;/g, ' ')
    .replace(/\s+/g, ' ')

function expectPeopleDates(where: string, text: string, atLeast: RegExp | string) {
  for (const [name, pattern] of FORBIDDEN) expect({ where, name, found: pattern.exec(text)?.[0] ?? null }).toEqual({ where, name, found: null })
  expect({ where, has: typeof atLeast === 'string' ? text.includes(atLeast) : atLeast.test(text) }).toEqual({ where, has: true })
}

let ctx: TestContext
let smtp: SmtpHarness
let cookie: string
let owner: { key: string; user: { email: string } }
let other: { key: string; user: { email: string } }
let page: { id: number; slug: string }
let incidentId: number
let monitorId: number

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: { ...smtp.env }, now: NOW })
  owner = await ctx.createOwner('business')
  other = await ctx.createOwner('business')
  cookie = await loginCookie(ctx, owner.user.email)
  page = await ctx.createPage(owner.key, { slug: 'dates', name: 'Dates' })
  const api = async (path: string, body: unknown) => {
    const response = await ctx.request(`/user/api/v1${path}`, { method: 'POST', key: owner.key, json: body })
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await json(response)).data
  }
  const component = await api(`/status-pages/${page.id}/components`, { name: 'API' })
  incidentId = (await api('/incidents', { status_page_id: page.id, title: 'Slow API', message: 'Looking into it', component_ids: [component.id], started_at: new Date(NOW - 2 * HOUR).toISOString() })).id
  await api(`/status-pages/${page.id}/subscribers`, { email: 'reader@example.com', consent: true })
  await api('/maintenances', { status_page_id: page.id, title: 'Database upgrade', start_at: new Date(NOW + 24 * HOUR).toISOString(), end_at: new Date(NOW + 25 * HOUR).toISOString(), notify_subscribers: true })
  monitorId = (await api('/monitors', { name: 'Nightly job', type: 'push', interval_seconds: 3600 })).id
  await api(`/status-pages/${page.id}/transfer`, { email: other.user.email, password: 'correct horse battery' })
  await ctx.app.services.outboxWorker.drain()
})
afterAll(async () => {
  await ctx?.close()
  await smtp?.close()
})

const screen = async (path: string) => {
  const response = await ctx.request(path, { headers: { cookie, accept: 'text/html' } })
  expect({ path, status: response.status }).toEqual({ path, status: 200 })
  return visibleText(await response.text())
}

test('the formatter: instants name their zone, days and months read as words', () => {
  expect(formatDateTime(NOW)).toBe('23 Nov 2026, 12:00 UTC')
  expect(formatDateTime(NOW, 'Europe/Berlin')).toBe('23 Nov 2026, 13:00 GMT+1')
  expect(formatDateTime(NOW, 'America/New_York')).toBe('23 Nov 2026, 07:00 EST')
  expect(formatDateTime(Date.UTC(2026, 6, 1, 23, 30), 'Asia/Kolkata')).toBe('2 Jul 2026, 05:00 GMT+5:30')
  expect(formatDateTime(Date.UTC(2026, 0, 1, 0, 0))).toBe('1 Jan 2026, 00:00 UTC')
  expect(formatDate(Date.UTC(2026, 8, 27, 23, 59))).toBe('27 Sep 2026')
  expect(formatMonth(NOW)).toBe('November 2026')
  expect(formatDayRange(Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 30))).toBe('1 Nov 2026 to 30 Nov 2026')
  expect(formatDayRange(Date.UTC(2026, 10, 5), Date.UTC(2026, 10, 5, 18))).toBe('5 Nov 2026')
})

describe('web app screens', () => {
  const at = formatDateTime(NOW)
  test('account: sessions and keys', async () => expectPeopleDates('account', await screen('/user/account'), at))
  test('an incident: started and its timeline', async () => expectPeopleDates('incident', await screen(`/user/incidents/${incidentId}`), formatDateTime(NOW - 2 * HOUR)))
  test('maintenance windows', async () => expectPeopleDates('maintenance', await screen(`/user/pages/${page.id}/maintenance`), formatDateTime(NOW + 24 * HOUR)))
  test('the pending transfer', async () => expectPeopleDates('transfer', await screen(`/user/pages/${page.id}/transfer`), at))
  test('a monitor', async () => expectPeopleDates('monitor', await screen(`/user/monitors/${monitorId}`), INSTANT))
  test('an SLA report', async () => expectPeopleDates('sla', await screen(`/user/pages/${page.id}/sla?from=2026-11-01&to=2026-11-23`), '1 Nov 2026 to 23 Nov 2026'))
})

describe('status pages', () => {
  const host = () => `https://${page.slug}.status.test`
  test('home, history and the incident', async () => {
    for (const path of ['/', '/history', `/incidents/${incidentId}`]) {
      const response = await ctx.request(`${host()}${path}`)
      expect({ path, status: response.status }).toEqual({ path, status: 200 })
      expectPeopleDates(`status ${path}`, visibleText(await response.text()), formatDateTime(NOW - 2 * HOUR))
    }
  })
})

describe('mails', () => {
  test('transfer offer and confirmation, and the subscriber maintenance mail', async () => {
    const offer = await smtp.waitFor((mail) => mail.to === other.user.email && mail.subject.includes('Dates'))
    const expires = /expires on (.+?)\./.exec(offer.text)?.[1]
    expect(expires).toMatch(INSTANT)
    expectPeopleDates('transfer offer', offer.text.replace(/https?:\/\/\S+/g, ''), INSTANT)
    const sent = await smtp.waitFor((mail) => mail.to === owner.user.email && mail.subject.includes('Transfer'))
    expectPeopleDates('transfer sent', sent.text.replace(/https?:\/\/\S+/g, ''), INSTANT)
    const maintenance = await smtp.waitFor((mail) => mail.to === 'reader@example.com' && mail.subject.includes('Database upgrade'))
    expectPeopleDates('subscriber mail', maintenance.text.replace(/https?:\/\/\S+/g, ''), `From ${formatDateTime(NOW + 24 * HOUR)} to ${formatDateTime(NOW + 25 * HOUR)}`)
  })
})

test('the SLA PDF', async () => {
  const response = await ctx.request(`/user/api/v1/status-pages/${page.id}/sla.pdf?from=2026-11-01&to=2026-11-23`, { key: owner.key })
  expect(response.status).toBe(200)
  const text = pdfText(new Uint8Array(await response.arrayBuffer())).replace(/\s+/g, ' ')
  expectPeopleDates('SLA PDF', text, `1 Nov 2026 to 23 Nov 2026 (UTC days) - generated ${formatDateTime(NOW)}`)
})
