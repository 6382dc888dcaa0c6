/**
 * Maintenance updates (SQLite, or PostgreSQL with LANTERN_TEST_POSTGRES): posted through the API to
 * one window (for a series, one occurrence), listed newest first, shown on the status page, in the
 * v2 JSON's `incident_updates`, the feeds and a one-off window's calendar DESCRIPTION with a raised
 * SEQUENCE; markup stays text, someone else's window is a 404, bad input a 400.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import ical, { type VEvent } from 'node-ical'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

const HOST = 'https://upd.status.test'
const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>'
let ctx: TestContext
let key: string
let otherKey: string
let pageId: number
let windowId: number

const api = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const post = (id: number, body: unknown, as = key) => api(`/maintenances/${id}/updates`, { method: 'POST', json: body, key: as })

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 1, 12) })
  key = (await ctx.createOwner('pro')).key
  otherKey = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'upd', name: 'Upd' })).id
  const created = await api('/maintenances', {
    method: 'POST',
    json: { status_page_id: pageId, title: 'DB upgrade', message: 'Upgrading the database.', start_at: '2026-11-01T11:00:00Z', end_at: '2026-11-01T14:00:00Z' },
  })
  windowId = (await json(created)).data.id
})
afterAll(() => ctx.close())

describe('maintenance updates API', () => {
  test('an update is posted (status defaults to the phase), listed newest first, and raises the SEQUENCE', async () => {
    const before = (await json(await api(`/maintenances/${windowId}`))).data
    expect(before.updates).toEqual([])
    const first = await post(windowId, { message: 'Started: replicas first.' })
    expect(first.status).toBe(201)
    const { data } = await json(first)
    expect(data.updates).toEqual([{ id: expect.any(Number), status: 'in_progress', message: 'Started: replicas first.', at: '2026-11-01T12:00:00.000Z' }])
    ctx.clock.set(Date.UTC(2026, 10, 1, 12, 30))
    const second = await json(await post(windowId, { message: `Now **verifying** ${XSS}`, status: 'verifying' }))
    expect(second.data.updates.map((u: { status: string }) => u.status)).toEqual(['verifying', 'in_progress'])
    const list = await json(await api(`/maintenances/${windowId}/updates`))
    expect(list.meta.count).toBe(2)
    expect(list.data[0]).toMatchObject({ status: 'verifying', message: `Now **verifying** ${XSS}`, at: '2026-11-01T12:30:00.000Z' })
    // The window itself is unchanged: its phase follows its times.
    expect(second.data).toMatchObject({ status: 'in_progress', title: 'DB upgrade', message: 'Upgrading the database.' })
  })

  test('bad input is a 400 with a clear message, never a 500', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /message/],
      [{ message: '' }, /message/],
      [{ message: '   ' }, /message/],
      [{ message: 'x'.repeat(10_001) }, /message/],
      [{ message: 42 }, /message/],
      [{ message: 'ok', status: 'resolved' }, /status must be one of scheduled, in_progress, verifying, completed/],
      [{ message: 'nul \u0000 here' }, /message/],
    ]
    for (const [body, message] of cases) {
      const response = await post(windowId, body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(message)
    }
    const notJson = await ctx.request(`/user/api/v1/maintenances/${windowId}/updates`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: '{' })
    expect(notJson.status).toBe(400)
    expect((await post(0, { message: 'x' })).status).toBe(400)
    expect((await json(await api(`/maintenances/${windowId}/updates`))).meta.count).toBe(2)
  })

  test("another owner's window is a 404 and changes nothing; an unknown one is a 404", async () => {
    expect((await post(windowId, { message: 'not mine' }, otherKey)).status).toBe(404)
    expect((await api(`/maintenances/${windowId}/updates`, { key: otherKey })).status).toBe(404)
    expect((await post(999_999, { message: 'nobody' })).status).toBe(404)
    const list = await json(await api(`/maintenances/${windowId}/updates`))
    expect(list.data.map((u: { message: string }) => u.message)).not.toContain('not mine')
  })

  test('an update to an occurrence of a series belongs to that occurrence only', async () => {
    // On a page of its own: its 60 days of occurrences would crowd the feeds read below.
    const seriesPage = (await ctx.createPage(key, { slug: 'upd-series', name: 'Series' })).id
    const { data: series } = await json(
      await api('/maintenance-series', {
        method: 'POST',
        json: { status_page_id: seriesPage, title: 'Nightly', time_zone: 'Europe/Berlin', starts_on: '2026-11-02', start_time: '02:00', duration_minutes: 30, frequency: 'daily' },
      }),
    )
    const windows = (await json(await api(`/maintenances?status_page_id=${seriesPage}&limit=200`))).data.filter((w: { series_id: number | null }) => w.series_id === series.id)
    expect(windows.length).toBeGreaterThan(2)
    const [one, other] = windows as Array<{ id: number }>
    expect((await post(one!.id, { message: 'This night only', status: 'scheduled' })).status).toBe(201)
    expect((await json(await api(`/maintenances/${one!.id}/updates`))).meta.count).toBe(1)
    expect((await json(await api(`/maintenances/${other!.id}/updates`))).meta.count).toBe(0)
    // Deleting a window takes its updates with it.
    expect((await api(`/maintenances/${one!.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/maintenances/${one!.id}/updates`)).status).toBe(404)
  })
})

describe('roles', () => {
  test('editors and responders may post an update; a viewer is a 403 and changes nothing', async () => {
    const owner = await ctx.createOwner('enterprise')
    const page = await ctx.createPage(owner.key, { slug: 'upd-team', name: 'Team' })
    const { data: window } = await json(
      await ctx.request('/user/api/v1/maintenances', { method: 'POST', key: owner.key, json: { status_page_id: page.id, title: 'Team window', start_at: '2026-11-02T00:00:00Z', end_at: '2026-11-02T01:00:00Z' } }),
    )
    const { accounts } = ctx.app.services
    const as = async (role: string) => {
      const member = await ctx.createOwner('free')
      await ctx.database.db.insertInto('team_members').values({ team_id: owner.user.id, user_id: member.account.id, role, created_at: 0 } as never).execute()
      const token = await accounts.startSession(member.account.id)
      await accounts.chooseTeam((await accounts.authenticateSession(token))!.sessionId!, owner.user.id)
      return (body: unknown) =>
        ctx.request(`/user/api/v1/maintenances/${window.id}/updates`, { method: 'POST', json: body, headers: { cookie: `lantern_session=${token}`, origin: ctx.config.baseUrl } })
    }
    expect((await (await as('editor'))({ message: 'By an editor' })).status).toBe(201)
    expect((await (await as('responder'))({ message: 'By a responder' })).status).toBe(201)
    expect((await (await as('viewer'))({ message: 'By a viewer' })).status).toBe(403)
    const list = await json(await ctx.request(`/user/api/v1/maintenances/${window.id}/updates`, { key: owner.key }))
    expect(list.data.map((u: { message: string }) => u.message)).toEqual(['By a responder', 'By an editor'])
  })
})

describe('where visitors see them', () => {
  test('the status page shows the timeline newest first, markup as text', async () => {
    const html = await (await ctx.request(`${HOST}/`)).text()
    const block = /<article class="maintenance card">\s*<h3>DB upgrade<\/h3>.*?<\/article>/s.exec(html)![0]
    expect(block).toContain('<ol class="timeline">')
    expect(block.indexOf('Verifying')).toBeLessThan(block.indexOf('Started: replicas first.'))
    expect(block).toContain('<strong>verifying</strong>')
    expect(block).not.toContain('<script>')
    expect(block).not.toContain('<img')
    expect(block).toContain('&lt;script&gt;')
  })

  test('the v2 JSON carries them in incident_updates, newest first, the description last', async () => {
    for (const path of ['/api/v2/summary.json', '/api/v2/scheduled-maintenances.json']) {
      const body = await json(await ctx.request(`${HOST}${path}`))
      const m = body.scheduled_maintenances.find((s: { name: string }) => s.name === 'DB upgrade')
      expect(m.incident_updates.map((u: { status: string; body: string }) => [u.status, u.body])).toEqual([
        ['verifying', `Now **verifying** ${XSS}`],
        ['in_progress', 'Started: replicas first.'],
        ['in_progress', 'Upgrading the database.'],
      ])
      expect(m.incident_updates[0]).toMatchObject({ incident_id: `m${windowId}`, created_at: '2026-11-01T12:30:00.000Z', display_at: '2026-11-01T12:30:00.000Z' })
    }
  })

  test('the feeds have an item per update; the calendar DESCRIPTION carries them with a raised SEQUENCE', async () => {
    const rss = await (await ctx.request(`${HOST}/history.rss`)).text()
    expect(rss).toContain(`<guid isPermaLink="false">${HOST}/maintenance/${windowId}#update-`)
    expect(rss).toContain('<title>[Maintenance verifying] DB upgrade</title>')
    expect(rss).not.toContain('<script>')
    const atom = await (await ctx.request(`${HOST}/history.atom`)).text()
    expect(atom).toContain('[Maintenance in progress] DB upgrade')
    const parsed = ical.sync.parseICS(await (await ctx.request(`${HOST}/maintenance.ics`)).text())
    const event = Object.values(parsed).find((c): c is VEvent => c?.type === 'VEVENT' && c.uid === `maintenance-${windowId}.page-${pageId}@lantern`)!
    expect(Number(event.sequence)).toBe(2)
    const description = String(event.description)
    expect(description).toContain('Upgrading the database.')
    expect(description.indexOf('Verifying (2026-11-01 12:30 UTC)')).toBeLessThan(description.indexOf('In progress (2026-11-01 12:00 UTC): Started'))
  })
})
