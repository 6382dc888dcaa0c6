/**
 * The public status page (issue 4): a page with 20 components and 90 days of status history,
 * served by a listening Lantern on its status host with a warm cache, against a bare Bun.serve
 * answering the same bytes (target ≥ 0.5); then the cold render time (no cache) as the history
 * grows from 90 days to 2 years at the same density, which must stay flat: the page reads only the
 * changes inside its 90-day window plus one index seek per component.
 */
import { loadConfig } from '../../src/config.ts'
import { createApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { startServer } from '../../src/main.ts'
import { compare, seedDatabase, seedHistoryPage, startBareServer, tempDir } from './lib.ts'

const temp = tempDir()
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_PATH: `${temp.dir}/bench.sqlite`,
  BASE_URL: 'https://lantern.example.com',
  STATUS_DOMAIN: 'status.example.com',
})

const started = performance.now()
const sizes = [90, 365, 730]
await seedDatabase(config, 'business', async (services, owner) => {
  for (const days of sizes) await seedHistoryPage(services, owner, { slug: `bench-${days}`, name: `Bench ${days} days`, days })
})
console.log(`seeded 3 pages × 20 components (${sizes.join(', ')} days, 4 changes a day) in ${((performance.now() - started) / 1000).toFixed(1)} s`)

// Warm: the page on its status host through the real server, Host header as a browser sends it.
const server = await startServer(config)
try {
  const host = 'bench-90.status.example.com'
  const url = `http://127.0.0.1:${server.port}/`
  const first = await fetch(url, { headers: { host } })
  if (first.status !== 200) throw new Error(`page answered ${first.status}`)
  const body = new Uint8Array(await first.arrayBuffer())
  const headers: Record<string, string> = {}
  for (const name of ['content-type', 'cache-control', 'etag']) headers[name] = first.headers.get(name) ?? ''
  console.log(`page size: ${(body.length / 1024).toFixed(1)} KB of HTML`)
  const bare = startBareServer(body, headers)
  try {
    await compare({ name: 'public page (20 components, 90 days), warm cache', subjectUrl: url, baselineUrl: bare.url, target: 0.5, options: { headers: { Host: host } } })
  } finally {
    bare.stop()
  }
} finally {
  await server.stop()
}

// Cold: render without any cache, in process, as history grows.
const db = openDatabase(config.databasePath)
const app = createApp({ db: db.db, config, publicCache: false })
console.log('\n## cold render (no cache), median of 25 after 5 warm-ups')
console.log('history       history rows   render ms   full request ms')
for (const days of sizes) {
  const slug = `bench-${days}`
  const site = (await app.statusSite.resolve({ kind: 'status', slug, host: `${slug}.status.example.com` }))!
  const rows = await db.db
    .selectFrom('component_status_history')
    .innerJoin('components', 'components.id', 'component_status_history.component_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('components.page_id', '=', site.pageId)
    .executeTakeFirstOrThrow()
  const time = async (work: () => Promise<unknown>) => {
    for (let i = 0; i < 5; i++) await work()
    const samples: number[] = []
    for (let i = 0; i < 25; i++) {
      const t0 = performance.now()
      await work()
      samples.push(performance.now() - t0)
    }
    return samples.sort((a, b) => a - b)[12]!
  }
  const render = await time(() => app.statusSite.renderPage(site))
  const request = await time(async () => (await app.handle(new Request(`https://${slug}.status.example.com/`))).arrayBuffer())
  console.log(`${String(days).padStart(4)} days    ${String(rows.n).padStart(12)}   ${render.toFixed(2).padStart(9)}   ${request.toFixed(2).padStart(15)}`)
}
await db.close()
temp.remove()
