/**
 * Warm public embeds on a listening Lantern, each against a bare Bun.serve answering the same bytes:
 * - GET /badge/<slug>.svg (target ≥ 0.7 of the bare server, issue 3),
 * - GET /api/embed/status?slug=…&inc=1&rtm=60&upd=7 (target ≥ 0.6, issue 3),
 * plus the uncached (cache off) status JSON for reference: snapshot, incidents, minute roll-ups and
 * uptime from the history per request.
 */
import { loadConfig } from '../../src/config.ts'
import { startServer } from '../../src/main.ts'
import { compare, seedDatabase, snapshot, startBareServer, tempDir } from './lib.ts'

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

const warm = await startServer(config)
const cold = await startServer(config, { publicCache: false })
const cases = [
  { name: 'badge /badge/acme.svg, warm cache', path: '/badge/acme.svg', target: 0.7, cold: false },
  { name: 'status JSON inc=1&rtm=60&upd=7, warm cache', path: '/api/embed/status?slug=acme&inc=1&rtm=60&upd=7', target: 0.6, cold: true },
]
try {
  for (const spec of cases) {
    const { body, headers } = await snapshot(`http://127.0.0.1:${warm.port}${spec.path}`)
    const bare = startBareServer(body, headers)
    try {
      await compare({ name: spec.name, subjectUrl: `http://127.0.0.1:${warm.port}${spec.path}`, baselineUrl: bare.url, target: spec.target })
      if (spec.cold) {
        await compare({ name: 'status JSON, cold (cache off)', subjectUrl: `http://127.0.0.1:${cold.port}${spec.path}`, baselineUrl: bare.url, rounds: 2 })
      }
    } finally {
      bare.stop()
    }
  }
} finally {
  await warm.stop()
  await cold.stop()
  temp.remove()
}
