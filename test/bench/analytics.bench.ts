/**
 * The analytics API (`GET /api/analytics/status-pages/:id`) for a page with 50 components, status
 * history, response-time roll-ups and ten million page views, on a listening Lantern driven by wrk.
 * Two databases: six months and two years of stored history. Printed: latency of the 7-day and
 * 365-day ranges on each. Aggregating as data is written (daily roll-ups with running totals) means
 * the 365-day answer costs a few times the 7-day one and does not grow with stored history.
 *
 * Data is generated fast and bounded: status changes are rolled up with the same pure function the
 * writer uses and bulk-inserted (history, daily roll-ups, cursors); views and response-time
 * histograms go straight into their aggregate tables.
 */
import { Database } from 'bun:sqlite'
import { loadConfig } from '../../src/config.ts'
import { bucketOf, emptyHistogram, encode, addInto } from '../../src/modules/analytics/histogram.ts'
import { dayOf, rollUp } from '../../src/modules/analytics/rollup.ts'
import { DAY_MS } from '../../src/lib/time.ts'
import { startServer } from '../../src/main.ts'
import { runWrk, seedDatabase, tempDir } from './lib.ts'

const COMPONENTS = 50
const TOTAL_VIEWS = 10_000_000
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)

let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31

async function build(dir: string, days: number) {
  const path = `${dir}/analytics-${days}d.sqlite`
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: path })
  const { key, page } = await seedDatabase(config, 'enterprise', async (services, owner) => ({
    key: (await services.accounts.createApiKey(owner.id, 'bench')).key,
    page: await services.pages.create(owner, { slug: 'acme', name: 'Acme' }),
  }))

  const started = performance.now()
  const db = new Database(path)
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF')
  const now = Date.now()
  const today = dayOf(now)
  const firstDay = today - days + 1
  const insertComponent = db.prepare('INSERT INTO components (page_id, name, type, status, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id')
  const insertHistory = db.prepare('INSERT INTO component_status_history (component_id, status, at) VALUES (?, ?, ?)')
  const insertDaily = db.prepare(
    'INSERT INTO component_status_daily (component_id, day, page_id, up_ms, degraded_ms, down_ms, outages, cum_up_ms, cum_degraded_ms, cum_down_ms, cum_outages) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const insertCursor = db.prepare('INSERT INTO component_status_cursor (component_id, page_id, first_day, status, since) VALUES (?, ?, ?, ?, ?)')
  const insertResponse = db.prepare(
    'INSERT INTO component_response_daily (component_id, day, n, sum_ms, hist, cum_n, cum_sum_ms, cum_hist) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const insertResponseCursor = db.prepare('INSERT INTO component_response_cursor (component_id, page_id, first_day, last_day) VALUES (?, ?, ?, ?)')
  const insertPageResponse = db.prepare('INSERT INTO page_response_daily (page_id, day, n, sum_ms, hist) VALUES (?, ?, ?, ?, ?)')
  const insertViews = db.prepare('INSERT INTO page_view_daily (page_id, day, views, uniques, incident_views, incident_uniques) VALUES (?, ?, ?, ?, ?, ?)')
  let historyRows = 0
  db.transaction(() => {
    const pageResponse = new Map<number, { n: number; sum: number; hist: Uint32Array }>()
    for (let c = 0; c < COMPONENTS; c++) {
      const { id } = insertComponent.get(page.id, `Component ${c}`, 'api', 'up', c, now, now) as { id: number }
      // A degraded spell or an outage (5 to 60 minutes) on about every third day, up otherwise.
      const entries: Array<{ status: 'up' | 'degraded' | 'down'; at: number }> = [{ status: 'up', at: firstDay * DAY_MS }]
      for (let day = firstDay; day <= today; day++) {
        const roll = random()
        if (roll < 0.3) {
          const at = day * DAY_MS + Math.floor(random() * 20) * 3_600_000 + 60_000
          if (at >= now - 3_600_000) continue
          entries.push({ status: roll < 0.05 ? 'down' : 'degraded', at }, { status: 'up', at: at + (5 + Math.floor(random() * 55)) * 60_000 })
        }
      }
      for (const entry of entries) insertHistory.run(id, entry.status, entry.at)
      historyRows += entries.length
      const rows = rollUp({ startDay: firstDay, before: undefined, cum: { up_ms: 0, degraded_ms: 0, down_ms: 0, outages: 0 }, entries })
      for (const r of rows) insertDaily.run(id, r.day, page.id, r.up_ms, r.degraded_ms, r.down_ms, r.outages, r.cum_up_ms, r.cum_degraded_ms, r.cum_down_ms, r.cum_outages)
      const last = entries[entries.length - 1]!
      insertCursor.run(id, page.id, rows[0]!.day, last.status, last.at)
      // One check a minute, response times around a per-component mean.
      const cum = { n: 0, sum: 0, hist: emptyHistogram() }
      const mean = 80 + c * 7
      for (let day = firstDay; day <= today; day++) {
        const hist = emptyHistogram()
        let sum = 0
        for (const [share, factor] of [[0.5, 0.8], [0.3, 1], [0.15, 1.5], [0.05, 4]] as const) {
          const count = Math.round(1440 * share)
          hist[bucketOf(mean * factor)]! += count
          sum += count * Math.round(mean * factor)
        }
        cum.n += 1440
        cum.sum += sum
        addInto(cum.hist, hist)
        insertResponse.run(id, day, 1440, sum, encode(hist), cum.n, cum.sum, encode(cum.hist))
        const p = pageResponse.get(day) ?? { n: 0, sum: 0, hist: emptyHistogram() }
        p.n += 1440
        p.sum += sum
        addInto(p.hist, hist)
        pageResponse.set(day, p)
      }
      insertResponseCursor.run(id, page.id, firstDay, today)
    }
    for (const [day, p] of pageResponse) insertPageResponse.run(page.id, day, p.n, p.sum, encode(p.hist))
    // Ten million page views over the stored days.
    const perDay = Math.floor(TOTAL_VIEWS / days)
    for (let day = firstDay; day <= today; day++) {
      const views = day === today ? TOTAL_VIEWS - perDay * (days - 1) : perDay
      insertViews.run(page.id, day, views, Math.round(views * 0.3), Math.round(views * 0.02), Math.round(views * 0.01))
    }
  })()
  db.close()
  console.log(
    `generated ${days} days: ${COMPONENTS} components, ${historyRows.toLocaleString('en')} status changes, ${TOTAL_VIEWS.toLocaleString('en')} page views in ${Math.round(performance.now() - started)} ms`,
  )
  return { config, key, pageId: page.id }
}

/** Mean latency of one request at a time (one connection), from wrk's requests/s. */
async function latency(url: string, key: string, seconds: number): Promise<{ meanMs: number; p99Ms: number }> {
  const result = await runWrk(url, { seconds, connections: 1, headers: { authorization: `Bearer ${key}` } })
  return { meanMs: 1000 / result.rps, p99Ms: result.p99Ms }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const temp = tempDir()
const servers: Array<Awaited<ReturnType<typeof startServer>>> = []
try {
  const stores: Array<{ label: string; base: string; key: string }> = []
  for (const days of [183, 730]) {
    const { config, key, pageId } = await build(temp.dir, days)
    const server = await startServer(config)
    servers.push(server)
    const base = `http://127.0.0.1:${server.port}/api/analytics/status-pages/${pageId}`
    const check = await fetch(`${base}?range=365d`, { headers: { authorization: `Bearer ${key}` } })
    const body = (await check.json()) as { data: { components: unknown[] } }
    if (check.status !== 200 || body.data.components.length !== COMPONENTS) throw new Error(`unexpected answer ${check.status}`)
    stores.push({ label: days === 730 ? '2 years stored' : '6 months stored', base, key })
  }
  const ranges = ['7d', '90d', '365d']
  const samples = new Map<string, number[]>()
  const p99s = new Map<string, number[]>()
  // Warm-up, then rounds that alternate every combination, so machine noise hits all alike.
  for (const store of stores) for (const range of ranges) await latency(`${store.base}?range=${range}`, store.key, 1)
  for (let round = 0; round < ROUNDS; round++) {
    for (const range of ranges) {
      for (const store of stores) {
        const name = `${range} ${store.label}`
        const { meanMs, p99Ms } = await latency(`${store.base}?range=${range}`, store.key, SECONDS)
        samples.set(name, [...(samples.get(name) ?? []), meanMs])
        p99s.set(name, [...(p99s.get(name) ?? []), p99Ms])
      }
    }
  }
  console.log(`\nmedian of ${ROUNDS} rounds, one request at a time:`)
  for (const [name, values] of samples) {
    console.log(`${name.padEnd(26)} mean ${median(values).toFixed(2).padStart(6)} ms   p99 ${median(p99s.get(name)!).toFixed(2).padStart(7)} ms`)
  }
  const m = (range: string, store: string) => median(samples.get(`${range} ${store}`)!)
  console.log(`\n365d / 7d, 2 years stored:          ${(m('365d', '2 years stored') / m('7d', '2 years stored')).toFixed(2)}x`)
  console.log(`7d:  2 years / 6 months stored:     ${(m('7d', '2 years stored') / m('7d', '6 months stored')).toFixed(2)}x`)
  console.log(`90d: 2 years / 6 months stored:     ${(m('90d', '2 years stored') / m('90d', '6 months stored')).toFixed(2)}x`)
  console.log(`365d: 2 years / 6 months stored:    ${(m('365d', '2 years stored') / m('365d', '6 months stored')).toFixed(2)}x (6 months hold only 183 of the 365 days)`)
} finally {
  for (const server of servers) await server.stop()
  temp.remove()
}
