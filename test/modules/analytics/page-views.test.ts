import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { isBotRequest } from '../../../src/modules/analytics/bots.ts'
import { slug } from './helpers.ts'

let ctx: TestContext
let key: string
let pageId: number
const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)
const DAY = 86_400_000
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  ;({ key } = await ctx.createOwner())
  pageId = (await ctx.createPage(key, { slug: slug('pv'), name: 'Views' })).id
})
afterAll(() => ctx.close())

const visit = (agent: string, headers: Record<string, string> = {}) =>
  new Request('https://acme.status.test/', { headers: { 'user-agent': agent, ...headers } })

async function day(date: string) {
  const report = (await json(await ctx.request(`/api/analytics/status-pages/${pageId}?from=2026-10-25&to=2026-11-05`, { key }))).data
  return report.daily.find((d: any) => d.date === date)
}

describe('page-view counting', () => {
  test('the same visitor twice in a day counts once; the next day again', async () => {
    const counter = ctx.app.services.pageViews
    expect(counter.record(pageId, visit(FIREFOX), { clientAddress: '203.0.113.7' })).toBe(true)
    expect(counter.record(pageId, visit(FIREFOX), { clientAddress: '203.0.113.7' })).toBe(true)
    counter.record(pageId, visit(SAFARI), { clientAddress: '203.0.113.7' }) // another browser: another visitor
    expect(counter.pending).toBe(3)
    await counter.flush()
    expect(counter.pending).toBe(0)
    // A later batch on the same day still knows the visitor.
    counter.record(pageId, visit(FIREFOX), { clientAddress: '203.0.113.7' })
    await counter.flush()
    expect(await day('2026-11-01')).toMatchObject({ views: 4, unique_visitors: 2, incident_views: 0, incident_unique_visitors: 0 })

    ctx.clock.set(NOW + DAY)
    counter.record(pageId, visit(FIREFOX), { clientAddress: '203.0.113.7' })
    await counter.flush()
    expect(await day('2026-11-02')).toMatchObject({ views: 1, unique_visitors: 1 })
    // Yesterday's salt and visitor hashes are gone: nothing links the two days.
    const salts = await ctx.database.db.selectFrom('page_view_salts').selectAll().execute()
    expect(salts.map((s) => s.day)).toEqual([Math.floor((NOW + DAY) / DAY)])
    const visitors = await ctx.database.db.selectFrom('page_view_visitors').selectAll().execute()
    expect(visitors.every((v) => v.day === Math.floor((NOW + DAY) / DAY))).toBe(true)
  })

  test('no address is stored anywhere', async () => {
    const dump = JSON.stringify([
      await ctx.database.db.selectFrom('page_view_visitors').selectAll().execute(),
      await ctx.database.db.selectFrom('page_view_daily').selectAll().execute(),
    ])
    expect(dump).not.toContain('203.0.113.7')
    expect(dump).not.toContain('Firefox')
  })

  test('bots, prefetches and HEAD requests are not counted', async () => {
    ctx.clock.set(NOW + 2 * DAY)
    const counter = ctx.app.services.pageViews
    expect(counter.record(pageId, visit('Googlebot/2.1 (+http://www.google.com/bot.html)'))).toBe(false)
    expect(counter.record(pageId, visit('curl/8.5.0'))).toBe(false)
    expect(counter.record(pageId, visit(''))).toBe(false)
    expect(counter.record(pageId, visit(FIREFOX, { 'sec-purpose': 'prefetch' }))).toBe(false)
    expect(counter.record(pageId, new Request('https://acme.status.test/', { method: 'HEAD', headers: { 'user-agent': FIREFOX } }))).toBe(false)
    expect(counter.record(pageId, visit(FIREFOX), { clientAddress: '198.51.100.1' })).toBe(true)
    await counter.flush()
    expect(await day('2026-11-03')).toMatchObject({ views: 1, unique_visitors: 1 })
    expect(isBotRequest(visit(SAFARI))).toBe(false)
  })

  test('a view during an incident counts in both the totals and the incident figures', async () => {
    ctx.clock.set(NOW + 3 * DAY)
    const counter = ctx.app.services.pageViews
    counter.record(pageId, visit(FIREFOX), { clientAddress: '198.51.100.2', duringIncident: true })
    counter.record(pageId, visit(FIREFOX), { clientAddress: '198.51.100.2', duringIncident: true })
    counter.record(pageId, visit(FIREFOX), { clientAddress: '198.51.100.3' })
    await counter.flush()
    expect(await day('2026-11-04')).toMatchObject({ views: 3, unique_visitors: 2, incident_views: 2, incident_unique_visitors: 1 })
    const report = (await json(await ctx.request(`/api/analytics/status-pages/${pageId}?range=7d`, { key }))).data
    expect(report.views).toBe(4 + 1 + 1 + 3)
    expect(report.incident_views).toBe(2)
  })

  test('views of a page deleted before the flush are dropped quietly', async () => {
    const doomed = await ctx.createPage(key, { slug: slug('gone'), name: 'Gone' })
    ctx.app.services.pageViews.record(doomed.id, visit(FIREFOX), { clientAddress: '198.51.100.4' })
    await ctx.request(`/user/api/v1/status-pages/${doomed.id}`, { method: 'DELETE', key })
    await ctx.app.services.pageViews.flush()
    const rows = await ctx.database.db.selectFrom('page_view_daily').selectAll().where('page_id', '=', doomed.id).execute()
    expect(rows).toHaveLength(0)
  })
})

describe('views of the public status page (issue 4 hook)', () => {
  test('a real page view is counted once per visitor and day, bots not at all, incident views apart', async () => {
    ctx.clock.set(NOW + 5 * DAY)
    const page = await ctx.createPage(key, { slug: slug('pub'), name: 'Public' })
    const open = (agent: string, address: string) =>
      ctx.request(`https://${page.slug}.status.test/`, { headers: { 'user-agent': agent, 'x-forwarded-for': address } })
    expect((await open(FIREFOX, '192.0.2.10')).status).toBe(200)
    expect((await open(FIREFOX, '192.0.2.10')).status).toBe(200)
    expect((await open('Mozilla/5.0 (compatible; bingbot/2.0)', '192.0.2.11')).status).toBe(200)
    await ctx.app.services.pageViews.flush()
    const before = (await json(await ctx.request(`/api/analytics/status-pages/${page.id}?range=7d`, { key }))).data
    expect(before).toMatchObject({ views: 2, unique_visitors: 1, incident_views: 0 })
    // An incident is opened: views now count in both figures.
    const incident = await ctx.request('/user/api/v1/incidents', { method: 'POST', key, json: { title: 'Down', status_page_id: page.id } })
    expect(incident.status).toBe(201)
    expect((await open(SAFARI, '192.0.2.12')).status).toBe(200)
    await ctx.app.services.pageViews.flush()
    const after = (await json(await ctx.request(`/api/analytics/status-pages/${page.id}?range=7d`, { key }))).data
    expect(after).toMatchObject({ views: 3, unique_visitors: 2, incident_views: 1, incident_unique_visitors: 1 })
  })
})
