/**
 * The maintenance calendar (`/maintenance.ics` on the status host) read by a real iCalendar parser
 * (node-ical): events with stable UIDs, RRULE and EXDATE in the series' zone, SEQUENCE rising with
 * changes, a cancelled series as STATUS:CANCELLED, one-off windows in UTC. The parser's own
 * expansion of the rule must give the very occurrences the page puts under maintenance, across a
 * daylight-saving change in Berlin and in New York. Text fields with markup and separators survive.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import ical, { type VEvent } from 'node-ical'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const HOST = 'https://cal.status.test'
let ctx: TestContext
let key: string
let pageId: number

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
async function feed(): Promise<Record<string, VEvent>> {
  const response = await ctx.request(`${HOST}/maintenance.ics`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
  const body = await response.text()
  for (const line of body.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75)
  const parsed = ical.sync.parseICS(body)
  return Object.fromEntries(Object.values(parsed).filter((c): c is VEvent => c?.type === 'VEVENT').map((e) => [e.uid, e]))
}
const startsOf = (event: VEvent, from: number, to: number) =>
  ical.expandRecurringEvent(event, { from: new Date(from), to: new Date(to) }).map((i) => new Date(i.start).toISOString())

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2027, 2, 20, 12) })
  key = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'cal', name: 'Cal' })).id
})
afterAll(() => ctx.close())

describe('maintenance calendar feed', () => {
  test('a recurring series: RRULE, EXDATE and TZID give the same occurrences as the page, over the change to summer time', async () => {
    const { data: berlin } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Backup; nightly, <b>db</b>', message: 'Line one\nLine two', time_zone: 'Europe/Berlin', starts_on: '2027-03-26', start_time: '03:00', duration_minutes: 45, frequency: 'daily', count: 6, exceptions: ['2027-03-29'] },
    }))
    const { data: newYork } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Weekend', time_zone: 'America/New_York', starts_on: '2027-03-01', start_time: '01:30', duration_minutes: 120, frequency: 'weekly', weekdays: ['SA', 'SU'], until: '2027-03-21' },
    }))
    const events = await feed()
    const b = events[`maintenance-series-${berlin.id}.page-${pageId}@lantern`]!
    expect(b.summary).toBe('Backup; nightly, <b>db</b>')
    expect(String(b.description)).toContain('Line one\nLine two')
    expect(Number(b.sequence)).toBe(0)
    expect(b.status).toBe('CONFIRMED')
    expect(b.rrule!.toString()).toContain('FREQ=DAILY')
    expect(b.rrule!.toString()).toContain('COUNT=6')
    expect((b.start as unknown as { tz: string }).tz).toBe('Europe/Berlin')
    // node-ical keys each EXDATE twice (by date and by instant).
    expect([...new Set(Object.values(b.exdate!).map((d) => new Date(d).toISOString()))]).toEqual(['2027-03-29T01:00:00.000Z'])
    // The parser's expansion (EXDATE removed) equals the occurrences the API (and so the page) uses.
    // (03:00 exists on the day of the change; a time inside the skipped hour moves forward as RFC 5545
    // says, which recurrence.test.ts checks: node-ical's rrule drops such an instance instead.)
    const range = [Date.UTC(2027, 2, 1), Date.UTC(2027, 4, 1)] as const
    const expected = (await json(await api(`/maintenance-series/${berlin.id}`))).data.next_occurrences.map((o: { start_at: string }) => o.start_at)
    expect(expected).toEqual(['2027-03-26T02:00:00.000Z', '2027-03-27T02:00:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-30T01:00:00.000Z', '2027-03-31T01:00:00.000Z'])
    expect(startsOf(b, ...range)).toEqual(expected)

    const ny = events[`maintenance-series-${newYork.id}.page-${pageId}@lantern`]!
    expect(ny.rrule!.toString()).toContain('BYDAY=SA,SU')
    expect(ny.rrule!.toString()).toContain('UNTIL=')
    // 6-7 and 13-14 March in EST (06:30Z), 20-21 March in EDT (05:30Z); at "now" (20 March, noon) only the 21st is to come.
    expect(startsOf(ny, ...range)).toEqual([
      '2027-03-06T06:30:00.000Z', '2027-03-07T06:30:00.000Z', '2027-03-13T06:30:00.000Z', '2027-03-14T06:30:00.000Z', '2027-03-20T05:30:00.000Z', '2027-03-21T05:30:00.000Z',
    ])
    expect((await json(await api(`/maintenance-series/${newYork.id}`))).data.next_occurrences.map((o: { start_at: string }) => o.start_at)).toEqual(['2027-03-21T05:30:00.000Z'])
    expect(new Date(ny.end!).getTime() - new Date(ny.start).getTime()).toBe(120 * 60_000)
  })

  test('changes raise SEQUENCE on the same UID; a cancelled series stays, cancelled; one-off windows are UTC events', async () => {
    const { data: series } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Monthly', time_zone: 'Europe/Berlin', starts_on: '2027-04-01', start_time: '22:00', duration_minutes: 60, frequency: 'monthly' },
    }))
    const { data: window } = await json(await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: 'One-off', start_at: '2027-04-10T08:00:00Z', end_at: '2027-04-10T09:00:00Z' } }))
    const uid = `maintenance-series-${series.id}.page-${pageId}@lantern`
    const oneUid = `maintenance-${window.id}.page-${pageId}@lantern`
    let events = await feed()
    expect(Number(events[uid]!.sequence)).toBe(0)
    expect(Number(events[oneUid]!.sequence)).toBe(0)
    expect(new Date(events[oneUid]!.start).toISOString()).toBe('2027-04-10T08:00:00.000Z')
    expect(new Date(events[oneUid]!.end!).toISOString()).toBe('2027-04-10T09:00:00.000Z')
    // Occurrences of series are not events of their own.
    expect(Object.keys(events).filter((u) => u.startsWith('maintenance-') && !u.startsWith('maintenance-series-'))).toEqual([oneUid])

    await api(`/maintenance-series/${series.id}`, { method: 'PATCH', json: { month_day: 15, exceptions: ['2027-05-15'] } })
    await api(`/maintenances/${window.id}`, { method: 'PATCH', json: { end_at: '2027-04-10T10:00:00Z' } })
    events = await feed()
    expect(Number(events[uid]!.sequence)).toBe(1)
    expect(events[uid]!.rrule!.toString()).toContain('BYMONTHDAY=15')
    expect(startsOf(events[uid]!, Date.UTC(2027, 3, 1), Date.UTC(2027, 6, 1))).toEqual(['2027-04-15T20:00:00.000Z', '2027-06-15T20:00:00.000Z'])
    expect(Number(events[oneUid]!.sequence)).toBe(1)
    expect(new Date(events[oneUid]!.end!).toISOString()).toBe('2027-04-10T10:00:00.000Z')

    await api(`/maintenance-series/${series.id}`, { method: 'DELETE' })
    events = await feed()
    expect(events[uid]!.status).toBe('CANCELLED')
    expect(Number(events[uid]!.sequence)).toBe(2)
  })

  test('the page links the calendar beside the feeds, and the feed answers 304 to its ETag', async () => {
    const page = await (await ctx.request(`${HOST}/`)).text()
    expect(page).toContain('<a href="/maintenance.ics">Calendar</a>')
    expect(page).toContain('type="text/calendar"')
    const first = await ctx.request(`${HOST}/maintenance.ics`)
    const etag = first.headers.get('etag')!
    expect(etag).toBeTruthy()
    expect((await ctx.request(`${HOST}/maintenance.ics`, { headers: { 'if-none-match': etag } })).status).toBe(304)
  })
})
