/**
 * Warm public reads (issue 11), in one run on one database: each read on a listening Lantern against
 * a bare Bun.serve answering the same bytes and headers (and the same 304 to a matching
 * If-None-Match; plain GETs are measured), alternating app and bare, endpoint after endpoint, for
 * several rounds; medians of requests/s, p99 and the ratio app/bare, with the target and PASS/MISS.
 * The verdict is on the requests/s ratio. Beside it, the CPU ratio (bare's CPU time per request over
 * the app's; both servers run in this process): on a machine shared with other jobs it moves much
 * less from round to round, and says what the ratio would be with a core to itself.
 *
 * The page: 20 components with 90 days of status history (two outages a day each), minute checks for
 * the last two hours (for `rtm=60`), two open incidents and three resolved ones (for the feed).
 * Reads on the service host: snippets, badge, status JSON. On the status host (`Host:
 * <slug>.<STATUS_DOMAIN>`, as a browser sends it): the page, `/api/v2/summary.json`, `/history.rss`.
 * Plus the status JSON on a second server with the public cache off (the cold path).
 *
 * `BENCH_ROUNDS` (default 9) and `BENCH_SECONDS` (default 1) bound the run: about
 * 7 reads × (rounds + 1) × 2 × seconds, 2½ minutes by default. Many short rounds: a burst of load
 * from other jobs spoils one round of one read, and the median leaves it out.
 */
import { loadavg } from 'node:os'
import { loadConfig } from '../../src/config.ts'
import { startServer } from '../../src/main.ts'
import { alternate, median, seedDatabase, seedHistoryPage, snapshot, startBareServer, tempDir, type Pair } from './lib.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1)
const CONNECTIONS = 32
/**
 * The cold status JSON's ratio before issue 11: 0.004 in both runs on the code the renovation started
 * from (test/bench/README.md, "Warm public reads"); the target is at least 4× that.
 */
const COLD_BEFORE = 0.004
const SLUG = 'acme'
const STATUS_DOMAIN = 'status.example.com'
const STATUS_HOST = `${SLUG}.${STATUS_DOMAIN}`

const temp = tempDir()
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: `${temp.dir}/bench.sqlite`, BASE_URL: 'https://lantern.example.com', STATUS_DOMAIN })

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
  target: number
}

const READS: Read[] = [
  { name: 'snippets /api/embed/markdown?slug=', path: `/api/embed/markdown?slug=${SLUG}`, target: 0.8 },
  { name: 'badge /badge/<slug>.svg', path: `/badge/${SLUG}.svg`, target: 0.8 },
  { name: 'status JSON inc=1&rtm=60&upd=7', path: `/api/embed/status?slug=${SLUG}&inc=1&rtm=60&upd=7`, target: 0.8 },
  { name: 'public page / (20 comp., 90 days)', path: '/', host: STATUS_HOST, target: 0.8 },
  { name: '/api/v2/summary.json', path: '/api/v2/summary.json', host: STATUS_HOST, target: 0.8 },
  { name: 'RSS /history.rss', path: '/history.rss', host: STATUS_HOST, target: 0.8 },
]
const COLD: Read = { name: 'status JSON, cold (cache off)', path: READS[2]!.path, target: 4 * COLD_BEFORE }

/** Two decimals, three below 0.1 (the cold path). */
const ratioText = (ratio: number) => ratio.toFixed(ratio < 0.1 ? 3 : 2)
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
const warm = await startServer(config)
const cold = await startServer(config, { publicCache: false })
const bares: Array<{ stop: () => void }> = []
try {
  const pairs: Pair[] = []
  const sizes: number[] = []
  const pairOf = async (read: Read, server: typeof warm, baselineUrl?: string): Promise<Pair> => {
    const headers = read.host ? { Host: read.host } : undefined
    const subjectUrl = `http://127.0.0.1:${server.port}${read.path}`
    if (baselineUrl === undefined) {
      // The app's answer once (it fills the cache), then its exact bytes and headers for the baseline.
      const { body, headers: answer } = await snapshot(subjectUrl, { headers })
      const bare = startBareServer(body, answer, { conditional: true })
      bares.push(bare)
      baselineUrl = bare.url
      sizes.push(body.byteLength)
    }
    return { name: read.name, subjectUrl, baselineUrl, target: read.target, options: { seconds: SECONDS, connections: CONNECTIONS, headers } }
  }
  for (const read of READS) pairs.push(await pairOf(read, warm))
  pairs.push(await pairOf(COLD, cold, pairs[2]!.baselineUrl))
  sizes.push(sizes[2]!)

  const loadBefore = load()
  const started = performance.now()
  console.log(`\n${ROUNDS} rounds × ${pairs.length} reads, app then bare, ${SECONDS} s each, ${CONNECTIONS} connections; load average ${loadBefore}`)
  const results = await alternate(pairs, {
    rounds: ROUNDS,
    onRound: (pair, round, r) =>
      console.log(`round ${round}  ${pair.name.padEnd(36)} ${r.subject.rps.toFixed(0).padStart(7)} / ${r.baseline.rps.toFixed(0).padStart(7)} r/s = ${ratioText(r.ratio)}  (CPU ${ratioText(r.cpuRatio)})`),
  })
  const minutes = ((performance.now() - started) / 60_000).toFixed(1)

  console.log(`\n## Warm reads (issue 11): medians of ${ROUNDS} alternating rounds; load average ${loadBefore} before, ${load()} after (${minutes} min)`)
  console.log(
    `${'read'.padEnd(36)} ${'bytes'.padStart(7)} ${'app r/s'.padStart(8)} ${'bare r/s'.padStart(8)} ${'app p99'.padStart(9)} ${'bare p99'.padStart(9)}  ratio  (range)        CPU ratio  target  verdict`,
  )
  let missed = 0
  results.forEach((result, i) => {
    const target = result.pair.target!
    const pass = result.ratio >= target
    if (!pass) missed++
    const ratios = result.rounds.map((r) => r.ratio)
    const range = `(${ratioText(Math.min(...ratios))}–${ratioText(Math.max(...ratios))})`
    console.log(
      `${result.pair.name.padEnd(36)} ${String(sizes[i]).padStart(7)} ${result.subjectRps.toFixed(0).padStart(8)} ${result.baselineRps.toFixed(0).padStart(8)} ${`${result.subjectP99Ms.toFixed(2)}ms`.padStart(9)} ${`${result.baselineP99Ms.toFixed(2)}ms`.padStart(9)}  ${ratioText(result.ratio).padEnd(5)}  ${range.padEnd(13)}  ${ratioText(result.cpuRatio).padStart(9)}  ≥ ${ratioText(target)}  ${pass ? 'PASS' : 'MISS'}`,
    )
  })
  const bareMedian = median(results.slice(0, READS.length).map((r) => r.baselineRps))
  console.log(`${missed === 0 ? 'all targets met' : `${missed} of ${results.length} targets missed`}; bare Bun.serve median over the reads: ${bareMedian.toFixed(0)} r/s`)
} finally {
  for (const bare of bares) bare.stop()
  await warm.stop()
  await cold.stop()
  temp.remove()
}
