/**
 * Warm public embeds on a listening Lantern, each against a bare Bun.serve answering the same bytes:
 * - GET /badge/<slug>.svg (target ≥ 0.7 of the bare server, issue 3),
 * - GET /api/embed/status?slug=…&inc=1&rtm=60&upd=7 (target ≥ 0.6, issue 3),
 * - GET /api/embed/markdown?slug=… (target ≥ 0.7, issue 2),
 * plus the uncached (cache off) status JSON for reference: snapshot, incidents, minute roll-ups and
 * uptime from the history per request.
 * Then the "cache full" round (issue 18): the public cache is filled to its entry bound over HTTP
 * with distinct `label=` values, as anyone can, and the warm badge and snippets are measured again
 * (target ≥ 0.8, as with an empty cache); then the cache is emptied and both are measured once more,
 * so that "full" and "empty" are compared minutes apart in one process, not across runs or benches.
 * Each ratio comes with the CPU ratio (the bare server's CPU per request over Lantern's, both in this
 * process): on a machine shared with other jobs it moves far less than requests/s do.
 * `BENCH_FULL_ONLY=1` runs only the cache full and emptied again rounds.
 * And the badge of an unknown slug (hardening item 8): cached briefly as a negative answer, it costs
 * what a warm badge costs instead of a database read and a rendering per request.
 */
import { heapStats } from 'bun:jsc'
import { loadConfig } from '../../src/config.ts'
import { PUBLIC_CACHE_MAX_ENTRIES } from '../../src/lib/http-cache.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { alternate, compare, seedDatabase, snapshot, startBareServer, tempDir } from './lib.ts'

const temp = tempDir()
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: `${temp.dir}/bench.sqlite`, BASE_URL: 'https://status.example.com', STATUS_DOMAIN: 'status.example.com' })

// Seed a page with components, a week of checks and an incident through the real services.
await seedDatabase(config, 'growth', async (services, owner) => {
  const page = await services.pages.create(owner, { slug: 'acme', name: 'Acme' })
  const now = Date.now()
  for (const name of ['API', 'Website', 'DNS']) {
    const component = await services.components.create(owner, page.id, { name })
    const checks = Array.from({ length: 1000 }, (_, i) => ({ at: new Date(now - i * 60_000).toISOString(), ok: i % 97 !== 0, response_ms: 80 + (i % 40) }))
    await services.checks.ingest(owner, component.id, checks)
  }
  await services.incidents.create(owner, { status_page_id: page.id, title: 'Elevated error rates', message: 'Looking into it' })
})

const BADGE = '/badge/acme.svg'
const SNIPPETS = '/api/embed/markdown?slug=acme'
const STATUS = '/api/embed/status?slug=acme&inc=1&rtm=60&upd=7'
const UNKNOWN_BADGE = '/badge/nobody.svg'
const rssMiB = () => (process.memoryUsage().rss / 2 ** 20).toFixed(0)

interface Ratios {
  ratio: number
  cpuRatio: number
}

const two = (n: number) => n.toFixed(2)

/** Alternating wrk rounds against a bare Bun.serve answering the same bytes; prints each round with its CPU ratio. */
async function measure(server: RunningServer, spec: { name: string; path: string; target: number }, cold?: RunningServer): Promise<Ratios> {
  const subjectUrl = `http://127.0.0.1:${server.port}${spec.path}`
  const { body, headers } = await snapshot(subjectUrl)
  const bare = startBareServer(body, headers)
  try {
    console.log(`\n## ${spec.name}`)
    console.log('round   subject r/s  baseline r/s   ratio   CPU µs/request subject / baseline   CPU ratio')
    const [result] = await alternate([{ name: spec.name, subjectUrl, baselineUrl: bare.url }], {
      rounds: Number(process.env.BENCH_ROUNDS ?? 4),
      onRound: (_, round, { subject, baseline, ratio, cpuRatio }) =>
        console.log(
          `${String(round).padStart(5)} ${subject.rps.toFixed(0).padStart(9)}     ${baseline.rps.toFixed(0).padStart(9)}   ${two(ratio).padStart(5)}   ${two(subject.cpuUsPerRequest).padStart(13)} / ${two(baseline.cpuUsPerRequest).padEnd(18)}  ${two(cpuRatio).padStart(5)}`,
        ),
    })
    const { ratio, cpuRatio } = result!
    console.log(`median ratio ${two(ratio)} (target ≥ ${spec.target}: ${ratio >= spec.target ? 'met' : 'NOT met'}), CPU ratio ${two(cpuRatio)}`)
    if (cold) await compare({ name: 'status JSON, cold (cache off)', subjectUrl: `http://127.0.0.1:${cold.port}${spec.path}`, baselineUrl: bare.url, rounds: 2 })
    return { ratio, cpuRatio }
  } finally {
    bare.stop()
  }
}

