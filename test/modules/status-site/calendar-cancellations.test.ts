/**
 * What the maintenance calendar (`/maintenance.ics`) says of deleted maintenance, read by a real
 * iCalendar parser (node-ical) with an injected clock: a deleted one-off window stays, cancelled,
 * under its UID with a higher SEQUENCE until 30 days past the later of its end and its deletion,
 * while the page, history, status JSON and v2 JSON no longer show it; a deleted occurrence of a
 * series becomes an EXDATE of the series and is not written again; a cancelled series with an end
 * leaves the feed 30 days after it, one without an end stays. Runs on PostgreSQL too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import ical, { type VEvent } from 'node-ical'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const HOST = 'https://gone.status.test'
const DAY = 86_400_000
/** The feed is cached for a minute: the last look before an event leaves is taken earlier than that. */
const BEFORE = 2 * 60_000
const NOW = Date.UTC(2027, 2, 20, 12)
const TITLE = 'DB <b>move</b>; phase 1, "east" \\ ünïcode 日本'
let ctx: TestContext
let key: string
let pageId: number

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
async function feed(): Promise<Record<string, VEvent>> {
  const response = await ctx.request(`${HOST}/maintenance.ics`)
  expect(response.status).toBe(200)
  const body = await response.text()
  for (const line of body.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75)
  expect(body).toContain('METHOD:PUBLISH')
  const parsed = ical.sync.parseICS(body)
  return Object.fromEntries(Object.values(parsed).filter((c): c is VEvent => c?.type === 'VEVENT').map((e) => [e.uid, e]))
}
const uidOf = (id: number) => `maintenance-${id}.page-${pageId}@lantern`
const seriesUid = (id: number) => `maintenance-series-${id}.page-${pageId}@lantern`
const iso = (value: unknown) => new Date(value as string).toISOString()

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  key = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'gone', name: 'Gone' })).id
})
afterAll(() => ctx.close())

