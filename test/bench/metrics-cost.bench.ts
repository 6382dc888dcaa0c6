/**
 * What `/metrics` costs the hottest path: the warm badge (a cache hit answered before the edge) and
 * the warm status JSON on a server with METRICS_TOKEN set (subject) against the same server without
 * it (baseline). A ratio near 1.00 means counting is lost in the noise.
 */
import { loadConfig } from '../../src/config.ts'
import { startServer } from '../../src/main.ts'
import { compare, seedDatabase, tempDir } from './lib.ts'

const temp = tempDir()
const env = { PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: `${temp.dir}/bench.sqlite`, BASE_URL: 'https://status.example.com', STATUS_DOMAIN: 'status.example.com' }

await seedDatabase(loadConfig(env), 'growth', async (services, owner) => {
  const page = await services.pages.create(owner, { slug: 'acme', name: 'Acme' })
  for (const name of ['API', 'Website']) await services.components.create(owner, page.id, { name })
})

const metered = await startServer(loadConfig({ ...env, METRICS_TOKEN: 'bench-metrics-token-0123456789abcdef' }))
const plain = await startServer(loadConfig(env))
try {
  for (const [name, path] of [
    ['badge /badge/acme.svg, warm, metrics on vs off', '/badge/acme.svg'],
    ['status JSON, warm, metrics on vs off', '/api/embed/status?slug=acme'],
  ] as const) {
    await compare({ name, subjectUrl: `http://127.0.0.1:${metered.port}${path}`, baselineUrl: `http://127.0.0.1:${plain.port}${path}`, rounds: Number(process.env.BENCH_ROUNDS ?? 6) })
  }
} finally {
  await metered.stop()
  await plain.stop()
  temp.remove()
}
