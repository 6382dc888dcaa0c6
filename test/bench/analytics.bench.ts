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
import { openDatabase } from '../../src/db/client.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { bucketOf, emptyHistogram, encode, addInto } from '../../src/modules/analytics/histogram.ts'
import { DAY_MS, dayOf, rollUp } from '../../src/modules/analytics/rollup.ts'
import { startServer } from '../../src/main.ts'
import { createServices } from '../../src/services.ts'
import { runWrk, tempDir } from './lib.ts'

const COMPONENTS = 50
const TOTAL_VIEWS = 10_000_000
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)

let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31

async function build(dir: string, days: number) {
  const path = `${dir}/analytics-${days}d.sqlite`
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: path })
  const handle = openDatabase(path)
  await migrateToLatest(handle.db)
  const services = createServices({ db: handle.db, config })
  const owner = await services.accounts.createUser({ email: 'bench@example.com', password: 'bench-password', plan: 'enterprise' })
  const { key } = await services.accounts.createApiKey(owner.id, 'bench')
  const page = await services.pages.create(owner, { slug: 'acme', name: 'Acme' })
  await handle.close()

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

async function measure(label: string, url: string, key: string) {
  // One connection: the latency of one request at a time, as a dashboard sees it.
  await runWrk(url, { seconds: 1, connections: 1, headers: { authorization: `Bearer ${key}` } })
  const result = await runWrk(url, { seconds: SECONDS, connections: 1, headers: { authorization: `Bearer ${key}` } })
  const meanMs = 1000 / result.rps
  console.log(`${label.padEnd(34)} mean ${meanMs.toFixed(2).padStart(6)} ms   p99 ${result.p99Ms.toFixed(2).padStart(6)} ms   ${result.rps.toFixed(0).padStart(6)} req/s`)
  return meanMs
}

const temp = tempDir()
try {
  const results: Record<string, number> = {}
  for (const days of [183, 730]) {
    const { config, key, pageId } = await build(temp.dir, days)
    const server = await startServer(config)
    try {
      const base = `http://127.0.0.1:${server.port}/api/analytics/status-pages/${pageId}`
      const check = await fetch(`${base}?range=365d`, { headers: { authorization: `Bearer ${key}` } })
      const body = (await check.json()) as { data: { views: number; components: unknown[]; p95_response_ms: number } }
      if (check.status !== 200 || body.data.components.length !== COMPONENTS) throw new Error(`unexpected answer ${check.status}`)
      const stored = days === 730 ? '2 years stored' : '6 months stored'
      results[`7d ${days}`] = await measure(`7d,   ${stored}`, `${base}?range=7d`, key)
      results[`365d ${days}`] = await measure(`365d, ${stored}`, `${base}?range=365d`, key)
    } finally {
      await server.stop()
    }
  }
  console.log(`\n365d / 7d (2 years stored): ${(results['365d 730']! / results['7d 730']!).toFixed(2)}x`)
  console.log(`365d: 2 years / 6 months stored: ${(results['365d 730']! / results['365d 183']!).toFixed(2)}x`)
  console.log(`7d:   2 years / 6 months stored: ${(results['7d 730']! / results['7d 183']!).toFixed(2)}x`)
} finally {
  temp.remove()
}