describe('a deleted one-off window', () => {
  let id: number
  let pastId: number

  test('turns into a cancelled event: same UID, SEQUENCE one higher, same times and title', async () => {
    const { data } = await json(await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: TITLE, message: 'Secret plan', start_at: '2027-04-10T08:00:00Z', end_at: '2027-04-10T09:00:00Z' } }))
    id = data.id
    expect((await api(`/maintenances/${id}`, { method: 'PATCH', json: { end_at: '2027-04-10T10:00:00Z' } })).status).toBe(200)
    let events = await feed()
    expect(events[uidOf(id)]).toMatchObject({ status: 'CONFIRMED', summary: TITLE })
    expect(Number(events[uidOf(id)]!.sequence)).toBe(1)

    ctx.clock.set(NOW + 3_600_000)
    expect((await api(`/maintenances/${id}`, { method: 'DELETE' })).status).toBe(200)
    events = await feed()
    const event = events[uidOf(id)]!
    expect(event.status).toBe('CANCELLED')
    expect(Number(event.sequence)).toBe(2)
    expect(event.summary).toBe(TITLE)
    expect(iso(event.start)).toBe('2027-04-10T08:00:00.000Z')
    expect(iso(event.end)).toBe('2027-04-10T10:00:00.000Z')
    expect(iso(event.dtstamp)).toBe(new Date(NOW + 3_600_000).toISOString())
    // The tombstone keeps no more than the event needs: the message went with the window.
    expect(String(event.description ?? '')).toBe('')
    expect(await (await ctx.request(`${HOST}/maintenance.ics`)).text()).not.toContain('Secret plan')
    expect((await api(`/maintenances/${id}`)).status).toBe(404)
  })

  test('is gone from the page, history, status JSON and v2 JSON', async () => {
    for (const path of ['/', '/history', '/history.rss', '/history.atom', '/api/v2/summary.json', '/api/v2/scheduled-maintenances.json', '/api/v2/scheduled-maintenances/upcoming.json']) {
      const response = await ctx.request(`${HOST}${path}`)
      expect(response.status).toBe(200)
      const body = await response.text()
      expect(body).not.toContain('phase 1')
      expect(body).not.toContain('Secret plan')
    }
    const status = await ctx.request(`/api/embed/status?slug=gone`)
    expect(status.status).toBe(200)
    expect(await status.text()).not.toContain('phase 1')
    expect((await json(await api(`/maintenances?status_page_id=${pageId}`))).data).toEqual([])
  })

  test('a window deleted after it ended stays cancelled for 30 days from its deletion', async () => {
    const { data } = await json(await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: 'Old one', start_at: '2027-03-01T08:00:00Z', end_at: '2027-03-01T09:00:00Z' } }))
    pastId = data.id
    const deletedAt = NOW + 2 * 3_600_000
    ctx.clock.set(deletedAt)
    await api(`/maintenances/${pastId}`, { method: 'DELETE' })
    expect((await feed())[uidOf(pastId)]).toMatchObject({ status: 'CANCELLED', summary: 'Old one' })
    ctx.clock.set(deletedAt + 30 * DAY - BEFORE)
    expect((await feed())[uidOf(pastId)]?.status).toBe('CANCELLED')
    ctx.clock.set(deletedAt + 30 * DAY)
    const events = await feed()
    expect(events[uidOf(pastId)]).toBeUndefined()
    // The one still to come (ending 10 April) is still there.
    expect(events[uidOf(id)]?.status).toBe('CANCELLED')
  })

  test('one still to come when deleted stays until 30 days past its end, and is then forgotten', async () => {
    const end = Date.UTC(2027, 3, 10, 10)
    ctx.clock.set(end + 30 * DAY - BEFORE)
    expect((await feed())[uidOf(id)]?.status).toBe('CANCELLED')
    ctx.clock.set(end + 30 * DAY)
    expect((await feed())[uidOf(id)]).toBeUndefined()
    // Rows the feed no longer shows are removed at the page's next deletion.
    const { data } = await json(await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: 'Another', start_at: '2027-06-10T08:00:00Z', end_at: '2027-06-10T09:00:00Z' } }))
    await api(`/maintenances/${data.id}`, { method: 'DELETE' })
    const rows = await ctx.database.db.selectFrom('maintenance_cancellations').select(['maintenance_id', 'page_id', 'sequence']).execute()
    expect(rows.map((row) => ({ ...row, maintenance_id: Number(row.maintenance_id), page_id: Number(row.page_id), sequence: Number(row.sequence) }))).toEqual([{ maintenance_id: data.id, page_id: pageId, sequence: 1 }])
  })

  test("someone else's window cannot be deleted and leaves nothing", async () => {
    const other = await ctx.createOwner('pro')
    const { data } = await json(await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: 'Mine', start_at: '2027-07-10T08:00:00Z', end_at: '2027-07-10T09:00:00Z' } }))
    const response = await ctx.request(`/user/api/v1/maintenances/${data.id}`, { method: 'DELETE', key: other.key })
    expect(response.status).toBe(404)
    expect((await feed())[uidOf(data.id)]?.status).toBe('CONFIRMED')
    expect((await ctx.request(`/user/api/v1/maintenances/999999999`, { method: 'DELETE', key })).status).toBe(404)
  })
})

