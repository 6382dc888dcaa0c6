/**
 * Warm public reads (issue 27), measured as a user runs the server: Lantern started as the README
 * starts it (`bun src/main.ts`, a process of its own, on a seeded database) against a bare
 * `Bun.serve` in another process of its own answering the same bytes and headers (captured from the
 * running server first), wrk with 64 connections, app and bare alternating, read after read, for
 * several rounds. Two phases: the public cache empty, then warmed by the reads themselves; and the
 * cache full (filled to its entry bound with other badges, so every further miss evicts). Printed
 * per read and phase: medians of requests/s, the ratio app/bare with its range, and each server
 * process's CPU time per request (from /proc), whose ratio moves far less on a shared machine.
 *
 * The page: 20 components with 90 days of status history (two outages a day each), minute checks for
 * the last two hours (for `rtm=60`), two open incidents and three resolved ones (for the feed).
 * Reads on the service host: snippets, badge, status JSON. On the status host (`Host:
 * <slug>.<STATUS_DOMAIN>`, as a browser sends it): the page (in English, in Japanese by `?lang=ja` and
 * in German by `Accept-Language`, each cached as its own answer), `/api/v2/summary.json`,
 * `/history.rss`. `BENCH_READS=page,badge` keeps the reads whose names contain one of the words.
 *
 * `BENCH_ROUNDS` (default 3) and `BENCH_SECONDS` (default 2, whole seconds) bound the run: 8 reads ×
 * 2 phases × 2 servers × rounds × seconds, plus a second of warm-up per read and server: under
 * 3 minutes by default.
 */
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { PUBLIC_CACHE_MAX_ENTRIES } from '../../src/lib/http-cache.ts'
import { alternate, seedDatabase, seedHistoryPage, snapshot, startListeningProcess, startServerProcess, tempDir, type Pair, type PairResult, type ServerProcess } from './lib.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const CONNECTIONS = 64
const TARGET = 0.85
const SLUG = 'acme'
const STATUS_DOMAIN = 'status.example.com'
const STATUS_HOST = `${SLUG}.${STATUS_DOMAIN}`
const BASE_URL = 'https://lantern.example.com'

const temp = tempDir()
const databasePath = `${temp.dir}/bench.sqlite`
const config = loadConfig({ DATABASE_PATH: databasePath, BASE_URL, STATUS_DOMAIN })

const seedStarted = performance.now()
await seedDatabase(config, 'business', async (services, owner) => {
  const { page, components } = await seedHistoryPage(services, owner, { slug: SLUG, name: 'Acme', days: 90 })
  const now = Date.now()
  for (const component of components) {
    const checks = Array.from({ length: 120 }, (_, i) => ({ at: new Date(now - i * 60_000).toISOString(), ok: true, response_ms: 80 + ((i * 7) % 40) }))
    await services.checks.ingest(owner, component.id, checks)
  }
  const ids = components.map((c) => c.id)
  for (let i = 0; i < 3; i++) {
    const past = await services.incidents.create(owner, { status_page_id: page.id, component_ids: ids.slice(i * 4, i * 4 + 2), title: `Past incident ${i + 1}`, message: 'Investigating' })
    await services.incidents.addUpdate(owner, past.id, { state: 'identified', message: 'Found the cause' })
    await services.incidents.addUpdate(owner, past.id, { state: 'resolved', message: 'Fixed' })
  }
  const open = await services.incidents.create(owner, { status_page_id: page.id, component_ids: [ids[0]!], title: 'Elevated error rates', message: 'Looking into it' })
  await services.incidents.addUpdate(owner, open.id, { state: 'monitoring', message: 'A fix is out' })
  await services.incidents.create(owner, { status_page_id: page.id, component_ids: [ids[5]!], title: 'Slow dashboard', message: 'Investigating' })
})
console.log(`seeded 1 page × 20 components, 90 days of history, 2 h of checks, 5 incidents in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`)

interface Read {
  name: string
  path: string
  host?: string
  headers?: Record<string, string>
}

