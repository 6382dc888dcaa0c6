import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { createComponent, importHistory, slug } from './helpers.ts'

let ctx: TestContext
let key: string
let pageId: number
let a: number
let b: number
const NOW = Date.UTC(2026, 10, 1, 12, 0, 0) // 2026-11-01T12:00Z

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  ;({ key } = await ctx.createOwner('pro'))
  pageId = (await ctx.createPage(key, { slug: slug('rep'), name: 'Report' })).id
  a = await createComponent(ctx, key, pageId, 'API')
  b = await createComponent(ctx, key, pageId, 'Web')
  // Component A: up from Oct 25, down 2 h on Oct 26, degraded 2 h then down 30 min on Oct 28.
  await importHistory(ctx, key, a, [
    { status: 'up', at: '2026-10-25T00:00:00Z' },
    { status: 'down', at: '2026-10-26T10:00:00Z' },
    { status: 'up', at: '2026-10-26T12:00:00Z' },
    { status: 'degraded', at: '2026-10-28T06:00:00Z' },
    { status: 'down', at: '2026-10-28T08:00:00Z' },
    { status: 'up', at: '2026-10-28T08:30:00Z' },
  ])
  // Component B: up from Oct 25, an outage across midnight Oct 29/30 (23:00 to 01:00).
  await importHistory(ctx, key, b, [
    { status: 'up', at: '2026-10-25T00:00:00Z' },
    { status: 'down', at: '2026-10-29T23:00:00Z' },
    { status: 'up', at: '2026-10-30T01:00:00Z' },
  ])
})
afterAll(() => ctx.close())

const report = async (query: string) => {
  const response = await ctx.request(`/api/analytics/status-pages/${pageId}${query}`, { key })
  expect(response.status).toBe(200)
  return (await json(response)).data
}

describe('uptime and MTTR against hand-computed values', () => {
  test('7 days: Oct 26 00:00 to Nov 1 12:00 (6.5 days)', async () => {
    const r = await report('?range=7d')
    expect(r.range).toEqual({ key: '7d', from: '2026-10-26T00:00:00.000Z', to: '2026-11-01T12:00:00.000Z', days: 7 })
    const [ca, cb] = r.components
    const span = 6.5 * 86400 // 561600 s
    // A: down 2 h + 30 min = 9000 s, degraded 2 h = 7200 s.
    expect(ca.tracked_s).toBe(span)
    expect(ca.down_s).toBe(9000)
    expect(ca.degraded_s).toBe(7200)
    expect(ca.up_s).toBe(span - 9000 - 7200)
    expect(ca.incidents).toBe(2)
    expect(ca.mttr_s).toBe(4500)
    expect(ca.mtbf_s).toBe((span - 9000) / 2)
    expect(ca.uptime_percent).toBe(98.3974) // 552600 / 561600
    expect(ca.down_percent).toBe(1.6026)
    // B: 2 h down across midnight.
    expect(cb.down_s).toBe(7200)
    expect(cb.incidents).toBe(1)
    expect(cb.mttr_s).toBe(7200)
    // The page: both components together.
    expect(r.down_s).toBe(16200)
    expect(r.downtime_s).toBe(16200)
    expect(r.incidents).toBe(3)
    expect(r.mttr_s).toBe(5400)
    expect(r.mtbf_s).toBe((2 * span - 16200) / 3)
    expect(r.uptime_percent).toBe(Math.round(((2 * span - 16200) / (2 * span)) * 1e6) / 1e4)
    // Daily series: the midnight-crossing outage is split over two days.
    expect(r.daily).toHaveLength(7)
    const oct29 = r.daily.find((d: any) => d.date === '2026-10-29')
    const oct30 = r.daily.find((d: any) => d.date === '2026-10-30')
    expect(oct29.down_s).toBe(3600)
    expect(oct29.incidents).toBe(1)
    expect(oct30.down_s).toBe(3600)
    expect(oct30.incidents).toBe(0)
    const nov1 = r.daily.at(-1)
    expect(nov1.date).toBe('2026-11-01')
    expect(nov1.up_s).toBe(2 * 12 * 3600)
    expect(r.avg_response_ms).toBeNull()
  })

  test('30 days: only tracked time counts (history starts Oct 25)', async () => {
    const r = await report('?range=30d')
    const [ca] = r.components
    expect(ca.tracked_s).toBe(7.5 * 86400)
    expect(ca.uptime_percent).toBe(Math.round(((7.5 * 86400 - 9000) / (7.5 * 86400)) * 1e6) / 1e4)
    expect(r.daily).toHaveLength(30)
    expect(r.daily[0].uptime_percent).toBeNull()
  })

  test('a custom day: only Oct 30', async () => {
    const r = await report('?from=2026-10-30&to=2026-10-30')
    expect(r.range.key).toBe('custom')
    expect(r.range.days).toBe(1)
    expect(r.down_s).toBe(3600)
    expect(r.incidents).toBe(0) // the outage started the day before
    expect(r.mttr_s).toBeNull()
    expect(r.uptime_percent).toBe(Math.round(((172800 - 3600) / 172800) * 1e6) / 1e4)
  })

  test('a live status change and an older import are both reflected', async () => {
    ctx.clock.set(NOW + 3600_000)
    const patch = await ctx.request(`/user/api/v1/components/${a}`, { method: 'PATCH', key, json: { status: 'down' } })
    expect(patch.status).toBe(200)
    ctx.clock.set(NOW + 2 * 3600_000)
    let r = await report('?range=7d')
    expect(r.components[0].down_s).toBe(9000 + 3600)
    expect(r.components[0].incidents).toBe(3)
    // Import for B an outage starting on Oct 20 (before its first record): B was down until Oct 25 00:00.
    await importHistory(ctx, key, b, [{ status: 'down', at: '2026-10-20T00:00:00Z' }])
    r = await report('?from=2026-10-20&to=2026-10-24')
    expect(r.components[1].down_s).toBe(5 * 86400)
    expect(r.components[1].incidents).toBe(1)
    expect(r.components[0].tracked_s).toBe(0)
    expect(r.components[0].uptime_percent).toBeNull()
  })
})

