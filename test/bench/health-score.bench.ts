/**
 * `bun run bench health-score`: the cost of the health score on the monitors list at scale —
 * 1,000 monitors with a full day of raw results each at 30 s (2.88 M rows, the retention's steady
 * state). Reported: the slowest list request while scores are stale (each recomputes at most
 * HEALTH_RECOMPUTES_PER_READ), how many requests it takes to score them all, and a fully cached
 * list. HEALTH_BENCH_MONITORS sets the count.
 */
import { benchServices } from './lib.ts'
import { sql } from 'kysely'

const COUNT = Number(process.env.HEALTH_BENCH_MONITORS ?? 1000)
const PER_DAY = 2880
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

const fixture = await benchServices(NOW)
try {
  const { services, clock } = fixture
  const owner = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: 'bench@example.com', password: 'a-long-password', plan: 'enterprise' }))
  for (let i = 0; i < COUNT; i++) await services.monitors.create(owner, { name: `m${i}`, type: 'http', target: `https://h${i}.example.com/`, interval_seconds: 30 })
  // A day of results per monitor, 1 in 50 failed, response times 50–249 ms.
  await sql`WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${PER_DAY - 1})
    INSERT INTO monitor_results (monitor_id, at, outcome, response_ms, status_code, attempts, message)
    SELECT m.id, ${NOW} - n.k * 30000, CASE WHEN (n.k + m.id) % 50 = 0 THEN 'fail' ELSE 'ok' END, 50 + (n.k * 7 + m.id) % 200, 200, 1, ''
    FROM monitors m, n`.execute(fixture.db)
  const time = async () => {
    const start = performance.now()
    const list = await services.monitors.list(owner)
    return { ms: performance.now() - start, scored: list.filter((m) => m.health !== null).length }
  }
  const fill = async () => {
    const times: number[] = []
    for (;;) {
      const r = await time()
      times.push(r.ms)
      if (r.scored === COUNT || times.length > COUNT) break
    }
    const sorted = [...times].sort((a, b) => a - b)
    return { slowest: sorted[sorted.length - 1]!, median: sorted[Math.floor(sorted.length / 2)]!, requests: times.length }
  }
  const first = await fill()
  const warm = await time()
  clock.advance(3_600_000)
  // Every score is stale again: the next requests refresh them a bounded batch at a time.
  let hourlySlowest = 0
  for (let i = 0; i < first.requests; i++) hourlySlowest = Math.max(hourlySlowest, (await time()).ms)
  console.log(
    `health score, ${COUNT} monitors × ${PER_DAY} results: stale lists median ${first.median.toFixed(0)} ms, slowest ${first.slowest.toFixed(0)} ms, all scored after ${first.requests} requests; ` +
      `cached list ${warm.ms.toFixed(1)} ms; an hour later slowest ${hourlySlowest.toFixed(0)} ms over the next ${first.requests} requests`,
  )
} finally {
  await fixture.close()
}
