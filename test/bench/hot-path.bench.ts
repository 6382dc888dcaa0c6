/**
 * In-process cost of the service host's hot reads (issue 11, step B): µs per call of the front
 * door's `fetch` for a warm hit (the fast lane) of the snippets, the badge and the status JSON, and
 * of `handle` with the public cache off (the cold status JSON). No sockets, so the figures are
 * steadier than the wire benchmark's; they say where the time goes, not what a client sees.
 * `BENCH_N` (default 20,000 warm, a 20th of it cold) bounds the run.
 */
import { loadConfig } from '../../src/config.ts'
import { createApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { seedDatabase, seedHistoryPage, tempDir } from './lib.ts'

const N = Number(process.env.BENCH_N ?? 20_000)
const SLUG = 'acme'
const temp = tempDir()
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: `${temp.dir}/bench.sqlite`, BASE_URL: 'https://lantern.example.com', STATUS_DOMAIN: 'status.example.com' })
await seedDatabase(config, 'business', async (services, owner) => {
  const { page, components } = await seedHistoryPage(services, owner, { slug: SLUG, name: 'Acme', days: 90 })
  const now = Date.now()
  for (const component of components) {
    const checks = Array.from({ length: 120 }, (_, i) => ({ at: new Date(now - i * 60_000).toISOString(), ok: true, response_ms: 80 + ((i * 7) % 40) }))
    await services.checks.ingest(owner, component.id, checks)
  }
  await services.incidents.create(owner, { status_page_id: page.id, component_ids: [components[0]!.id], title: 'Slow', message: 'Investigating' })
})

const handle = openDatabase(config.databasePath)
const warm = createApp({ db: handle.db, config })
const cold = createApp({ db: handle.db, config, publicCache: false })
const base = 'http://lantern.example.com'
const READS = [`/api/embed/markdown?slug=${SLUG}`, `/badge/${SLUG}.svg`, `/api/embed/status?slug=${SLUG}&inc=1&rtm=60&upd=7`]

async function time(label: string, n: number, call: () => Response | Promise<Response>) {
  for (let i = 0; i < Math.min(n, 500); i++) await (await call()).arrayBuffer()
  const started = performance.now()
  for (let i = 0; i < n; i++) await (await call()).arrayBuffer()
  console.log(`${label.padEnd(60)} ${(((performance.now() - started) * 1000) / n).toFixed(2).padStart(8)} µs`)
}

for (const path of READS) {
  const status = (await warm.handle(new Request(base + path))).status
  if (status !== 200) throw new Error(`${path}: ${status}`)
  await time(`warm ${path}`, N, () => warm.fetch(new Request(base + path), '127.0.0.1'))
}
await time(`cold ${READS[2]}`, Math.ceil(N / 20), () => cold.handle(new Request(base + READS[2])))
await handle.close()
temp.remove()