describe('ranges', () => {
  test('presets, default and bad input', async () => {
    expect((await report('')).range.key).toBe('90d')
    expect((await report('?range=365d')).daily).toHaveLength(365)
    for (const [query, message] of [
      ['?range=8d', 'range must be one of'],
      ['?range=custom', 'from is required'],
      ['?from=2026-10-01', 'to is required'],
      ['?from=2024-01-01&to=2026-10-01', 'at most two years'],
      ['?from=2026-10-05&to=2026-10-01', 'from must not be after to'],
      ['?from=2026-02-30&to=2026-03-01', 'from must be a date'],
      ['?from=<script>&to=x', 'from must be a date'],
      ['?range=7d&from=2026-10-01&to=2026-10-02', 'either a preset'],
      ['?from=2030-01-01&to=2030-01-02', 'from must not be in the future'],
    ] as const) {
      const response = await ctx.request(`/api/analytics/status-pages/${pageId}${query}`, { key })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain(message)
    }
    const exact = await report('?from=2024-11-01&to=2026-11-01')
    expect(exact.range.days).toBe(731)
  })
})

describe('deletions', () => {
  test('deleting a component takes its time out of the page figures and daily series', async () => {
    const c = await createComponent(ctx, key, pageId, 'Doomed')
    await importHistory(ctx, key, c, [
      { status: 'up', at: '2026-10-27T00:00:00Z' },
      { status: 'down', at: '2026-10-27T06:00:00Z' },
    ])
    const withIt = await report('?from=2026-10-27&to=2026-10-27')
    expect(withIt.components).toHaveLength(3)
    const oct27 = withIt.daily[0]
    expect(oct27.down_s).toBe(18 * 3600)
    const response = await ctx.request(`/user/api/v1/components/${c}`, { method: 'DELETE', key })
    expect(response.status).toBe(200)
    const without = await report('?from=2026-10-27&to=2026-10-27')
    expect(without.components).toHaveLength(2)
    expect(without.daily[0].down_s).toBe(0)
    expect(without.daily[0].up_s).toBe(2 * 86400)
    expect(without.down_s).toBe(0)
  })
})

