import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { createComponent, importHistory, slug } from '../analytics/helpers.ts'
import { SlaReportJson } from '../../../src/modules/sla/model.ts'

let ctx: TestContext
let key: string
let pageId: number
const ids: Record<string, number> = {}
const NOW = Date.UTC(2026, 11, 1, 12, 0, 0) // 2026-12-01T12:00Z: November is over
const NOVEMBER = '?from=2026-11-01&to=2026-11-30'

async function setTarget(componentId: number, body: Record<string, unknown>) {
  const response = await ctx.request(`/user/api/v1/components/${componentId}/sla-target`, { method: 'PUT', key, json: body })
  expect(response.status).toBe(200)
  return (await json(response)).data
}

const report = async (query = NOVEMBER) => {
  const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/sla${query}`, { key })
  expect(response.status).toBe(200)
  return (await json(response)).data
}
const componentOf = (r: { components: Array<{ name: string }> }, name: string) => r.components.find((c) => c.name === name) as any

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  ;({ key } = await ctx.createOwner('free'))
  pageId = (await ctx.createPage(key, { slug: slug('sla'), name: 'SLA page' })).id
  for (const name of ['Exact', 'Maintained', 'Degraded', 'Blip']) ids[name] = await createComponent(ctx, key, pageId, name)
  // Exact: one outage of exactly 43 min 12 s in November (30 days): 99.9000 % at 99.9.
  await importHistory(ctx, key, ids.Exact!, [
    { status: 'up', at: '2026-10-20T00:00:00Z' },
    { status: 'down', at: '2026-11-10T10:00:00Z' },
    { status: 'up', at: '2026-11-10T10:43:12Z' },
  ])
  // Maintained: down 02:00–04:00 on Nov 5 while a maintenance window covers 01:00–03:00.
  await importHistory(ctx, key, ids.Maintained!, [
    { status: 'up', at: '2026-10-20T00:00:00Z' },
    { status: 'down', at: '2026-11-05T02:00:00Z' },
    { status: 'up', at: '2026-11-05T04:00:00Z' },
  ])
  const window = await ctx.request('/user/api/v1/maintenances', {
    method: 'POST',
    key,
    json: { status_page_id: pageId, title: 'Database upgrade', start_at: '2026-11-05T01:00:00Z', end_at: '2026-11-05T03:00:00Z', component_ids: [ids.Maintained] },
  })
  expect(window.status).toBe(201)
  // Degraded: 2 h degraded on Nov 7.
  await importHistory(ctx, key, ids.Degraded!, [
    { status: 'up', at: '2026-10-20T00:00:00Z' },
    { status: 'degraded', at: '2026-11-07T08:00:00Z' },
    { status: 'up', at: '2026-11-07T10:00:00Z' },
  ])
  // Blip: a 30 s outage and a 5 min one.
  await importHistory(ctx, key, ids.Blip!, [
    { status: 'up', at: '2026-10-20T00:00:00Z' },
    { status: 'down', at: '2026-11-08T08:00:00Z' },
    { status: 'up', at: '2026-11-08T08:00:30Z' },
    { status: 'down', at: '2026-11-09T08:00:00Z' },
    { status: 'up', at: '2026-11-09T08:05:00Z' },
  ])
})
afterAll(() => ctx.close())

describe('SLA report figures', () => {
  test('43 min 12 s down in 30 days is exactly 99.9000 % at target 99.9, the whole budget used', async () => {
    await setTarget(ids.Exact!, { target_percent: 99.9 })
    const c = componentOf(await report(), 'Exact')
    expect(c.actual).toBe('99.9000')
    expect(c.actual_percent).toBe(99.9)
    expect(c.met).toBe(true)
    expect(c.downtime).toBe('0:43:12')
    expect(c.measured_seconds).toBe(30 * 86400)
    expect(c.budget).toEqual({ allowed_seconds: 2592, used_seconds: 2592, left_seconds: 0, used_percent: 100 })
    expect(c.outages).toEqual({ count: 1, ignored_short: 0, longest_seconds: 2592, longest: '0:43:12' })
    expect(c.strip).toHaveLength(30)
    const day10 = c.strip.find((b: { date: string }) => b.date === '2026-11-10')
    expect(day10.down_seconds).toBe(2592)
    expect(day10.level).toBe('minor')
    expect(c.strip.filter((b: { level: string }) => b.level === 'ok')).toHaveLength(29)
  })

  test('the same outage over a single day is below target and over budget', async () => {
    const r = await report('?from=2026-11-10&to=2026-11-10')
    const c = componentOf(r, 'Exact')
    // One day: 2592 s down of 86400 s = 97 %.
    expect(c.actual).toBe('97.0000')
    expect(c.met).toBe(false)
    expect(c.budget.left_seconds).toBe(Math.round(86.4) - 2592)
    expect(c.budget.used_percent).toBe(3000)
  })

  test('time inside a maintenance window is excluded from every status and listed', async () => {
    await setTarget(ids.Maintained!, { target_percent: 99.5, exclude_maintenance: true })
    const r = await report()
    const c = componentOf(r, 'Maintained')
    expect(c.maintenance_seconds).toBe(7200)
    expect(c.downtime_seconds).toBe(3600) // 03:00–04:00 only
    expect(c.measured_seconds).toBe(30 * 86400 - 7200)
    expect(r.maintenance).toEqual([
      { id: expect.any(Number), title: 'Database upgrade', start_at: '2026-11-05T01:00:00.000Z', end_at: '2026-11-05T03:00:00.000Z', excluded_seconds: 7200, components: ['Maintained'] },
    ])
    expect(r.policies.some((p: string) => p.includes('maintenance windows is excluded'))).toBe(true)
    // Counted like any other time when the policy says so.
    await setTarget(ids.Maintained!, { target_percent: 99.5, exclude_maintenance: false })
    const counted = componentOf(await report(), 'Maintained')
    expect(counted.maintenance_seconds).toBe(0)
    expect(counted.downtime_seconds).toBe(7200)
    expect(counted.measured_seconds).toBe(30 * 86400)
  })

  test('degraded time counts as the policy says: up, half, down', async () => {
    await setTarget(ids.Degraded!, { target_percent: 99, degraded_counts_as: 'up' })
    expect(componentOf(await report(), 'Degraded').downtime_seconds).toBe(0)
    await setTarget(ids.Degraded!, { target_percent: 99, degraded_counts_as: 'half' })
    expect(componentOf(await report(), 'Degraded').downtime_seconds).toBe(3600)
    await setTarget(ids.Degraded!, { target_percent: 99, degraded_counts_as: 'down' })
    const c = componentOf(await report(), 'Degraded')
    expect(c.downtime_seconds).toBe(7200)
    expect(c.degraded_seconds).toBe(7200)
    expect(c.policy.degraded_counts_as).toBe('down')
  })

  test('outages shorter than the policy minimum are not counted', async () => {
    await setTarget(ids.Blip!, { target_percent: 99.9, min_outage_seconds: 60 })
    const c = componentOf(await report(), 'Blip')
    expect(c.downtime_seconds).toBe(300)
    expect(c.outages).toMatchObject({ count: 1, ignored_short: 1, longest_seconds: 300 })
    await setTarget(ids.Blip!, { target_percent: 99.9, min_outage_seconds: 0 })
    expect(componentOf(await report(), 'Blip').downtime_seconds).toBe(330)
  })

  test('a year costs the same reads: weekly strip, same totals as the months it holds', async () => {
    const year = await report('?from=2026-01-01&to=2026-12-31')
    expect(year.bucket_days).toBe(7)
    const c = componentOf(year, 'Exact')
    expect(c.strip).toHaveLength(53)
    expect(c.downtime_seconds).toBe(2592)
    // Measured from Oct 20 (the first status) to now; the budget spans the rest of the year too.
    expect(c.measured_seconds).toBe((NOW - Date.UTC(2026, 9, 20)) / 1000)
    expect(c.budget.allowed_seconds).toBe(Math.floor(((Date.UTC(2027, 0, 1) - Date.UTC(2026, 9, 20)) / 1000) * 0.001))
  })

  test('incidents with MTTR in the range', async () => {
    const created = await ctx.request('/user/api/v1/incidents', {
      method: 'POST',
      key,
      json: { status_page_id: pageId, title: 'Exact is down', message: 'Looking', state: 'investigating', component_ids: [ids.Exact], started_at: '2026-11-10T10:00:00Z' },
    })
    expect([200, 201]).toContain(created.status)
    const r = await report()
    expect(r.incidents.map((i: { title: string }) => i.title)).toContain('Exact is down')
    expect(componentOf(r, 'Exact').incidents.count).toBe(1)
  })

  test('the JSON matches its schema', async () => {
    const r = await report()
    expect([...Value.Errors(SlaReportJson, r)].map((e) => `${e.path} ${e.message}`)).toEqual([])
  })
})

describe('SLA API edges', () => {
  test('another owner gets 404 for the report, the targets and the settings, and changes nothing', async () => {
    const other = await ctx.createOwner('free')
    for (const path of [`/status-pages/${pageId}/sla`, `/status-pages/${pageId}/sla.csv`, `/status-pages/${pageId}/sla.pdf`, `/status-pages/${pageId}/sla/targets`, `/status-pages/${pageId}/sla/settings`]) {
      expect((await ctx.request(`/user/api/v1${path}`, { key: other.key })).status).toBe(404)
    }
    const put = await ctx.request(`/user/api/v1/components/${ids.Exact}/sla-target`, { method: 'PUT', key: other.key, json: { target_percent: 50 } })
    expect(put.status).toBe(404)
    const del = await ctx.request(`/user/api/v1/components/${ids.Exact}/sla-target`, { method: 'DELETE', key: other.key })
    expect(del.status).toBe(404)
    const targets = (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/sla/targets`, { key }))).data
    expect(targets.find((t: { component_id: number }) => t.component_id === ids.Exact).target.target_percent).toBe(99.9)
  })

  test('bad input is a 400 naming the field and changes nothing', async () => {
    for (const query of ['?from=2026-02-30', '?from=2026-11-10&to=2026-11-01', '?from=2025-01-01&to=2026-12-31', '?from=yesterday']) {
      const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/sla${query}`, { key })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(/from|to|days/)
    }
    for (const body of [{ target_percent: 100 }, { target_percent: 20 }, { target_percent: 99.12345 }, { target_percent: 99, period: 'week' }, { target_percent: 99, min_outage_seconds: -1 }, {}]) {
      const response = await ctx.request(`/user/api/v1/components/${ids.Exact}/sla-target`, { method: 'PUT', key, json: body })
      expect(response.status).toBe(400)
    }
    const targets = (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/sla/targets`, { key }))).data
    expect(targets.find((t: { component_id: number }) => t.component_id === ids.Exact).target).toMatchObject({ target_percent: 99.9, period: 'month' })
  })

  test('a target can be removed; the report then has no budget for it', async () => {
    const extra = await createComponent(ctx, key, pageId, 'Removed')
    await setTarget(extra, { target_percent: 99 })
    expect((await ctx.request(`/user/api/v1/components/${extra}/sla-target`, { method: 'DELETE', key })).status).toBe(200)
    expect((await ctx.request(`/user/api/v1/components/${extra}/sla-target`, { method: 'DELETE', key })).status).toBe(404)
    const c = componentOf(await report(), 'Removed')
    expect(c.target).toBeNull()
    expect(c.budget).toBeNull()
  })
})
