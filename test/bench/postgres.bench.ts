/**
 * `bun run bench postgres` (issue 17): the PostgreSQL build beside the SQLite build, in one run.
 *
 * - Warm public reads (badge, status JSON, public page) on a server over PostgreSQL against the same
 *   reads on a server over SQLite, alternating: the hot path is the cache, so the target is ≥ 0.9.
 * - Cold status JSON and page render (public cache off) side by side: what a miss costs per engine.
 * - Cross-server invalidation: two app servers on one PostgreSQL database; an edit through one, then
 *   the other's cached badge polled until it changes; p50 and p99 over 200 edits (target p99 ≤ 50 ms).
 *
 * PostgreSQL: BENCH_POSTGRES=postgres://user@host:port (a server it may create databases on), or, when
 * unset, a throwaway one started with `.ci/postgres` (needs Debian's postgresql package).
 */
import { join } from 'node:path'
import { sql } from 'kysely'
import { loadConfig } from '../../src/config.ts'
import { openPostgres } from '../../src/db/postgres.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { alternate, median, seedDatabase, seedHistoryPage, tempDir, type Pair } from './lib.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1)
const EDITS = 200
const SLUG = 'acme'
const STATUS_DOMAIN = 'status.example.com'

const ci = join(import.meta.dir, '../../.ci/postgres')
let started: { dir: string } | undefined
let server = process.env.BENCH_POSTGRES?.replace(/\/+$/, '')
if (!server) {
  const out = Bun.spawnSync([ci], { stderr: 'inherit' }).stdout.toString().trim().split(' ')
  if (out.length !== 2) throw new Error('bench: could not start PostgreSQL (set BENCH_POSTGRES or install postgresql)')
  started = { dir: out[0]! }
  server = out[1]!
}
const database = `lantern_bench_${process.pid}`
const admin = openPostgres(`${server}/postgres`, { max: 1 })
await sql`CREATE DATABASE ${sql.id(database)}`.execute(admin.db)

const temp = tempDir()
const common = { PORT: '0', HOST: '127.0.0.1', BASE_URL: 'https://lantern.example.com', STATUS_DOMAIN }
const sqliteConfig = loadConfig({ ...common, DATABASE_PATH: `${temp.dir}/bench.sqlite` })
const postgresConfig = loadConfig({ ...common, DATABASE_URL: `${server}/${database}` })

