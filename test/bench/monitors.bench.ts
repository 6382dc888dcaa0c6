/**
 * `bun run bench monitors`: the monitor scheduler at scale, against local targets in another
 * process. Each load runs in its own process (fresh database, fresh heap), bounded in time:
 *   - 1,000 HTTPS monitors at 30 s (a new TLS handshake per check)
 *   - 10,000 HTTP monitors at 30 s
 * Reported: CPU of the scheduling process (% of one core, user + system, over the whole window),
 * schedule lateness p50/p99 after the first interval (and p99 within it, which includes the backlog
 * that came due during set-up), resident memory, results written and failed, and database growth
 * per day (raw results are kept a day, so about that much is the steady extra size).
 * BENCH_SECONDS (default 60) sets the measured window; MONITOR_BENCH=https:1000,http:10000 the loads.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { sql } from 'kysely'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createAddressGuard } from '../../src/lib/address-guard.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { MonitorScheduler } from '../../src/modules/monitors/run/scheduler.ts'
import { createServices } from '../../src/services.ts'
import { makeTestPki } from '../modules/monitors/fixtures.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60)
const INTERVAL = 30

async function child(kind: 'http' | 'https', count: number): Promise<void> {
  const pki = makeTestPki(['bench.test', '*.bench.test'], 30)
  const target = Bun.spawn([process.execPath, join(import.meta.dir, 'monitor-target.ts')], {
    env: { ...process.env, TARGET_CERT: pki.cert, TARGET_KEY: pki.key },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = target.stdout.getReader()
  const ports = JSON.parse(new TextDecoder().decode((await reader.read()).value)) as { http: number; https: number }
  const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-monitors-'))
  const path = join(dir, 'bench.sqlite')
  const database = openDatabase(path)
  try {
    await migrateToLatest(database.db)
    const config = loadConfig({ DATABASE_PATH: path, BASE_URL: 'http://bench.test', MONITOR_PRIVATE_TARGETS: '1' })
    // Every *.bench.test name is 127.0.0.1 (the certificate's names); nothing leaves the machine.
    const checkDeps = { guard: createAddressGuard({ resolve: async () => ['127.0.0.1'], allowPrivate: true }), clock: systemClock, trustedCa: pki.ca }
    const services = createServices({ db: database.db, config, checkDeps })
    const owner = await services.accounts.createUser({ email: 'bench@example.com', password: 'a-long-password', plan: 'enterprise' })
    const page = await services.pages.create(owner, { slug: 'bench', name: 'Bench' })
    const components = []
    for (let i = 0; i < 100; i++) components.push(await services.components.create(owner, page.id, { name: `C${i}` }))
    // 100 host names (all 127.0.0.1), as monitors of many services would be; the per-host cap applies per name.
    const url = (i: number) => (kind === 'https' ? `https://h${i % 100}.bench.test:${ports.https}/${i}` : `http://h${i % 100}.bench.test:${ports.http}/${i}`)
    const setupStart = performance.now()
    for (let i = 0; i < count; i++) {
      await services.monitors.create(owner, { name: `m${i}`, type: 'http', target: url(i), interval_seconds: INTERVAL, retries: 0, component_id: components[i % 100]!.id })
    }
    const setupSeconds = (performance.now() - setupStart) / 1000
    const scheduler = new MonitorScheduler({ repo: services.monitorsRepo, recorder: services.monitorRecorder, clock: systemClock, checkDeps, onError: (e) => console.error(e) })
    scheduler.recordLateness = true
    const dbBytes = async () => {
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db)
      const pages = await sql<{ page_count: number }>`PRAGMA page_count`.execute(database.db)
      const size = await sql<{ page_size: number }>`PRAGMA page_size`.execute(database.db)
      return pages.rows[0]!.page_count * size.rows[0]!.page_size
    }
    const sizeBefore = await dbBytes()
    Bun.gc(true)
    const cpuBefore = process.cpuUsage()
    const wallBefore = performance.now()
    scheduler.start()
    // The first interval also works off what came due while 10,000 monitors were being created;
    // steady-state lateness is measured after it.
    await Bun.sleep(INTERVAL * 1000)
    const firstInterval = [...scheduler.lateness].sort((a, b) => a - b)
    scheduler.lateness.length = 0
    await Bun.sleep(Math.max(0, SECONDS - INTERVAL) * 1000)
    const cpu = process.cpuUsage(cpuBefore)
    const wall = performance.now() - wallBefore
    const rss = process.memoryUsage().rss
    await scheduler.stop({ abandon: true })
    const counts = await database.db
      .selectFrom('monitor_results')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(eb.case().when('outcome', '=', 'fail').then(1).else(0).end()).as('failed'),
        eb.fn.avg<number>('response_ms').as('avg_ms'),
        eb.fn.max<number>('response_ms').as('max_ms'),
      ])
      .executeTakeFirstOrThrow()
    const sizeAfter = await dbBytes()
    const sorted = [...scheduler.lateness].sort((a, b) => a - b)
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0
    // Raw results are kept a day: steady state is about one day of growth (plus 2 days of minute buckets).
    const perDay = ((sizeAfter - sizeBefore) / (wall / 1000)) * 86_400
    console.log(
      JSON.stringify({
        load: `${count} ${kind.toUpperCase()} monitors @ ${INTERVAL} s`,
        seconds: Math.round(wall / 1000),
        setup_seconds: Math.round(setupSeconds),
        cpu_percent_of_one_core: Number((((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(2)),
        first_interval_lateness_p99_ms: firstInterval[Math.floor(firstInterval.length * 0.99)] ?? 0,
        lateness_p50_ms: pct(50),
        lateness_p99_ms: pct(99),
        runs_started: firstInterval.length + sorted.length,
        results_written: Number(counts.n),
        failed: Number(counts.failed ?? 0),
        response_ms_avg: Math.round(Number(counts.avg_ms ?? 0)),
        response_ms_max: Number(counts.max_ms ?? 0),
        rss_mb: Math.round(rss / 1024 / 1024),
        db_growth_mb_per_day: Math.round(perDay / 1024 / 1024),
      }),
    )
  } finally {
    await database.close()
    target.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}

const phase = process.env.MONITOR_BENCH_PHASE
if (phase) {
  const [kind, count] = phase.split(':') as ['http' | 'https', string]
  await child(kind, Number(count))
} else {
  const loads = (process.env.MONITOR_BENCH ?? 'https:1000,http:10000').split(',')
  for (const load of loads) {
    const proc = Bun.spawn([process.execPath, import.meta.path], { env: { ...process.env, MONITOR_BENCH_PHASE: load }, stdout: 'inherit', stderr: 'inherit' })
    if ((await proc.exited) !== 0) process.exit(1)
  }
}