const ALL_READS: Read[] = [
  { name: 'snippets /api/embed/markdown?slug=', path: `/api/embed/markdown?slug=${SLUG}` },
  { name: 'badge /badge/<slug>.svg', path: `/badge/${SLUG}.svg` },
  { name: 'status JSON inc=1&rtm=60&upd=7', path: `/api/embed/status?slug=${SLUG}&inc=1&rtm=60&upd=7` },
  { name: 'public page / (20 comp., 90 days)', path: '/', host: STATUS_HOST },
  { name: 'public page /?lang=ja', path: '/?lang=ja', host: STATUS_HOST },
  { name: 'public page, Accept-Language: de', path: '/', host: STATUS_HOST, headers: { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' } },
  { name: '/api/v2/summary.json', path: '/api/v2/summary.json', host: STATUS_HOST },
  { name: 'RSS /history.rss', path: '/history.rss', host: STATUS_HOST },
]
const wanted = (process.env.BENCH_READS ?? '').split(',').map((word) => word.trim()).filter(Boolean)
const READS = wanted.length === 0 ? ALL_READS : ALL_READS.filter((read) => wanted.some((word) => read.name.includes(word)))

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
const headersOf = (read: Read) => (read.host || read.headers ? { ...(read.host ? { Host: read.host } : {}), ...read.headers } : undefined)

/** Misses of badges with labels of their own, `concurrency` at a time: each one becomes a cache entry. */
async function fillCache(app: ServerProcess, entries: number, concurrency = 16): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < entries) {
      const response = await fetch(`${app.url}/badge/${SLUG}.svg?label=fill-${next++}`)
      if (!response.ok) throw new Error(`filling the cache: ${response.status}`)
      await response.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

let app: ServerProcess | undefined
let bare: ServerProcess | undefined
const specPath = join(tmpdir(), `lantern-bare-${process.pid}.json`)
try {
  app = await startServerProcess({ DATABASE_PATH: databasePath, BASE_URL, STATUS_DOMAIN })
  // The app's first answer to each read (a miss: it fills the cache), then its exact bytes and headers for the baseline.
  const answers: Array<Awaited<ReturnType<typeof snapshot>>> = []
  for (const read of READS) answers.push(await snapshot(`${app.url}${read.path}`, { headers: headersOf(read) }))
  await Bun.write(specPath, JSON.stringify(answers.map(({ body, headers }) => ({ body: Buffer.from(body).toString('base64'), headers }))))
  bare = await startListeningProcess([join(import.meta.dir, 'bare-server.ts'), specPath])
  const appProcess = app
  const bareProcess = bare
  const pairs: Pair[] = READS.map((read, i) => ({
    name: read.name,
    subjectUrl: `${appProcess.url}${read.path}`,
    baselineUrl: `http://127.0.0.1:${bareProcess.ports[i]}${read.path}`,
    target: TARGET,
    options: { seconds: SECONDS, connections: CONNECTIONS, headers: headersOf(read) },
    subjectCpu: () => appProcess.cpuSeconds(),
    baselineCpu: () => bareProcess.cpuSeconds(),
  }))

  const loadBefore = load()
  const started = performance.now()
  const phases: Array<{ phase: string; results: PairResult[] }> = []
  const measure = async (phase: string, warmSeconds: number) => {
    console.log(`\n${phase}: ${ROUNDS} rounds × ${pairs.length} reads, app then bare, ${SECONDS} s each, ${CONNECTIONS} connections; load average ${load()}`)
    const results = await alternate(pairs, {
      rounds: ROUNDS,
      warmSeconds,
      onRound: (pair, round, r) =>
        console.log(
          `round ${round}  ${pair.name.padEnd(36)} ${r.subject.rps.toFixed(0).padStart(7)} / ${r.baseline.rps.toFixed(0).padStart(7)} r/s = ${r.ratio.toFixed(2)}  (CPU ${r.subject.cpuUsPerRequest.toFixed(1)} / ${r.baseline.cpuUsPerRequest.toFixed(1)} µs = ${r.cpuRatio.toFixed(2)})`,
        ),
    })
    phases.push({ phase, results })
  }
  await measure('cache empty, then warmed by the reads', 1)
  const fillStarted = performance.now()
  await fillCache(app, PUBLIC_CACHE_MAX_ENTRIES)
  // The measured answers were pushed out by the filling: one request each puts them back.
  for (const read of READS) await (await fetch(`${app.url}${read.path}`, { headers: headersOf(read) })).arrayBuffer()
  console.log(`\nfilled the public cache with ${PUBLIC_CACHE_MAX_ENTRIES} badges in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`)
  await measure(`cache full (${PUBLIC_CACHE_MAX_ENTRIES} entries)`, 0)
  const minutes = ((performance.now() - started) / 60_000).toFixed(1)

  console.log(`\n## Warm reads (issue 27): medians of ${ROUNDS} alternating rounds, each server in its own process; load average ${loadBefore} before, ${load()} after (${minutes} min)`)
  console.log(`${'read'.padEnd(36)} ${'cache'.padEnd(5)} ${'bytes'.padStart(7)} ${'app r/s'.padStart(8)} ${'bare r/s'.padStart(8)}  ratio  (range)       CPU µs/req app / bare  CPU ratio  verdict (≥ ${TARGET})`)
  let missed = 0
  for (const { phase, results } of phases) {
    results.forEach((result, i) => {
      const pass = result.ratio >= TARGET
      if (!pass) missed++
      const ratios = result.rounds.map((r) => r.ratio)
      const range = `(${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
      const cpu = (side: 'subject' | 'baseline') => [...result.rounds.map((r) => r[side].cpuUsPerRequest)].sort((a, b) => a - b)[result.rounds.length >> 1]!.toFixed(1)
      console.log(
        `${result.pair.name.padEnd(36)} ${phase.startsWith('cache full') ? 'full ' : 'empty'} ${String(answers[i]!.body.byteLength).padStart(7)} ${result.subjectRps.toFixed(0).padStart(8)} ${result.baselineRps.toFixed(0).padStart(8)}  ${result.ratio.toFixed(2)}   ${range.padEnd(12)}  ${`${cpu('subject')} / ${cpu('baseline')}`.padStart(20)}  ${result.cpuRatio.toFixed(2).padStart(9)}  ${pass ? 'PASS' : 'MISS'}`,
      )
    })
  }
  console.log(missed === 0 ? 'every read at or above the target' : `${missed} of ${phases.length * READS.length} below the target`)
} finally {
  await app?.stop()
  await bare?.stop()
  await Bun.file(specPath).delete().catch(() => {})
  temp.remove()
}
