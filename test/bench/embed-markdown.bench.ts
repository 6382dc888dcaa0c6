/**
 * GET /api/embed/markdown?slug=… on a listening Lantern with a warm cache, and with the cache off
 * (cold path: a database read and an encode per request), each against a bare Bun.serve answering
 * the same bytes. Target (issue 2): warm ≥ 0.7 of the bare server.
 */
import { loadConfig } from '../../src/config.ts'
import { startServer } from '../../src/main.ts'
import { compare, seedDatabase, snapshot, startBareServer, tempDir } from './lib.ts'

const temp = tempDir()
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: `${temp.dir}/bench.sqlite`, BASE_URL: 'https://status.example.com', STATUS_DOMAIN: 'status.example.com' })

// A page seeded through the real services.
await seedDatabase(config, 'growth', (services, owner) =>
  services.pages.create(owner, { slug: 'acme', name: 'Acme', custom_domain: 'status.acme.example' }),
)

const warm = await startServer(config)
const cold = await startServer(config, { publicCache: false })
try {
  const path = '/api/embed/markdown?slug=acme'
  const { body, headers } = await snapshot(`http://127.0.0.1:${warm.port}${path}`)
  const bare = startBareServer(body, headers)
  try {
    await compare({ name: 'embed markdown, warm cache', subjectUrl: `http://127.0.0.1:${warm.port}${path}`, baselineUrl: bare.url, target: 0.7 })
    await compare({ name: 'embed markdown, cold (cache off)', subjectUrl: `http://127.0.0.1:${cold.port}${path}`, baselineUrl: bare.url })
  } finally {
    bare.stop()
  }
} finally {
  await warm.stop()
  await cold.stop()
  temp.remove()
}
