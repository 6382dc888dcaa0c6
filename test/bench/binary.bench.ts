/**
 * The release binary (`bun run build` → dist/lantern): its size, start-up time to the first 200 on
 * /healthz (fresh database with migrations, and an existing one), resident memory idle and under
 * load, and GET /api/embed/markdown throughput of WORKERS=2 against WORKERS=1 (wrk, same run,
 * alternating). Loopback only; bounded in time.
 */
import { copyFileSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { compare, runWrk, seedDatabase, spawnUntilHealthy, tempDir } from './lib.ts'

const ROOT = join(import.meta.dir, '../..')
const temp = tempDir()

const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`)
const binary = join(temp.dir, 'lantern')
copyFileSync(join(ROOT, 'dist/lantern'), binary)
console.log(`\n## binary\nsize: ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB (${statSync(binary).size} bytes)`)

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
}

async function start(env: Record<string, string>) {
  const started = await spawnUntilHealthy([binary, 'serve'], { cwd: temp.dir, env, name: 'the binary', limitMs: 10_000 })
  return { ...started, startupMs: started.startMs }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

// Start-up: a fresh database each time (creates the file, runs every migration) and an existing one.
const fresh: number[] = []
const existing: number[] = []
for (let i = 0; i < 5; i++) {
  const a = await start({ DATABASE_PATH: join(temp.dir, `fresh-${i}.sqlite`) })
  fresh.push(a.startupMs)
  await a.stop()
  const b = await start({ DATABASE_PATH: join(temp.dir, `fresh-${i}.sqlite`) })
  existing.push(b.startupMs)
  await b.stop()
}
console.log(`start-up to first 200 on /healthz: fresh database median ${median(fresh).toFixed(0)} ms, existing database median ${median(existing).toFixed(0)} ms (5 runs each)`)

// A page to serve, written through the real services.
const databasePath = join(temp.dir, 'bench.sqlite')
await seedDatabase(loadConfig({ DATABASE_PATH: databasePath }), 'growth', (services, owner) =>
  services.pages.create(owner, { slug: 'acme', name: 'Acme', custom_domain: 'status.acme.example' }),
)
const path = '/api/embed/markdown?slug=acme'

// Memory: idle after start-up and a warm-up request, then the peak while wrk drives the embed endpoint.
const one = await start({ DATABASE_PATH: databasePath })
try {
  await fetch(`${one.url}${path}`)
  await Bun.sleep(1000)
  const idle = rssKiB(one.pid)
  let peak = idle
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(one.pid))), 50)
  const load = await runWrk(`${one.url}${path}`, { seconds: 3, connections: 64 })
  clearInterval(sampler)
  console.log(`resident memory: idle ${(idle / 1024).toFixed(1)} MiB, under load ${(peak / 1024).toFixed(1)} MiB (peak, wrk 64 connections: ${load.rps.toFixed(0)} r/s, p99 ${load.p99Ms.toFixed(2)} ms)`)
} finally {
  await one.stop()
}

// Throughput: two workers against one, on the same database file, alternating.
const single = await start({ DATABASE_PATH: databasePath, WORKERS: '1' })
const double = await start({ DATABASE_PATH: databasePath, WORKERS: '2' })
try {
  await compare({
    name: `embed markdown: WORKERS=2 (subject) vs WORKERS=1 (baseline), ${navigator.hardwareConcurrency} cores shared with wrk`,
    subjectUrl: `${double.url}${path}`,
    baselineUrl: `${single.url}${path}`,
    options: { connections: 64 },
  })
} finally {
  await single.stop()
  await double.stop()
  temp.remove()
}
