/**
 * `bun run bench memory`: resident memory and start time of the server as a user runs it, each in its
 * own process. For `bun src/main.ts` and the compiled binary (`bun run build`): start to the first
 * 200 on /healthz on an existing database (median of 5), the CPU time that start took, idle RSS on
 * an empty database, and RSS after a short load test (wrk on the embed snippet, then idle again).
 * Baseline in the same run: a bare `Bun.serve` process (start and RSS). Loopback only; bounded.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { runWrk, seedDatabase, spawnUntilHealthy, tempDir } from './lib.ts'

const ROOT = join(import.meta.dir, '../..')
const temp = tempDir()
const RUNS = 5

const build = Bun.spawnSync(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`)
const binary = join(temp.dir, 'lantern')
copyFileSync(join(ROOT, 'dist/lantern'), binary)
const bareScript = join(temp.dir, 'bare.ts')
writeFileSync(bareScript, "Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => new Response('ok') })\n")

// MEMORY_BENCH_BEFORE=<a checkout of an older commit, with node_modules>: its `src/main.ts` too.
const before = process.env.MEMORY_BENCH_BEFORE
const subjects: Record<string, { name: string; command: string[] }> = {
  bare: { name: 'bare Bun.serve', command: [process.execPath, bareScript] },
  ...(before ? { before: { name: 'before: main.ts', command: [process.execPath, join(before, 'src/main.ts')] } } : {}),
  source: { name: 'bun src/main.ts', command: [process.execPath, join(ROOT, 'src/main.ts')] },
  binary: { name: 'compiled binary', command: [binary, 'serve'] },
}
type Subject = string

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024
/** The process's own CPU time (user + system) in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

async function start(subject: Subject, databasePath: string) {
  const started = await spawnUntilHealthy(subjects[subject]!.command, { cwd: temp.dir, env: { DATABASE_PATH: databasePath }, name: subjects[subject]!.name, limitMs: 20_000 })
  return { ...started, startCpuMs: cpuMs(started.pid) }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

// An existing database: made (migrated) by a first start, then reused.
const existing = join(temp.dir, 'existing.sqlite')
await (await start('source', existing)).stop()

console.log(`\n## start to first answer, existing database (median of ${RUNS}, alternating; load ${load()})`)
const starts: Record<Subject, { wall: number[]; cpu: number[] }> = Object.fromEntries(Object.keys(subjects).map((subject) => [subject, { wall: [], cpu: [] }]))
for (let i = 0; i < RUNS; i++) {
  for (const subject of Object.keys(subjects)) {
    const running = await start(subject, existing)
    starts[subject]!.wall.push(running.startMs)
    starts[subject]!.cpu.push(running.startCpuMs)
    await running.stop()
  }
}
for (const subject of Object.keys(subjects)) {
  const wall = median(starts[subject]!.wall)
  const cpu = median(starts[subject]!.cpu)
  console.log(`${subjects[subject]!.name.padEnd(16)} wall ${wall.toFixed(0).padStart(5)} ms (${(wall / median(starts.bare!.wall)).toFixed(1)}× bare), CPU ${cpu.toFixed(0).padStart(5)} ms`)
}

// Idle memory on an empty (freshly migrated) database, then after a short load test on a seeded one.
const seeded = join(temp.dir, 'seeded.sqlite')
await seedDatabase(loadConfig({ DATABASE_PATH: seeded }), 'growth', (services, owner) => services.pages.create(owner, { slug: 'acme', name: 'Acme' }))
const path = '/api/embed/markdown?slug=acme'
console.log(`\n## resident memory (idle = 2 s after the first answer; load ${load()})`)
for (const subject of Object.keys(subjects)) {
  const empty = await start(subject, join(temp.dir, `empty-${subject}.sqlite`))
  await Bun.sleep(2000)
  const idle = rssMiB(empty.pid)
  await empty.stop()
  const busy = await start(subject, seeded)
  const target = subject === 'bare' ? '/' : path
  let peak = 0
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(busy.pid))), 50)
  const result = await runWrk(`${busy.url}${target}`, { seconds: 5, connections: 64 })
  clearInterval(sampler)
  await Bun.sleep(2000)
  const after = rssMiB(busy.pid)
  await busy.stop()
  console.log(`${subjects[subject]!.name.padEnd(16)} idle ${idle.toFixed(1)} MiB, peak under load ${peak.toFixed(1)} MiB, idle after load ${after.toFixed(1)} MiB (wrk 5 s, 64 connections: ${result.rps.toFixed(0)} r/s)`)
}
temp.remove()
