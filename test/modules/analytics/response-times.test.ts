import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { bucketOf, bucketValue, emptyHistogram, quantile } from '../../../src/modules/analytics/histogram.ts'
import { createComponent, slug } from './helpers.ts'

let ctx: TestContext
let key: string
let pageId: number
let a: number
let b: number
const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)
const DAY = 86_400_000

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  ;({ key } = await ctx.createOwner())
  pageId = (await ctx.createPage(key, { slug: slug('rt'), name: 'RT' })).id
  a = await createComponent(ctx, key, pageId, 'API')
  b = await createComponent(ctx, key, pageId, 'Web')
})
afterAll(() => ctx.close())

async function checks(componentId: number, entries: Array<{ at: number; ms: number | null }>) {
  const body = entries.map((e) => ({ at: new Date(e.at).toISOString(), ok: true, response_ms: e.ms }))
  const response = await ctx.request(`/user/api/v1/components/${componentId}/checks`, { method: 'POST', key, json: body })
  expect(response.status).toBeLessThan(300)
}

const report = async (query: string) => (await json(await ctx.request(`/api/analytics/status-pages/${pageId}${query}`, { key }))).data

describe('histograms', () => {
  test('quantiles are within 5 % of the exact value', () => {
    const hist = emptyHistogram()
    const values = Array.from({ length: 1000 }, (_, i) => 20 + i * 3)
    for (const v of values) hist[bucketOf(v)]!++
    const exact = values[Math.ceil(0.95 * values.length) - 1]!
    const p95 = quantile(hist, 0.95)!
    expect(Math.abs(p95 - exact) / exact).toBeLessThan(0.05)
    expect(quantile(emptyHistogram(), 0.95)).toBeNull()
    expect(bucketValue(bucketOf(0))).toBe(0)
  })
})

describe('response times in the report', () => {
  test('null until checks exist', async () => {
    const r = await report('?range=7d')
    expect(r.avg_response_ms).toBeNull()
    expect(r.p95_response_ms).toBeNull()
  })

  test('average and p95 over a range, per component and per day, with back-filled checks', async () => {
    // A: 100 checks of 100 ms today; B: 10 checks of 1000 ms three days ago; untimed checks are ignored.
    await checks(a, Array.from({ length: 100 }, (_, i) => ({ at: NOW - (i + 1) * 60_000, ms: 100 })))
    await checks(b, Array.from({ length: 10 }, (_, i) => ({ at: NOW - 3 * DAY - (i + 1) * 60_000, ms: 1000 })))
    await checks(b, [{ at: NOW - 60_000, ms: null }])
    const r = await report('?range=7d')
    expect(r.avg_response_ms).toBe(Math.round((100 * 100 + 10 * 1000) / 110)) // 182
    expect(Math.abs(r.p95_response_ms - 1000) / 1000).toBeLessThan(0.05)
    const [ca, cb] = r.components
    expect(ca.avg_response_ms).toBe(100)
    expect(Math.abs(ca.p95_response_ms - 100)).toBeLessThan(5)
    expect(cb.avg_response_ms).toBe(1000)
    const today = r.daily.at(-1)
    expect(today.avg_response_ms).toBe(100)
    const threeDaysAgo = r.daily.at(-4)
    expect(threeDaysAgo.avg_response_ms).toBe(1000)
    expect(r.daily.at(-2).avg_response_ms).toBeNull()
    // A range that ends before B's checks: only A's are outside too, so nothing.
    const before = await report(`?from=2026-10-01&to=2026-10-28`)
    expect(before.avg_response_ms).toBeNull()
    // An older back-fill for A rewrites its running totals: 10 checks of 300 ms ten days ago.
    await checks(a, Array.from({ length: 10 }, (_, i) => ({ at: NOW - 10 * DAY - (i + 1) * 60_000, ms: 300 })))
    const month = await report('?range=30d')
    expect(month.components[0].avg_response_ms).toBe(Math.round((100 * 100 + 10 * 300) / 110))
    const week = await report('?range=7d')
    expect(week.components[0].avg_response_ms).toBe(100)
    const oldOnly = await report('?from=2026-10-22&to=2026-10-22')
    expect(oldOnly.avg_response_ms).toBe(300)
  })
})
