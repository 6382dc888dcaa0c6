/**
 * What `/metrics` costs the hottest path: the warm badge (a cache hit answered before the edge) and
 * the warm status JSON, on a server with METRICS_TOKEN set and every series filled (subject) against
 * the same server without it (baseline), each in a process of its own on its own copy of one seeded
 * database with 100 monitors that have run. Rounds alternate; a ratio near 1.00 means counting is
 * lost in the noise (the issue asks ≤ 2 % for the new series; this bounds them with the old ones).
 * Besides requests per second, each server's own CPU time per request (from /proc), which a busy
 * machine disturbs far less.
 */
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { compare, seedDatabase, startServerProcess, tempDir, untilEveryMonitorRan } from './lib.ts'

const MONITORS = 100
const temp = tempDir()
const env = { HOST: '127.0.0.1', BASE_URL: 'https://status.example.com', STATUS_DOMAIN: 'status.example.com', MONITOR_PRIVATE_TARGETS: '1' }
const meteredPath = join(temp.dir, 'metered.sqlite')
const plainPath = join(temp.dir, 'plain.sqlite')

const target = Bun.spawn([process.execPath, join(import.meta.dir, 'monitor-target.ts')], { env: { ...process.env, TARGET_LOOPBACKS: '25' }, stdout: 'pipe', stderr: 'inherit' })
const { loopbacks } = JSON.parse(new TextDecoder().decode((await target.stdout.getReader().read()).value)) as { loopbacks: Array<{ host: string; port: number }> }

try {
  await seedDatabase(loadConfig({ ...env, DATABASE_PATH: meteredPath }), 'enterprise', async (services, owner) => {
    const page = await services.pages.create(owner, { slug: 'acme', name: 'Acme' })
    const components = []
    for (const name of ['API', 'Website']) components.push(await services.components.create(owner, page.id, { name }))
    for (let i = 0; i < MONITORS; i++) {
      const at = loopbacks[i % loopbacks.length]!
      await services.monitors.create(owner, { name: `m${i}`, type: 'http', target: `http://${at.host}:${at.port}/${i}`, interval_seconds: 600, retries: 0, component_id: components[i % 2]!.id })
    }
    // Due at once rather than spread over the first interval.
    await services.monitorsRepo.db.updateTable('monitors').set({ next_run_at: Date.now() }).execute()
  })
  copyFileSync(meteredPath, plainPath)
  const metered = await startServerProcess({ ...env, DATABASE_PATH: meteredPath, METRICS_TOKEN: 'bench-metrics-token-0123456789abcdef' })
  const plain = await startServerProcess({ ...env, DATABASE_PATH: plainPath })
  try {
    // Every monitor has run on both before the first round.
    for (const path of [meteredPath, plainPath]) await untilEveryMonitorRan(path)
    for (const [name, path] of [
      ['badge /badge/acme.svg, warm, metrics on vs off', '/badge/acme.svg'],
      ['status JSON, warm, metrics on vs off', '/api/embed/status?slug=acme'],
    ] as const) {
      await compare({
        name,
        subjectUrl: `${metered.url}${path}`,
        baselineUrl: `${plain.url}${path}`,
        subjectCpu: () => metered.cpuSeconds(),
        baselineCpu: () => plain.cpuSeconds(),
        target: 0.98,
        rounds: Number(process.env.BENCH_ROUNDS ?? 6),
      })
    }
  } finally {
    await metered.stop()
    await plain.stop()
  }
} finally {
  target.kill()
  temp.remove()
}