describe('recurring maintenance', () => {
  test('a deleted occurrence becomes a skipped date of its series (EXDATE, SEQUENCE up) and is not written again', async () => {
    ctx.clock.set(NOW)
    const { data: series } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Nightly', time_zone: 'Europe/Berlin', starts_on: '2027-03-22', start_time: '03:00', duration_minutes: 30, frequency: 'daily', count: 4 },
    }))
    const windows = async () => (await json(await api(`/maintenances?status_page_id=${pageId}&limit=100`))).data.filter((w: { series_id: number | null }) => w.series_id === series.id)
    const occurrence = (await windows()).find((w: { start_at: string }) => w.start_at === '2027-03-23T02:00:00.000Z')
    expect(occurrence).toBeDefined()
    expect((await api(`/maintenances/${occurrence.id}`, { method: 'DELETE' })).status).toBe(200)

    const event = (await feed())[seriesUid(series.id)]!
    expect(event.status).toBe('CONFIRMED')
    expect(Number(event.sequence)).toBe(1)
    const starts = ical.expandRecurringEvent(event, { from: new Date(Date.UTC(2027, 2, 1)), to: new Date(Date.UTC(2027, 4, 1)) }).map((i) => iso(i.start))
    expect(starts).toEqual(['2027-03-22T02:00:00.000Z', '2027-03-24T02:00:00.000Z', '2027-03-25T02:00:00.000Z'])
    // The hourly extension leaves the skipped date alone, and the API lists it as an exception.
    await ctx.app.services.maintenanceSeries.extend()
    expect((await windows()).map((w: { start_at: string }) => w.start_at).toSorted()).toEqual(['2027-03-22T02:00:00.000Z', '2027-03-24T02:00:00.000Z', '2027-03-25T02:00:00.000Z'])
    expect((await json(await api(`/maintenance-series/${series.id}`))).data.exceptions).toEqual(['2027-03-23'])
    // No tombstone of its own: the series' event carries it.
    expect((await feed())[uidOf(occurrence.id)]).toBeUndefined()
  })

  test('an occurrence of a series that already skips 500 dates cannot be deleted (409) and stays', async () => {
    ctx.clock.set(NOW)
    const skipped = Array.from({ length: 500 }, (_, i) => new Date(Date.UTC(2031, 0, 1) + i * DAY).toISOString().slice(0, 10))
    const { data: series } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Full', time_zone: 'UTC', starts_on: '2027-03-21', start_time: '05:00', duration_minutes: 10, frequency: 'daily', exceptions: skipped },
    }))
    const first = (await json(await api(`/maintenances?status_page_id=${pageId}&limit=200`))).data.find((w: { series_id: number | null }) => w.series_id === series.id)
    const response = await api(`/maintenances/${first.id}`, { method: 'DELETE' })
    expect(response.status).toBe(409)
    expect((await json(response)).error).toContain('500')
    expect((await api(`/maintenances/${first.id}`)).status).toBe(200)
    expect(Number((await feed())[seriesUid(series.id)]!.sequence)).toBe(0)
    await api(`/maintenance-series/${series.id}`, { method: 'DELETE' })
  })

  test('a cancelled series with an end leaves the feed 30 days after it; one without an end stays', async () => {
    ctx.clock.set(NOW)
    const { data: ending } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Until April', time_zone: 'America/New_York', starts_on: '2027-03-25', start_time: '23:00', duration_minutes: 60, frequency: 'weekly', until: '2027-04-15' },
    }))
    const { data: forever } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Forever', time_zone: 'Europe/Berlin', starts_on: '2027-03-25', start_time: '01:00', duration_minutes: 60, frequency: 'monthly' },
    }))
    await api(`/maintenance-series/${ending.id}`, { method: 'DELETE' })
    await api(`/maintenance-series/${forever.id}`, { method: 'DELETE' })
    let events = await feed()
    expect(events[seriesUid(ending.id)]).toMatchObject({ status: 'CANCELLED', summary: 'Until April' })
    expect(Number(events[seriesUid(ending.id)]!.sequence)).toBe(1)
    expect(events[seriesUid(forever.id)]?.status).toBe('CANCELLED')
    // The last occurrence: Thursday 15 April 23:00 New York (EDT) = 16 April 03:00Z, an hour long.
    const lastEnd = Date.UTC(2027, 3, 16, 4)
    ctx.clock.set(lastEnd + 30 * DAY - BEFORE)
    expect((await feed())[seriesUid(ending.id)]?.status).toBe('CANCELLED')
    ctx.clock.set(lastEnd + 30 * DAY)
    events = await feed()
    expect(events[seriesUid(ending.id)]).toBeUndefined()
    expect(events[seriesUid(forever.id)]?.status).toBe('CANCELLED')
    // The owner still sees both, cancelled.
    const list = (await json(await api(`/maintenance-series?status_page_id=${pageId}`))).data.map((s: { id: number; status: string }) => [s.id, s.status])
    expect(list).toContainEqual([ending.id, 'cancelled'])
    expect(list).toContainEqual([forever.id, 'cancelled'])
  })
})
