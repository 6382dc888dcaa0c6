/**
 * `bun run bench probe-ingest`: one POST of 500 probe results (issue 17, item 3) through the real
 * app over loopback HTTP, on a real SQLite file (or PostgreSQL with DATABASE_URL): token check,
 * validation, then the MonitorRecorder's one transaction (per-region state, the k-of-n aggregate,
 * raw results, component checks). 500 monitors in ["local", "eu"], 50 of them on components.
 * Printed: the median and p90 of PROBE_BENCH_ROUNDS rounds (default 15) after 3 warm-up rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { openConfiguredDatabase } from '../../src/db/open.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { ManualClock } from '../helpers/clock.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { median } from './lib.ts'

const ROUNDS = Number(process.env.PROBE_BENCH_ROUNDS ?? 15)
const MONITORS = 500
const NOW = Date.UTC(2026, 10, 5, 12, 0, 0)

const dir = mkdtempSync(join(tmpdir(), 'lantern-probe-bench-'))
const config = loadConfig({ DATABASE_PATH: join(dir, 'bench.sqlite'), BASE_URL: 'http://bench.test', RATE_LIMIT: '0', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) })
const database = openConfiguredDatabase(config)
try {
  await migrateToLatest(database.db)
  const clock = new ManualClock(NOW)
  const app = createApp({ db: database.db, config, clock, passwords: fastTestHasher, logError: (error) => console.error(error) })
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => app.handle(new Request(`${config.baseUrl}${new URL(request.url).pathname}`, request)) })
  const s = app.services
  const owner = await s.accounts.personalTeamOwner(await s.accounts.createUser({ email: 'bench@example.com', password: 'a-long-password', plan: 'enterprise' }))
  const page = await s.pages.create(owner, { slug: 'probe-bench', name: 'Probe bench' })
  const token = (await s.probes.createToken('eu')).token
  const ids: number[] = []
  for (let i = 0; i < MONITORS; i++) {
    const componentId = i < 50 ? (await s.components.create(owner, page.id, { name: `C${i}` })).id : undefined
    const { monitor } = await s.monitors.create(owner, { name: `m${i}`, type: 'http', target: `https://example.com/${i}`, regions: ['local', 'eu'], ...(componentId ? { component_id: componentId } : {}) })
    ids.push(monitor.id)
  }
  const times: number[] = []
  for (let round = 0; round < ROUNDS + 3; round++) {
    clock.advance(60_000)
    const at = new Date(clock.now() - 1000).toISOString()
    const body = JSON.stringify({
      results: ids.map((id, i) => ({ monitor_id: id, scheduled_at: at, result: { outcome: (i + round) % 7 === 0 ? 'fail' : 'ok', response_ms: (i + round) % 7 === 0 ? null : 40 + (i % 30), status_code: 200, attempts: 1, message: 'HTTP 200' } })),
    })
    const started = performance.now()
    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/probe/results`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body })
    const answer = (await response.json()) as { data: { accepted: number } }
    const ms = performance.now() - started
    if (answer.data?.accepted !== MONITORS) throw new Error(`round ${round}: ${JSON.stringify(answer).slice(0, 300)}`)
    if (round >= 3) times.push(ms)
  }
  const sorted = [...times].sort((a, b) => a - b)
  const engine = config.databaseUrl ? 'PostgreSQL' : 'SQLite'
  console.log(`probe results ingest (${engine}): one POST of ${MONITORS} results, median ${median(times).toFixed(1)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(1)} ms over ${ROUNDS} rounds`)
  await server.stop(true)
  await app.services.outboxWorker.stop(0)
} finally {
  await database.close()
  rmSync(dir, { recursive: true, force: true })
}
