/**
 * `bun run bench monitors`: what a monitor check costs the whole server, as a user runs it. The
 * server is `bun src/main.ts` in its own process (HTTP, jobs, scheduler, recorder: everything), on
 * a database seeded beforehand; the targets are another process that logs when each request
 * arrives. Loads, each on a fresh database and server, bounded in time:
 *   - 1,000 HTTPS monitors at 30 s (a new TLS handshake per check)
 *   - 10,000 HTTP monitors at 30 s
 * Every monitor's first run is put on a grid starting a few seconds after the server starts
 * (phase-spread over the interval as the API spreads it), so the window measures the steady state.
 * Printed per load, over the window:
 *   - the server's CPU (utime + stime from /proc/<pid>/stat): % of one core, and ms per check;
 *   - bytes written per check: /proc/<pid>/io write_bytes (what reached the disk's layer) and wchar
 *     (every write call), and the database's logical growth (pages in use, WAL included);
 *   - lateness p50/p99: when the target saw each request against the run's place on the grid;
 *   - RSS, and database growth per day (raw results are kept a day: about the steady extra size).
 * BENCH_SECONDS (default 60) sets the window; MONITOR_BENCH=https:1000,http:10000 the loads;
 * BENCH_SERVER_FLAGS flags for the server's `bun` (e.g. `--cpu-prof-md --cpu-prof-dir=/tmp/prof`).
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { loadConfig } from '../../src/config.ts'
import { phaseOffsetMs } from '../../src/modules/monitors/service.ts'
import { makeTestPki } from '../modules/monitors/fixtures.ts'
import { seedDatabase, startServerProcess, tempDir } from './lib.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60)
const INTERVAL_MS = 30_000
const HOSTS = 100
/** Time the server gets to start before the first runs fall due. */
const LEAD_MS = 8_000

const procFields = (pid: number) => {
  const io = Object.fromEntries(
    readFileSync(`/proc/${pid}/io`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(': ') as [string, string])
      .map(([name, value]) => [name, Number(value)]),
  )
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  return { writeBytes: io.write_bytes as number, wchar: io.wchar as number, rssKb }
}