let componentId = 0
let key = ''
for (const config of [sqliteConfig, postgresConfig]) {
  await seedDatabase(config, 'business', async (services, owner) => {
    const { page, components } = await seedHistoryPage(services, owner, { slug: SLUG, name: 'Acme', days: 90 })
    const now = Date.now()
    for (const component of components) {
      const checks = Array.from({ length: 120 }, (_, i) => ({ at: new Date(now - i * 60_000).toISOString(), ok: true, response_ms: 80 + ((i * 7) % 40) }))
      await services.checks.ingest(owner, component.id, checks)
    }
    await services.incidents.create(owner, { status_page_id: page.id, component_ids: [components[0]!.id], title: 'Elevated error rates', message: 'Looking into it' })
    componentId = components[1]!.id
    key = (await services.accounts.createApiKey(owner.id, 'bench')).key
  })
}
const servers: RunningServer[] = []
const start = async (config: typeof sqliteConfig, publicCache = true) => {
  const running = await startServer(config, { publicCache, monitors: false })
  servers.push(running)
  return running
}
try {
  const sqliteWarm = await start(sqliteConfig)
  const postgresWarm = await start(postgresConfig)
  const sqliteCold = await start(sqliteConfig, false)
  const postgresCold = await start(postgresConfig, false)
  const url = (s: RunningServer, path: string) => `http://127.0.0.1:${s.port}${path}`
  const page = { Host: `${SLUG}.${STATUS_DOMAIN}` }
  const options = (headers?: Record<string, string>) => ({ seconds: SECONDS, connections: 32, headers })
  const pairs: Pair[] = [
    { name: 'warm badge', subjectUrl: url(postgresWarm, `/badge/${SLUG}.svg`), baselineUrl: url(sqliteWarm, `/badge/${SLUG}.svg`), target: 0.9, options: options() },
    { name: 'warm status JSON', subjectUrl: url(postgresWarm, `/api/embed/status?slug=${SLUG}&inc=1&rtm=60&upd=7`), baselineUrl: url(sqliteWarm, `/api/embed/status?slug=${SLUG}&inc=1&rtm=60&upd=7`), target: 0.9, options: options() },
    { name: 'warm public page', subjectUrl: url(postgresWarm, '/'), baselineUrl: url(sqliteWarm, '/'), target: 0.9, options: options(page) },
    { name: 'cold status JSON', subjectUrl: url(postgresCold, `/api/embed/status?slug=${SLUG}&inc=1&rtm=60&upd=7`), baselineUrl: url(sqliteCold, `/api/embed/status?slug=${SLUG}&inc=1&rtm=60&upd=7`), options: options() },
    { name: 'cold public page', subjectUrl: url(postgresCold, '/'), baselineUrl: url(sqliteCold, '/'), options: options(page) },
  ]
  console.log(`${ROUNDS} rounds, PostgreSQL then SQLite, ${SECONDS} s each`)
  const results = await alternate(pairs, {
    rounds: ROUNDS,
    onRound: (pair, round, r) => console.log(`round ${round}  ${pair.name.padEnd(18)} ${r.subject.rps.toFixed(0).padStart(7)} / ${r.baseline.rps.toFixed(0).padStart(7)} r/s = ${r.ratio.toFixed(2)}`),
  })
  console.log(`\n## PostgreSQL beside SQLite: medians of ${ROUNDS} rounds`)
  console.log(`${'read'.padEnd(18)} ${'PG r/s'.padStart(8)} ${'SQLite r/s'.padStart(10)} ${'PG p99'.padStart(9)} ${'SQLite p99'.padStart(10)}  ratio  target`)
  for (const r of results) {
    const verdict = r.pair.target === undefined ? '—' : `≥ ${r.pair.target} ${r.ratio >= r.pair.target ? 'PASS' : 'MISS'}`
    console.log(`${r.pair.name.padEnd(18)} ${r.subjectRps.toFixed(0).padStart(8)} ${r.baselineRps.toFixed(0).padStart(10)} ${`${r.subjectP99Ms.toFixed(2)}ms`.padStart(9)} ${`${r.baselineP99Ms.toFixed(2)}ms`.padStart(10)}  ${r.ratio.toFixed(2).padEnd(5)}  ${verdict}`)
  }

  // Cross-server invalidation: an edit through A, B's cached badge polled until it changes.
  const a = await start(postgresConfig)
  const b = postgresWarm
  const badge = async () => (await (await fetch(url(b, `/badge/${SLUG}.svg`))).text()).match(/<title>([^<]*)<\/title>/)?.[1] ?? ''
  const delays: number[] = []
  for (let i = 0; i < EDITS; i++) {
    const before = await badge()
    const status = i % 2 === 0 ? 'down' : 'up'
    const response = await fetch(url(a, `/user/api/v1/components/${componentId}`), {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status }),
    })
    if (!response.ok) throw new Error(`edit ${i}: ${response.status} ${await response.text()}`)
    const written = performance.now()
    while ((await badge()) === before) {
      if (performance.now() - written > 2_000) throw new Error(`edit ${i} did not reach server B within 2 s`)
    }
    delays.push(performance.now() - written)
  }
  delays.sort((x, y) => x - y)
  const p99 = delays[Math.ceil(EDITS * 0.99) - 1]!
  console.log(`\n## Cross-server invalidation over ${EDITS} edits: p50 ${median(delays).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${delays.at(-1)!.toFixed(2)} ms (target p99 ≤ 50 ms: ${p99 <= 50 ? 'PASS' : 'MISS'})`)
} finally {
  for (const running of servers) await running.stop()
  await sql`DROP DATABASE IF EXISTS ${sql.id(database)} WITH (FORCE)`.execute(admin.db)
  await admin.close()
  temp.remove()
  if (started) Bun.spawnSync([ci, 'stop', started.dir])
}
