import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { createComponent, importHistory, slug } from './helpers.ts'

// Random histories written in random batches (older imports after newer ones, live changes in
// between) must give exactly what a brute-force walk over the raw history gives.
let ctx: TestContext
const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)
const DAY = 86_400_000

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
})
afterAll(() => ctx.close())

function bruteForce(history: Array<{ status: string; at: number }>, from: number, to: number) {
  const sorted = [...history].sort((x, y) => x.at - y.at)
  const totals: Record<string, number> = { up: 0, degraded: 0, down: 0 }
  let outages = 0
  sorted.forEach((entry, i) => {
    const end = i + 1 < sorted.length ? sorted[i + 1]!.at : NOW
    const s = Math.max(entry.at, from)
    const e = Math.min(end, to)
    if (e > s) totals[entry.status]! += e - s
    const previous = sorted[i - 1]?.status
    if (entry.status === 'down' && previous !== 'down' && entry.at >= from && entry.at < to) outages++
  })
  return { up_s: Math.round(totals.up! / 1000), degraded_s: Math.round(totals.degraded! / 1000), down_s: Math.round(totals.down! / 1000), incidents: outages }
}

test('roll-ups equal a brute-force walk over the history', async () => {
  let seed = 42
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const { key } = await ctx.createOwner()
  const page = await ctx.createPage(key, { slug: slug('rnd'), name: 'Random' })
  for (let round = 0; round < 3; round++) {
    const component = await createComponent(ctx, key, page.id, `C${round}`)
    const history: Array<{ status: string; at: number }> = [{ status: 'up', at: NOW }]
    const statuses = ['up', 'degraded', 'down']
    const used = new Set([NOW])
    for (let batch = 0; batch < 4; batch++) {
      const entries: Array<{ status: string; at: string }> = []
      for (let i = 0; i < 15; i++) {
        const at = NOW - Math.floor(random() * 60 * DAY / 60_000) * 60_000 - 60_000
        if (used.has(at)) continue
        used.add(at)
        const status = statuses[Math.floor(random() * 3)]!
        history.push({ status, at })
        entries.push({ status, at: new Date(at).toISOString() })
      }
      await importHistory(ctx, key, component, entries)
    }
    for (const [from, to] of [
      ['2026-09-01', '2026-11-01'],
      ['2026-10-03', '2026-10-03'],
      ['2026-10-10', '2026-10-20'],
    ] as const) {
      const fromMs = Date.parse(`${from}T00:00:00Z`)
      const toMs = Math.min(NOW, Date.parse(`${to}T00:00:00Z`) + DAY)
      const response = await ctx.request(`/api/analytics/status-pages/${page.id}?from=${from}&to=${to}`, { key })
      const report = (await json(response)).data
      const figures = report.components.find((c: any) => c.id === component)
      const expected = bruteForce(history, fromMs, toMs)
      expect({ up_s: figures.up_s, degraded_s: figures.degraded_s, down_s: figures.down_s, incidents: figures.incidents }).toEqual(expected)
      // The page's daily series adds up to the same totals.
      const sumDown = report.daily.reduce((sum: number, d: any) => sum + d.down_s, 0)
      expect(sumDown).toBe(report.down_s)
    }
  }
})