/** Pages in use (WAL included, as a reader sees the database) and the files' sizes. */
const dbFigures = (path: string) => {
  const reader = new Database(path, { readonly: true })
  try {
    const one = (pragma: string) => Object.values(reader.query(`PRAGMA ${pragma}`).get() as Record<string, number>)[0]!
    const used = (one('page_count') - one('freelist_count')) * one('page_size')
    const size = (file: string) => {
      try {
        return statSync(file).size
      } catch {
        return 0
      }
    }
    return { used, files: size(path) + size(`${path}-wal`) }
  } finally {
    reader.close()
  }
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0

async function load(kind: 'http' | 'https', count: number, pki: ReturnType<typeof makeTestPki>, caFile: string) {
  const target = Bun.spawn([process.execPath, join(import.meta.dir, 'monitor-target.ts')], {
    env: { ...process.env, TARGET_CERT: pki.cert, TARGET_KEY: pki.key, TARGET_LOOPBACKS: String(HOSTS), TARGET_LOG: '1' },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = target.stdout.getReader()
  const ports = JSON.parse(new TextDecoder().decode((await reader.read()).value)) as {
    http: number
    loopbacks: Array<{ host: string; port: number; https_port: number }>
  }
  const temp = tempDir()
  const path = join(temp.dir, 'bench.sqlite')
  const env = { DATABASE_PATH: path, BASE_URL: 'http://bench.test', MONITOR_PRIVATE_TARGETS: '1' }
  const config = loadConfig(env)
  try {
    // The monitors: one through the API's service (a real row), the rest copies of it, each with
    // its own target path and host, component, and first run on the grid.
    const grid = new Map<number, number>()
    const start = Date.now() + LEAD_MS
    await seedDatabase(config, 'enterprise', async (services, owner) => {
      const page = await services.pages.create(owner, { slug: 'bench', name: 'Bench' })
      const components = []
      for (let i = 0; i < 100; i++) components.push(await services.components.create(owner, page.id, { name: `C${i}` }))
      const url = (i: number) => {
        const host = ports.loopbacks[i % HOSTS]!
        return kind === 'https' ? `https://${host.host}:${host.https_port}/${i}` : `http://${host.host}:${host.port}/${i}`
      }
      const { monitor: first } = await services.monitors.create(owner, { name: 'm0', type: 'http', target: url(0), interval_seconds: INTERVAL_MS / 1000, retries: 0, component_id: components[0]!.id })
      const db = services.monitorsRepo.db
      const row = await db.selectFrom('monitors').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow()
      const { id: _id, ...copy } = row
      for (let from = 1; from < count; from += 500) {
        const rows = []
        for (let i = from; i < Math.min(count, from + 500); i++) rows.push({ ...copy, name: `m${i}`, target: url(i), component_id: components[i % 100]!.id })
        await db.insertInto('monitors').values(rows).execute()
      }
      // Targets name the monitor's id, so the target's log says which run it saw.
      const ids = await db.selectFrom('monitors').select(['id', 'target']).execute()
      for (const { id, target } of ids) {
        const at = start + phaseOffsetMs(id, INTERVAL_MS)
        grid.set(id, at)
        await db.updateTable('monitors').set({ next_run_at: at, target: target!.replace(/\/\d+$/, `/${id}`) }).where('id', '=', id).execute()
      }
    })
    const caEnv: Record<string, string> = kind === 'https' ? { NODE_EXTRA_CA_CERTS: caFile } : {}
    const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)
    const server = await startServerProcess({ ...env, ...caEnv }, flags)
    try {
      await Bun.sleep(Math.max(0, start - Date.now()))
      await fetch(`http://127.0.0.1:${ports.http}/__arrivals`).then((r) => r.json())
      const cpu0 = server.cpuSeconds()
      const io0 = procFields(server.pid)
      const db0 = dbFigures(path)
      const wall0 = performance.now()
      await Bun.sleep(SECONDS * 1000)
      const cpu = server.cpuSeconds() - cpu0
      const io1 = procFields(server.pid)
      const db1 = dbFigures(path)
      const wall = (performance.now() - wall0) / 1000
      const arrivals = (await fetch(`http://127.0.0.1:${ports.http}/__arrivals`).then((r) => r.json())) as Array<[number, number]>
      const lateness = arrivals
        .map(([id, at]) => {
          const first = grid.get(id)!
          return first === undefined || at < first ? Number.NaN : (at - first) % INTERVAL_MS
        })
        .filter((ms) => Number.isFinite(ms))
        .sort((a, b) => a - b)
      const checks = arrivals.length
      const perCheck = (bytes: number) => Math.round(bytes / Math.max(1, checks))
      const figures = {
        load: `${count} ${kind.toUpperCase()} monitors @ ${INTERVAL_MS / 1000} s`,
        seconds: Math.round(wall),
        checks,
        checks_expected: Math.round((count * wall * 1000) / INTERVAL_MS),
        cpu_percent_of_one_core: Number(((cpu / wall) * 100).toFixed(2)),
        cpu_ms_per_check: Number(((cpu * 1000) / Math.max(1, checks)).toFixed(3)),
        disk_write_bytes_per_check: perCheck(io1.writeBytes - io0.writeBytes),
        write_calls_bytes_per_check: perCheck(io1.wchar - io0.wchar),
        db_used_bytes_per_check: perCheck(db1.used - db0.used),
        db_files_bytes_per_check: perCheck(db1.files - db0.files),
        lateness_p50_ms: percentile(lateness, 50),
        lateness_p99_ms: percentile(lateness, 99),
        rss_mb: Math.round(io1.rssKb / 1024),
        db_growth_mb_per_day: Math.round((((db1.used - db0.used) / wall) * 86_400) / 1024 / 1024),
        load_average: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      }
      console.log(JSON.stringify(figures))
    } finally {
      await server.stop()
    }
  } finally {
    target.kill()
    await target.exited
    temp.remove()
  }
}

const loads = (process.env.MONITOR_BENCH ?? 'https:1000,http:10000').split(',')
const pki = makeTestPki(
  Array.from({ length: HOSTS }, (_, i) => `127.0.1.${i + 1}`),
  30,
)
const caDir = tempDir()
const caFile = join(caDir.dir, 'ca.pem')
await Bun.write(caFile, pki.ca)
try {
  for (const entry of loads) {
    const [kind, count] = entry.split(':') as ['http' | 'https', string]
    await load(kind, Number(count), pki, caFile)
  }
} finally {
  caDir.remove()
}
