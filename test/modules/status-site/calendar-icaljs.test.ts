/**
 * The maintenance calendar (`/maintenance.ics`) imported by a calendar program's own parser:
 * ical.js, the iCalendar engine of Mozilla Thunderbird's calendar. Unlike node-ical (calendar.test.ts),
 * which looks a TZID up in its own time-zone database, ical.js places local times only through the
 * VTIMEZONE definitions the feed carries: so the occurrences it expands (RRULE, EXDATE, a change to
 * summer time in Berlin and in New York) check the feed's own zone rules against the instants the
 * page uses. Cancelled series and deleted windows arrive as cancelled events with a higher SEQUENCE.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import ICAL from 'ical.js'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const HOST = 'https://thunder.status.test'
let ctx: TestContext
let key: string
let pageId: number

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })

/** The feed as the calendar program takes it in: its zones registered first, then its events. */
async function importFeed(): Promise<Map<string, ICAL.Event>> {
  const response = await ctx.request(`${HOST}/maintenance.ics`)
  expect(response.status).toBe(200)
  const calendar = new ICAL.Component(ICAL.parse(await response.text()))
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  return new Map(calendar.getAllSubcomponents('vevent').map((vevent) => [String(vevent.getFirstPropertyValue('uid')), new ICAL.Event(vevent)]))
}

/** Every start of the event before `until`, as UTC instants, by the program's own expansion. */
function starts(event: ICAL.Event, until: number): string[] {
  const out: string[] = []
  const iterator = event.iterator()
  for (let next = iterator.next(); next && next.toJSDate().getTime() < until && out.length < 100; next = iterator.next()) out.push(next.toJSDate().toISOString())
  return out
}
const seriesUid = (id: number) => `maintenance-series-${id}.page-${pageId}@lantern`

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2027, 2, 20, 12) })
  key = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'thunder', name: 'Thunder' })).id
})
afterAll(() => ctx.close())
// The program's zone registry is global: each test starts from what its feed defines.
beforeEach(() => ICAL.TimezoneService.reset())

describe('the maintenance calendar in a calendar program (ical.js)', () => {
  test("recurring series are placed by the feed's own VTIMEZONE across the change to summer time, EXDATE skipped", async () => {
    const { data: berlin } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Backup, nightly', time_zone: 'Europe/Berlin', starts_on: '2027-03-26', start_time: '03:00', duration_minutes: 45, frequency: 'daily', count: 6, exceptions: ['2027-03-29'] },
    }))
    const { data: newYork } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Weekend', time_zone: 'America/New_York', starts_on: '2027-03-01', start_time: '01:30', duration_minutes: 120, frequency: 'weekly', weekdays: ['SA', 'SU'], until: '2027-03-21' },
    }))
    const events = await importFeed()
    // The zones came from the feed itself (nothing else is registered).
    expect(ICAL.TimezoneService.has('Europe/Berlin')).toBe(true)
    expect(ICAL.TimezoneService.has('America/New_York')).toBe(true)

    const b = events.get(seriesUid(berlin.id))!
    expect(b.summary).toBe('Backup, nightly')
    expect(b.startDate.zone.tzid).toBe('Europe/Berlin')
    expect(b.isRecurring()).toBe(true)
    expect(b.endDate.subtractDate(b.startDate).toSeconds()).toBe(45 * 60)
    // 03:00 in Berlin: 02:00Z in winter time, 01:00Z from 28 March; the 29th is skipped.
    const page = (await json(await api(`/maintenance-series/${berlin.id}`))).data.next_occurrences.map((o: { start_at: string }) => o.start_at)
    expect(page).toEqual(['2027-03-26T02:00:00.000Z', '2027-03-27T02:00:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-30T01:00:00.000Z', '2027-03-31T01:00:00.000Z'])
    expect(starts(b, Date.UTC(2027, 4, 1))).toEqual(page)

    const ny = events.get(seriesUid(newYork.id))!
    expect(ny.startDate.zone.tzid).toBe('America/New_York')
    // 01:30 in New York: 06:30Z in EST, which lasts until 02:00 local on 14 March, then 05:30Z in EDT.
    expect(starts(ny, Date.UTC(2027, 4, 1))).toEqual([
      '2027-03-06T06:30:00.000Z', '2027-03-07T06:30:00.000Z', '2027-03-13T06:30:00.000Z', '2027-03-14T06:30:00.000Z', '2027-03-20T05:30:00.000Z', '2027-03-21T05:30:00.000Z',
    ])
  })

  test('a cancelled series and a deleted window are cancelled events with a higher SEQUENCE; a window is a single event', async () => {
    const { data: series } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Monthly', time_zone: 'Europe/Berlin', starts_on: '2027-04-01', start_time: '22:00', duration_minutes: 60, frequency: 'monthly', count: 3 },
    }))
    const { data: window } = await json(await api('/maintenances', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Disk swap', start_at: '2027-04-10T08:00:00Z', end_at: '2027-04-10T09:00:00Z' },
    }))
    let events = await importFeed()
    const uidOfWindow = [...events.keys()].find((uid) => events.get(uid)!.summary === 'Disk swap')!
    const before = events.get(uidOfWindow)!
    expect(before.isRecurring()).toBe(false)
    expect(before.startDate.toJSDate().toISOString()).toBe('2027-04-10T08:00:00.000Z')
    const sequences = { series: events.get(seriesUid(series.id))!.sequence, window: before.sequence }
    expect(events.get(seriesUid(series.id))!.component.getFirstPropertyValue('status')).toBe('CONFIRMED')

    expect((await api(`/maintenance-series/${series.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/maintenances/${window.id}`, { method: 'DELETE' })).status).toBe(200)
    // The feed is cached for a minute.
    ctx.clock.advance(61_000)
    ICAL.TimezoneService.reset()
    events = await importFeed()
    const cancelledSeries = events.get(seriesUid(series.id))!
    expect(cancelledSeries.component.getFirstPropertyValue('status')).toBe('CANCELLED')
    expect(cancelledSeries.sequence).toBeGreaterThan(sequences.series)
    const cancelledWindow = events.get(uidOfWindow)!
    expect(cancelledWindow.component.getFirstPropertyValue('status')).toBe('CANCELLED')
    expect(cancelledWindow.sequence).toBe(sequences.window + 1)
    expect(cancelledWindow.startDate.toJSDate().toISOString()).toBe('2027-04-10T08:00:00.000Z')
  })
})
