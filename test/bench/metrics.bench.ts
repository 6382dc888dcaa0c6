/**
 * `bun run bench metrics`: how long a Prometheus scrape of `/metrics` takes with 10,000 monitors
 * (the issue asks ≤ 50 ms). The server runs in its own process on a seeded database; every monitor
 * has run once against local targets (state, results, durations and last success populated) before
 * the scrapes start, and the next runs are minutes away. Reported per scrape: wall time as the
 * scraper sees it (body read), the server's CPU time, and the size; then the same server started with
 * METRICS_MONITOR_SERIES=off on the same database, for the share of the per-monitor series.
 * BENCH_MONITORS (default 10000) and BENCH_SCRAPES (default 30) change the load.
 */
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { median, seedDatabase, startServerProcess, tempDir, untilEveryMonitorRan, type ServerProcess } from './lib.ts'

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000)
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 30)
const TOKEN = 'bench-metrics-token-0123456789abcdef'
const INTERVAL_S = 600
const LOOPBACKS = 100

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
    await report('per-monitor series on', server)
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

async function report(name: string, server: ServerProcess): Promise<void> {
  const scrape = async () => {
    const started = performance.now()
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`)
    return { ms: performance.now() - started, bytes: text.length, lines: text.split('\n').length - 1 }
  }
  // Warm: the first scrape also looks up last successes and JITs the writer.
  for (let i = 0; i < 3; i++) await scrape()
  const cpuBefore = server.cpuSeconds()
  const runs = []
  for (let i = 0; i < SCRAPES; i++) runs.push(await scrape())
  const cpuMs = ((server.cpuSeconds() - cpuBefore) * 1000) / SCRAPES
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b)
  console.log(
    `${name}: median ${median(sorted).toFixed(1)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(1)} ms, min ${sorted[0]!.toFixed(1)} ms; ` +
      `server CPU ${cpuMs.toFixed(1)} ms per scrape; ${(runs[0]!.bytes / 1e6).toFixed(1)} MB, ${runs[0]!.lines.toLocaleString('en')} lines`,
  )
}
