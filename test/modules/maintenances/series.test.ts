/**
 * Recurring maintenance through the API with an injected clock: occurrences become windows that put
 * their components under maintenance exactly like one-off windows, across a daylight-saving change;
 * changes rewrite the occurrences not yet started and raise the sequence; cancelling stops them;
 * bad input is a 400 with nothing written; someone else's series is a 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let otherKey: string
let pageId: number
let componentId: number
let otherComponentId: number

const api = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const display = async (id: number) => (await ctx.app.services.pageStatus.snapshot(pageId)).components.find((c) => c.id === id)!.display

beforeAll(async () => {
  // Friday 26 March 2027, 12:00 UTC: Berlin moves to summer time on Sunday the 28th.
  ctx = await createTestContext({ now: Date.UTC(2027, 2, 26, 12) })
  key = (await ctx.createOwner('pro')).key
  otherKey = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'series-page', name: 'S' })).id
  const component = async (name: string) => (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name } }))).data.id as number
  componentId = await component('DB')
  otherComponentId = await component('Web')
})
afterAll(() => ctx.close())

describe('recurring maintenance API', () => {
  test('daily at 03:00 Berlin: each occurrence is a window that puts its component under maintenance, before and after the change', async () => {
    const response = await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Nightly backup', time_zone: 'Europe/Berlin', starts_on: '2027-03-27', start_time: '03:00', duration_minutes: 30, frequency: 'daily', count: 10, exceptions: ['2027-03-29'], component_ids: [componentId] },
    })
    expect(response.status).toBe(201)
    const { data } = await json(response)
    expect(data).toMatchObject({ status: 'active', sequence: 0, frequency: 'daily', interval: 1, count: 10, until: null, exceptions: ['2027-03-29'], components: [{ id: componentId, name: 'DB' }] })
    expect(data.next_occurrences.slice(0, 3)).toEqual([
      { date: '2027-03-27', start_at: '2027-03-27T02:00:00.000Z', end_at: '2027-03-27T02:30:00.000Z' },
      { date: '2027-03-28', start_at: '2027-03-28T01:00:00.000Z', end_at: '2027-03-28T01:30:00.000Z' },
      { date: '2027-03-30', start_at: '2027-03-30T01:00:00.000Z', end_at: '2027-03-30T01:30:00.000Z' },
    ])
    // Nine windows written (ten dates, one skipped), each an occurrence of the series.
    const windows = (await json(await api(`/maintenances?status_page_id=${pageId}&limit=50`))).data.filter((w: { series_id: number | null }) => w.series_id === data.id)
    expect(windows).toHaveLength(9)

    expect(await display(componentId)).toBe('operational')
    ctx.clock.set(Date.UTC(2027, 2, 28, 1, 10)) // 03:10 CEST on the day of the change
    expect(await display(componentId)).toBe('under_maintenance')
    expect(await display(otherComponentId)).toBe('operational')
    ctx.clock.set(Date.UTC(2027, 2, 28, 2, 10)) // 04:10 CEST: over
    expect(await display(componentId)).toBe('operational')
    ctx.clock.set(Date.UTC(2027, 2, 29, 1, 10)) // the skipped date
    expect(await display(componentId)).toBe('operational')
    ctx.clock.set(Date.UTC(2027, 2, 30, 1, 10))
    expect(await display(componentId)).toBe('under_maintenance')
    // The start and end notices come from the sweeper, as for any window.
    expect(await ctx.app.services.maintenanceSweeper.sweep()).toBeGreaterThanOrEqual(1)
  })

  test('a change rewrites the occurrences not yet started, keeps the one in progress and raises the sequence; cancelling stops them', async () => {
    ctx.clock.set(Date.UTC(2027, 3, 5, 12)) // Monday 5 April 2027
    const { data } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Weekly', time_zone: 'America/New_York', starts_on: '2027-04-05', start_time: '08:00', duration_minutes: 120, frequency: 'weekly', weekdays: ['MO', 'TH'] },
    }))
    // 08:00 EDT = 12:00Z: the first occurrence starts now.
    expect(data.next_occurrences[0]).toEqual({ date: '2027-04-05', start_at: '2027-04-05T12:00:00.000Z', end_at: '2027-04-05T14:00:00.000Z' })
    expect(await display(otherComponentId)).toBe('under_maintenance') // no components: the whole page
    ctx.clock.set(Date.UTC(2027, 3, 5, 13))
    const patched = await json(await api(`/maintenance-series/${data.id}`, { method: 'PATCH', json: { weekdays: ['TU'], title: 'Weekly <b>' } }))
    expect(patched.data).toMatchObject({ sequence: 1, weekdays: ['TU'], title: 'Weekly <b>' })
    const windows = async () => (await json(await api(`/maintenances?status_page_id=${pageId}&limit=200`))).data.filter((w: { series_id: number | null }) => w.series_id === data.id)
    const current = await windows()
    // The one in progress (a Monday) stays with the new title; the rest fall on Tuesdays.
    expect(current.find((w: { start_at: string }) => w.start_at === '2027-04-05T12:00:00.000Z')).toMatchObject({ title: 'Weekly <b>', status: 'in_progress' })
    const later = current.filter((w: { start_at: string }) => w.start_at > '2027-04-05T14:00:00.000Z')
    expect(later.length).toBeGreaterThan(5)
    for (const w of later) expect(new Date(w.start_at).getUTCDay()).toBe(2)

    const cancelled = await json(await api(`/maintenance-series/${data.id}`, { method: 'DELETE' }))
    expect(cancelled.data).toMatchObject({ status: 'cancelled', sequence: 2, next_occurrences: [] })
    expect((await windows()).map((w: { start_at: string }) => w.start_at)).toEqual(['2027-04-05T12:00:00.000Z'])
    expect((await api(`/maintenance-series/${data.id}`, { method: 'PATCH', json: { title: 'x' } })).status).toBe(400)
  })

  test('the job writes occurrences as they come within the horizon', async () => {
    ctx.clock.set(Date.UTC(2027, 3, 10, 12))
    const { data } = await json(await api('/maintenance-series', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'Monthly', time_zone: 'UTC', starts_on: '2027-04-15', start_time: '00:00', duration_minutes: 60, frequency: 'monthly' },
    }))
    const count = async () => (await json(await api(`/maintenances?status_page_id=${pageId}&limit=200`))).data.filter((w: { series_id: number | null }) => w.series_id === data.id).length
    expect(await count()).toBe(2) // 15 April, 15 May
    expect(await ctx.app.services.maintenanceSeries.extend()).toBe(0)
    ctx.clock.set(Date.UTC(2027, 4, 20, 12))
    expect(await ctx.app.services.maintenanceSeries.extend()).toBe(2) // 15 June, 15 July
    expect(await count()).toBe(4)
  })

  test('bad input is a 400 naming the field and writes nothing; other owners get 404', async () => {
    const base = { status_page_id: pageId, title: 'T', time_zone: 'Europe/Berlin', starts_on: '2027-05-01', start_time: '02:00', duration_minutes: 60, frequency: 'daily' }
    const before = (await json(await api(`/maintenance-series?status_page_id=${pageId}`))).meta.count
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...base, time_zone: 'Nowhere/City' }, /time_zone/],
      [{ ...base, starts_on: '2027-02-30' }, /starts_on/],
      [{ ...base, start_time: '25:00' }, /start_time/],
      [{ ...base, frequency: 'yearly' }, /frequency/],
      [{ ...base, weekdays: ['MO'] }, /weekdays/],
      [{ ...base, until: '2027-06-01', count: 3 }, /until or count/],
      [{ ...base, duration_minutes: 1440 }, /duration_minutes/],
      [{ ...base, exceptions: ['soon'] }, /exceptions/],
      [{ ...base, component_ids: [424242] }, /not a component/],
      [{ ...base, title: undefined }, /title/],
    ]
    for (const [body, message] of cases) {
      const response = await api('/maintenance-series', { method: 'POST', json: body })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(message)
    }
    expect((await json(await api(`/maintenance-series?status_page_id=${pageId}`))).meta.count).toBe(before)
    const { data } = await json(await api('/maintenance-series', { method: 'POST', json: base }))
    expect((await api(`/maintenance-series/${data.id}`, { key: otherKey })).status).toBe(404)
    expect((await api(`/maintenance-series/${data.id}`, { method: 'PATCH', key: otherKey, json: { title: 'x' } })).status).toBe(404)
    expect((await api(`/maintenance-series/${data.id}`, { method: 'DELETE', key: otherKey })).status).toBe(404)
    expect((await api('/maintenance-series', { method: 'POST', key: otherKey, json: base })).status).toBe(404)
    expect((await api(`/maintenance-series/${data.id}`, { method: 'PATCH', json: { count: 2, until: null } })).status).toBe(200)
  })
})
