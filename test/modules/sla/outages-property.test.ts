import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { createComponent, importHistory, slug } from '../analytics/helpers.ts'

// The report's outage figures (the longest outage, short outages left out) come from the daily
// roll-ups plus the changes of the range's edges. Random histories imported in random batches
// (older after newer, so an import can cut a down span that started on an earlier day) must give
// exactly what a walk over the raw history gives, for ranges in the past and one that ends now.
let ctx: TestContext
const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)
const DAY = 86_400_000
const RANGES = [
  ['2026-09-01', '2026-10-31'],
  ['2026-10-03', '2026-10-03'],
  ['2026-10-10', '2026-10-20'],
  ['2026-10-15', '2026-11-01'],
  ['2026-08-01', '2026-11-30'],
] as const

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
})
afterAll(() => ctx.close())

type Entry = { status: string; at: number }

/** Each change lasts until the next one (or the end of what is known: now). */
function walk(history: Entry[], from: number, to: number, minMs: number) {
  const end = Math.min(to, NOW)
  let longestMs = 0
  let ignoredShort = 0
  history.forEach((entry, i) => {
    if (entry.status !== 'down') return
    const until = history[i + 1]?.at ?? null
    const length = (until ?? end) - entry.at
    const clipped = Math.min(until ?? end, end) - Math.max(entry.at, from)
    if (clipped <= 0) return
    if (length < minMs) {
      if (entry.at >= from) ignoredShort++
      return
    }
    longestMs = Math.max(longestMs, clipped)
  })
  return { longest_seconds: Math.round(longestMs / 1000), ignored_short: ignoredShort }
}

for (const minOutageSeconds of [0, 60]) {
  test(`longest and short outages equal a walk over the history (shortest counted outage ${minOutageSeconds} s)`, async () => {
    let seed = 7 + minOutageSeconds
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const { key } = await ctx.createOwner('enterprise')
    const page = await ctx.createPage(key, { slug: slug('sla-rnd'), name: 'Random outages' })
    const histories = new Map<number, Entry[]>()
    for (let n = 0; n < 4; n++) {
      const component = await createComponent(ctx, key, page.id, `C${n}`)
      const target = await ctx.request(`/user/api/v1/components/${component}/sla-target`, {
        method: 'PUT',
        key,
        json: { target_percent: 99.9, period: 'month', min_outage_seconds: minOutageSeconds },
      })
      expect(target.status).toBe(200)
      // Alternating statuses (a repeat would merge spans) over the 100 days before now: long
      // outages across midnights, and blips of 20–50 s after some of the down changes.
      const history: Entry[] = []
      let at = NOW - 100 * DAY
      let status = 'up'
      while (at < NOW - 60_000) {
        history.push({ status, at })
        const blip = status === 'down' && random() < 0.35
        at += blip ? 20_000 + Math.floor(random() * 30_000) : 60_000 * Math.floor(1 + random() * 4 * 24 * 60)
        status = status === 'down' ? (random() < 0.5 ? 'up' : 'degraded') : 'down'
      }
      histories.set(component, history)
      // Imported in shuffled batches of about ten.
      const batches: Entry[][] = []
      for (let i = 0; i < history.length; i += 10) batches.push(history.slice(i, i + 10))
      batches.sort(() => random() - 0.5)
      for (const batch of batches) await importHistory(ctx, key, component, batch.map((e) => ({ status: e.status, at: new Date(e.at).toISOString() })))
    }
    // And at the edges of the ranges: long outages running into 2026-10-10 and out of 2026-10-20.
    const edges = await createComponent(ctx, key, page.id, 'Edges')
    const edgeHistory: Entry[] = [
      ['up', '2026-07-01T00:00:00Z'],
      ['down', '2026-10-08T06:00:00Z'],
      ['up', '2026-10-12T06:00:00Z'],
      ['down', '2026-10-20T20:00:00Z'],
      ['up', '2026-10-24T20:00:00Z'],
    ].map(([status, at]) => ({ status: status!, at: Date.parse(at!) }))
    histories.set(edges, edgeHistory)
    await ctx.request(`/user/api/v1/components/${edges}/sla-target`, { method: 'PUT', key, json: { target_percent: 99.9, period: 'month', min_outage_seconds: minOutageSeconds } })
    await importHistory(ctx, key, edges, edgeHistory.map((e) => ({ status: e.status, at: new Date(e.at).toISOString() })))
    let longOutages = 0
    let shortOutages = 0
    for (const [from, to] of RANGES) {
      const fromMs = Date.parse(`${from}T00:00:00Z`)
      const toMs = Date.parse(`${to}T00:00:00Z`) + DAY
      const response = await ctx.request(`/user/api/v1/status-pages/${page.id}/sla?from=${from}&to=${to}`, { key })
      expect(response.status).toBe(200)
      const report = (await json(response)).data
      for (const [id, history] of histories) {
        const figures = report.components.find((c: { id: number }) => c.id === id).outages
        const expected = walk(history, fromMs, toMs, minOutageSeconds * 1000)
        expect({ range: `${from}..${to}`, id, longest_seconds: figures.longest_seconds, ignored_short: figures.ignored_short }).toEqual({ range: `${from}..${to}`, id, ...expected })
        if (expected.longest_seconds > DAY / 1000) longOutages++
        shortOutages += expected.ignored_short
      }
    }
    // The fixture did exercise outages longer than a day (spans across several daily rows).
    expect(longOutages).toBeGreaterThan(0)
    if (minOutageSeconds > 0) expect(shortOutages).toBeGreaterThan(0)
  })
}
