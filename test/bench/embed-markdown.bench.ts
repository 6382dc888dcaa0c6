/**
 * GET /api/embed/markdown?slug=… on a listening Lantern with a warm cache, and with the cache off
 * (cold path: a database read and an encode per request), each against a bare Bun.serve answering
 * the same bytes. Target (issue 2): warm ≥ 0.7 of the bare server.
 */
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createServices } from '../../src/services.ts'
import { startServer } from '../../src/main.ts'
import { compare, snapshot, startBareServer, tempDir } from './lib.ts'

const temp = tempDir()
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: `${temp.dir}/bench.sqlite`, BASE_URL: 'https://status.example.com', STATUS_DOMAIN: 'status.example.com' })

// Seed a user and a page through the real services.
const seed = openDatabase(config.databasePath)
await migrateToLatest(seed.db)
const services = createServices({ db: seed.db, config })
const owner = await services.accounts.createUser({ email: 'bench@example.com', password: 'bench-password', plan: 'growth' })
await services.pages.create(owner, { slug: 'acme', name: 'Acme', custom_domain: 'status.acme.example' })
await seed.close()

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