/** Live heap after a full collection: cells and bytes (`heapSize` counts the memory cells hold outside too, such as byte arrays). */
function liveHeap(): { objects: number; bytes: number } {
  Bun.gc(true)
  const stats = heapStats()
  return { objects: stats.objectCount, bytes: stats.heapSize }
}

/** Reads the hot answers once, so that they are cached again after the cache was filled or emptied. */
async function warmHotAnswers(server: RunningServer): Promise<void> {
  for (const path of [BADGE, SNIPPETS]) await (await fetch(`http://127.0.0.1:${server.port}${path}`)).arrayBuffer()
}

/** Fills the public cache to its bound with badges under distinct labels, over HTTP, 16 at a time. */
async function fillCache(server: RunningServer): Promise<void> {
  const cache = server.app.publicCache!
  const started = performance.now()
  const rssBefore = rssMiB()
  const heapBefore = liveHeap()
  const sizeBefore = cache.size
  let next = 0
  const worker = async () => {
    while (cache.size < PUBLIC_CACHE_MAX_ENTRIES) {
      const response = await fetch(`http://127.0.0.1:${server.port}/badge/acme.svg?label=fill-${next++}`)
      if (!response.ok) throw new Error(`filling the cache: ${response.status}`)
      await response.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  // The hot answers were pushed out by the filling: read them once so they are cached again.
  await warmHotAnswers(server)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const heapAfter = liveHeap()
  const added = cache.size - sizeBefore
  console.log(`\ncache filled with ${next} requests in ${seconds} s: ${cache.size} entries, ${(cache.bytes / 2 ** 20).toFixed(1)} MiB estimated`)
  console.log(
    `live heap per added entry: ${((heapAfter.objects - heapBefore.objects) / added).toFixed(1)} cells, ${((heapAfter.bytes - heapBefore.bytes) / added).toFixed(0)} bytes (estimate ${(cache.bytes / cache.size).toFixed(0)})`,
  )
  console.log(`resident memory of the bench process (server and client): ${rssBefore} MiB before, ${rssMiB()} MiB after`)
}

const warm = await startServer(config)
const cold = await startServer(config, { publicCache: false })
const ratios = new Map<string, Ratios>()
const run = async (label: string, server: RunningServer, spec: { name: string; path: string; target: number }, uncached?: RunningServer) =>
  ratios.set(label, await measure(server, spec, uncached))
try {
  if (process.env.BENCH_FULL_ONLY !== '1') {
    await run('badge, empty cache', warm, { name: 'badge /badge/acme.svg, warm cache', path: BADGE, target: 0.7 })
    await run('status JSON, empty cache', warm, { name: 'status JSON inc=1&rtm=60&upd=7, warm cache', path: STATUS, target: 0.6 }, cold)
    await run('snippets, empty cache', warm, { name: 'snippets /api/embed/markdown, warm cache', path: SNIPPETS, target: 0.7 })
  }
  await run('unknown badge', warm, { name: 'badge of an unknown slug /badge/nobody.svg', path: UNKNOWN_BADGE, target: 0.7 })
  await fillCache(warm)
  await run('badge, cache full', warm, { name: 'badge, cache full (10,000 entries)', path: BADGE, target: 0.8 })
  await run('snippets, cache full', warm, { name: 'snippets, cache full (10,000 entries)', path: SNIPPETS, target: 0.8 })
  console.log(`\ncache still full: ${warm.app.publicCache!.size} entries`)
  // The same answers once more with the cache emptied: what the full rounds are compared with.
  warm.app.publicCache!.clear()
  await warmHotAnswers(warm)
  Bun.gc(true)
  console.log(`cache emptied: ${warm.app.publicCache!.size} entries`)
  await run('badge, emptied again', warm, { name: 'badge, cache emptied again', path: BADGE, target: 0.8 })
  await run('snippets, emptied again', warm, { name: 'snippets, cache emptied again', path: SNIPPETS, target: 0.8 })
  console.log('\n## medians, ratios of bare Bun.serve (requests/s, CPU per request)')
  for (const [label, { ratio, cpuRatio }] of ratios) console.log(`${label.padEnd(26)} ${two(ratio)}   CPU ${two(cpuRatio)}`)
  // What issue 18 is about: a full cache must answer as fast as an empty one.
  for (const what of ['badge', 'snippets']) {
    const full = ratios.get(`${what}, cache full`)!
    for (const empty of ['empty cache', 'emptied again']) {
      const reference = ratios.get(`${what}, ${empty}`)
      if (reference) console.log(`${what}: cache full / ${empty} = ${two(full.ratio / reference.ratio)}   CPU ${two(full.cpuRatio / reference.cpuRatio)}`)
    }
  }
} finally {
  await warm.stop()
  await cold.stop()
  temp.remove()
}
