/**
 * `bun run bench metrics`: how long a Prometheus scrape of `/metrics` takes with 10,000 monitors
 * (the issue asks ≤ 50 ms). The server runs in its own process on a seeded database; every monitor
 * has run once against local targets (state, results, durations and last success populated) before
 * the scrapes start, and the next runs are minutes away. Two kinds of scrape: none changed (no monitor
 * ran between two scrapes: every monitor's lines can be copied from the previous scrape), and all
 * changed (before each scrape this process stores a new state and last check time for every monitor,
 * as another worker's runs would: the server must read them and write those lines anew; the update is
 * not timed). Reported per kind: wall time as the scraper sees it (body read: median, p95, min), the
 * server's CPU time, and the size; then the same server started with METRICS_MONITOR_SERIES=off on the
 * same database, for the share of the per-monitor series.
 * BENCH_MONITORS (default 10000) and BENCH_SCRAPES (default 30) change the load.
 */
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/client.ts'
import { median, seedDatabase, startServerProcess, tempDir, untilEveryMonitorRan, type ServerProcess } from './lib.ts'

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000)
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 30)
const TOKEN = 'bench-metrics-token-0123456789abcdef'
const INTERVAL_S = 600
const LOOPBACKS = 100
/** Updates stored by storeNewStates so far. */
let round = 0

const temp = tempDir()
const path = join(temp.dir, 'bench.sqlite')
const env = { DATABASE_PATH: path, BASE_URL: 'http://bench.test', METRICS_TOKEN: TOKEN, MONITOR_PRIVATE_TARGETS: '1' }

const target = Bun.spawn([process.execPath, join(import.meta.dir, 'monitor-target.ts')], { env: { ...process.env, TARGET_LOOPBACKS: String(LOOPBACKS) }, stdout: 'pipe', stderr: 'inherit' })
const { loopbacks } = JSON.parse(new TextDecoder().decode((await target.stdout.getReader().read()).value)) as { loopbacks: Array<{ host: string; port: number }> }

try {
  // One monitor through the service, the rest as copies of its row: all due within the next 10 seconds.
  const setupStart = performance.now()
  await seedDatabase(loadConfig(env), 'enterprise', async (services, owner) => {
    const url = (i: number) => `http://${loopbacks[i % LOOPBACKS]!.host}:${loopbacks[i % LOOPBACKS]!.port}/${i}`
    const { monitor } = await services.monitors.create(owner, { name: 'm0', type: 'http', target: url(0), interval_seconds: INTERVAL_S, retries: 0 })
    const db = services.monitorsRepo.db
    const { id: _, ...template } = await db.selectFrom('monitors').selectAll().where('id', '=', monitor.id).executeTakeFirstOrThrow()
    const now = Date.now()
    const rows = Array.from({ length: MONITORS }, (_, i) => ({ ...template, name: `m${i}`, target: url(i), next_run_at: now + (i % 10_000) }))
    await db.deleteFrom('monitors').execute()
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('monitors').values(rows.slice(i, i + 500)).execute()
  })
  console.log(`\n## /metrics with ${MONITORS.toLocaleString('en')} monitors (seeded in ${((performance.now() - setupStart) / 1000).toFixed(0)} s)`)

  const server = await startServerProcess(env)
  try {
    const waitStart = performance.now()
    await untilEveryMonitorRan(path)
    console.log(`every monitor ran once after ${((performance.now() - waitStart) / 1000).toFixed(0)} s`)
    await report('per-monitor series on, none changed', server)
    await report('per-monitor series on, all changed', server, storeNewStates)
  } finally {
    await server.stop()
  }
  const off = await startServerProcess({ ...env, METRICS_MONITOR_SERIES: 'off' })
  try {
    await report('METRICS_MONITOR_SERIES=off (baseline)', off)
  } finally {
    await off.stop()
  }
} finally {
  target.kill()
  temp.remove()
}

/** Every monitor gets the other of two states and a later last check, as a run in another process stores them. */
async function storeNewStates(): Promise<void> {
  round++
  const writer = openDatabase(path)
  try {
    await writer.db
      .updateTable('monitors')
      .set((eb) => ({ state: round % 2 === 1 ? 'down' : 'up', last_check_at: eb('last_check_at', '+', 1000) }))
      .execute()
  } finally {
    await writer.close()
  }
}

async function report(name: string, server: ServerProcess, beforeEach?: () => Promise<void>): Promise<void> {
  const scrape = async () => {
    const started = performance.now()
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`)
    return { ms: performance.now() - started, bytes: text.length, lines: text.split('\n').length - 1 }
  }
  // Warm: the first scrape also looks up last successes and JITs the writer.
  for (let i = 0; i < 3; i++) {
    await beforeEach?.()
    await scrape()
  }
  // Server CPU counted over the scrapes only (the updates' own work is in this process, not the server's).
  let cpuSeconds = 0
  const runs = []
  for (let i = 0; i < SCRAPES; i++) {
    await beforeEach?.()
    const cpuBefore = server.cpuSeconds()
    runs.push(await scrape())
    cpuSeconds += server.cpuSeconds() - cpuBefore
  }
  const cpuMs = (cpuSeconds * 1000) / SCRAPES
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b)
  console.log(
    `${name}: median ${median(sorted).toFixed(1)} ms, p95 ${sorted[Math.ceil(sorted.length * 0.95) - 1]!.toFixed(1)} ms, min ${sorted[0]!.toFixed(1)} ms; ` +
      `server CPU ${cpuMs.toFixed(1)} ms per scrape; ${(runs[0]!.bytes / 1e6).toFixed(1)} MB, ${runs[0]!.lines.toLocaleString('en')} lines`,
  )
}
