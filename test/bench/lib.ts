/**
 * Benchmark kit: drive a URL with wrk (a real HTTP load generator in its own process) and compare it
 * with a bare `Bun.serve` answering the same bytes, measured alternately in the same run, so the
 * ratio means something on a shared, noisy machine. Loopback only; every run is bounded in time.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type Config } from '../../src/config.ts'
import { openDatabase } from '../../src/db/client.ts'
import { openConfiguredDatabase } from '../../src/db/open.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { ifNoneMatchHits } from '../../src/lib/http-cache.ts'
import { DAY_MS } from '../../src/lib/time.ts'
import type { Owner } from '../../src/modules/accounts/service.ts'
import type { Plan } from '../../src/modules/plans/matrix.ts'
import { createServices, type Services } from '../../src/services.ts'
import { ManualClock } from '../helpers/clock.ts'

export interface LoadResult {
  rps: number
  requests: number
  p50Ms: number
  p99Ms: number
}

export interface BenchOptions {
  seconds?: number
  connections?: number
  headers?: Record<string, string>
  /** A wrk Lua script (its path), e.g. to set the method and body of a write. */
  script?: string
}

export function requireWrk(): string {
  const wrk = Bun.which('wrk')
  if (!wrk) {
    console.error('bench: wrk is not installed (Debian: apt-get install wrk)')
    process.exit(1)
  }
  return wrk
}

function parseDuration(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim())
  if (!match) return Number.NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 'ms' ? value : match[2] === 's' ? value * 1000 : value * 60_000
}

/** Runs wrk against `url` and returns requests/s and the 99th percentile latency. */
export async function runWrk(url: string, options: BenchOptions = {}): Promise<LoadResult> {
  const args = [requireWrk(), '-t1', `-c${options.connections ?? 32}`, `-d${options.seconds ?? 3}s`, '--latency']
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`)
  if (options.script) args.push('-s', options.script)
  args.push(url)
  const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'pipe' })
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
  const requests = Number(/(\d+) requests in/.exec(out)?.[1])
  const p50 = /\s50%\s+(\S+)/.exec(out)?.[1]
  const p99 = /\s99%\s+(\S+)/.exec(out)?.[1]
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1]
  if (code !== 0 || !Number.isFinite(rps) || !Number.isFinite(requests) || !p50 || !p99) throw new Error(`wrk failed (${code}):\n${out}`)
  if (non2xx) throw new Error(`wrk saw ${non2xx} error responses from ${url}`)
  return { rps, requests, p50Ms: parseDuration(p50), p99Ms: parseDuration(p99) }
}

/**
 * A bare Bun.serve that answers every request with these bytes and headers: the baseline. With
 * `conditional`, a request whose If-None-Match holds the ETag gets a bodiless 304, as the app answers.
 */
export function startBareServer(body: Uint8Array<ArrayBuffer>, headers: Record<string, string>, options: { conditional?: boolean } = {}) {
  const etag = headers.etag
  const fetch =
    options.conditional && etag !== undefined
      ? (request: Request) =>
          ifNoneMatchHits(request.headers.get('if-none-match'), etag) ? new Response(null, { status: 304, headers }) : new Response(body, { headers })
      : () => new Response(body, { headers })
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch })
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

/** Headers the HTTP server writes itself; everything else is copied to the baseline. */
const SERVER_HEADERS = new Set(['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'])

/** The response a URL gives now: its exact bytes and headers, for a baseline that answers the same. */
export async function snapshot(url: string, init?: RequestInit): Promise<{ body: Uint8Array<ArrayBuffer>; headers: Record<string, string> }> {
  const response = await fetch(url, { ...init, decompress: false } as RequestInit)
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (!SERVER_HEADERS.has(name)) headers[name] = value
  })
  return { body: new Uint8Array(await response.arrayBuffer()), headers }
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9)

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export interface Pair {
  name: string
  subjectUrl: string
  baselineUrl: string
  /** The ratio the issue asks for. */
  target?: number
  options?: BenchOptions
  /** CPU seconds used so far by the servers under test when they run in processes of their own (ServerProcess.cpuSeconds). */
  subjectCpu?: () => number
  baselineCpu?: () => number
}

/** A wrk run with the CPU time this process spent meanwhile, per request (meaningful when the server runs in it). */
export interface Measured extends LoadResult {
  cpuUsPerRequest: number
}

export interface PairResult {
  pair: Pair
  rounds: Array<{ subject: Measured; baseline: Measured; ratio: number; cpuRatio: number }>
  /** Medians over the rounds. */
  ratio: number
  /** Baseline CPU per request over the subject's: the throughput ratio a core of its own would give. */
  cpuRatio: number
  subjectRps: number
  baselineRps: number
  subjectP99Ms: number
  baselineP99Ms: number
}

async function measure(url: string, options?: BenchOptions, serverCpu?: () => number): Promise<Measured> {
  const cpuSeconds = serverCpu ?? (() => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1e6
  })
  const before = cpuSeconds()
  const result = await runWrk(url, options)
  return { ...result, cpuUsPerRequest: ((cpuSeconds() - before) * 1e6) / result.requests }
}

/**
 * Measures every pair in `rounds` rounds, subject then baseline, pair after pair within each round,
 * so that a burst of load from other jobs lands in one round of each pair rather than in all rounds
 * of one. Each pair is warmed first (JIT, caches, connections) unless `warmSeconds` is 0. Returns the
 * medians per pair.
 */
export async function alternate(
  pairs: readonly Pair[],
  options: { rounds: number; warmSeconds?: number; onRound?: (pair: Pair, round: number, result: PairResult['rounds'][number]) => void },
): Promise<PairResult[]> {
  // Whole seconds (wrk's unit); 0 skips the warm-up.
  for (const pair of options.warmSeconds === 0 ? [] : pairs) {
    await runWrk(pair.subjectUrl, { ...pair.options, seconds: options.warmSeconds ?? 1 })
    await runWrk(pair.baselineUrl, { ...pair.options, seconds: options.warmSeconds ?? 1 })
  }
  const results = pairs.map((pair) => ({ pair, rounds: [] as PairResult['rounds'] }))
  for (let round = 1; round <= options.rounds; round++) {
    for (const result of results) {
      const subject = await measure(result.pair.subjectUrl, result.pair.options, result.pair.subjectCpu)
      const baseline = await measure(result.pair.baselineUrl, result.pair.options, result.pair.baselineCpu)
      const measured = { subject, baseline, ratio: subject.rps / baseline.rps, cpuRatio: baseline.cpuUsPerRequest / subject.cpuUsPerRequest }
      result.rounds.push(measured)
      options.onRound?.(result.pair, round, measured)
    }
  }
  return results.map(({ pair, rounds }) => ({
    pair,
    rounds,
    ratio: median(rounds.map((r) => r.ratio)),
    cpuRatio: median(rounds.map((r) => r.cpuRatio)),
    subjectRps: median(rounds.map((r) => r.subject.rps)),
    baselineRps: median(rounds.map((r) => r.baseline.rps)),
    subjectP99Ms: median(rounds.map((r) => r.subject.p99Ms)),
    baselineP99Ms: median(rounds.map((r) => r.baseline.p99Ms)),
  }))
}

/**
 * Alternates subject and baseline for `rounds` rounds, prints each round and the median ratio of
 * requests/s, and returns that median. `target` is the ratio the issue asks for.
 */
export async function compare(spec: Pair & { rounds?: number }): Promise<number> {
  const rounds = spec.rounds ?? Number(process.env.BENCH_ROUNDS ?? 4)
  console.log(`\n## ${spec.name}`)
  console.log('round   subject r/s  baseline r/s   ratio   p50 subject   p99 subject   p99 baseline')
  const [result] = await alternate([spec], {
    rounds,
    onRound: (_, round, { subject, baseline, ratio }) =>
      console.log(
        `${String(round).padStart(5)} ${fmt(subject.rps)}     ${fmt(baseline.rps)}   ${ratio.toFixed(2).padStart(5)}   ${fmt(subject.p50Ms, 2)} ms  ${fmt(subject.p99Ms, 2)} ms  ${fmt(baseline.p99Ms, 2)} ms`,
      ),
  })
  const ratio = result!.ratio
  const verdict = spec.target === undefined ? '' : ratio >= spec.target ? `  (target ≥ ${spec.target}: met)` : `  (target ≥ ${spec.target}: NOT met)`
  console.log(`median ratio ${ratio.toFixed(2)}${verdict}`)
  if (spec.subjectCpu && spec.baselineCpu) {
    const perRequest = (side: 'subject' | 'baseline') => median(result!.rounds.map((r) => r[side].cpuUsPerRequest)).toFixed(1)
    console.log(`server CPU per request: subject ${perRequest('subject')} µs, baseline ${perRequest('baseline')} µs, baseline/subject ${result!.cpuRatio.toFixed(2)}`)
  }
  return ratio
}

/** A temporary folder for a benchmark's database, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-bench-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Migrates the benchmark's database and hands `seed` the real services and a bench owner on `plan`;
 * the database is closed again before the servers under test open it.
 */
export async function seedDatabase<T>(config: Config, plan: Plan, seed: (services: Services, owner: Owner) => Promise<T>): Promise<T> {
  const handle = openConfiguredDatabase(config)
  try {
    await migrateToLatest(handle.db)
    const services = createServices({ db: handle.db, config })
    const owner = await services.accounts.personalTeamOwner(await services.accounts.createUser({ email: 'bench@example.com', password: 'bench-password', plan }))
    return await seed(services, owner)
  } finally {
    await handle.close()
  }
}

/**
 * A page of 20 components (4 ungrouped, then 4 groups of 4); each component has two 5-minute outages
 * a day over `days` days, imported as status history through the real service.
 */
export async function seedHistoryPage(services: Services, owner: Owner, page: { slug: string; name: string; days: number }) {
  const created = await services.pages.create(owner, { slug: page.slug, name: page.name })
  const now = Date.now()
  const components = []
  for (let i = 0; i < 20; i++) {
    const c = await services.components.create(owner, created.id, {
      name: `Component ${i + 1}`,
      group: i < 4 ? null : `Group ${Math.floor(i / 4)}`,
      type: (['site', 'api', 'dns'] as const)[i % 3],
    })
    const entries: Array<{ status: string; at: string }> = [{ status: 'up', at: new Date(now - page.days * DAY_MS - 1000).toISOString() }]
    for (let d = page.days; d >= 1; d--) {
      for (const hour of [3, 15]) {
        const start = now - d * DAY_MS + hour * 3_600_000 + i * 1000
        entries.push({ status: 'down', at: new Date(start).toISOString() }, { status: 'up', at: new Date(start + 5 * 60_000).toISOString() })
      }
    }
    await services.components.importHistory(owner, c.id, entries)
    components.push(c)
  }
  return { page: created, components }
}

/**
 * Services on a fresh, migrated SQLite file in a temporary folder, on a ManualClock at `now`: the
 * set-up of benchmarks that call services directly (no HTTP). `close` removes the folder.
 */
export async function benchServices(now: number) {
  const temp = tempDir()
  const path = join(temp.dir, 'bench.sqlite')
  const database = openDatabase(path)
  await migrateToLatest(database.db)
  const clock = new ManualClock(now)
  const config = loadConfig({ DATABASE_PATH: path, BASE_URL: 'http://bench.test' })
  return {
    db: database.db,
    clock,
    services: createServices({ db: database.db, config, clock }),
    async close() {
      await database.close()
      temp.remove()
    },
  }
}

export interface ServerProcess {
  url: string
  /** Every port the process listens on (the bare baseline listens on several), `url`'s first. */
  ports: number[]
  pid: number
  /** CPU seconds (user + system) the process has used so far, from /proc (10 ms steps). */
  cpuSeconds(): number
  stop(): Promise<void>
}

/**
 * A Lantern server in a process of its own (`bun src/main.ts`, as `bun run start` runs it) on a
 * free loopback port, with `env` on top of this process's environment; resolves once it listens.
 */
export function startServerProcess(env: Record<string, string>, bunFlags: string[] = []): Promise<ServerProcess> {
  return startListeningProcess([...bunFlags, join(import.meta.dir, '..', '..', 'src', 'main.ts')], env)
}

/**
 * `bun <args>` in a process of its own; resolves once it prints `listening on <host>:<port>[,<port>…]`.
 */
export async function startListeningProcess(args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, ...args], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = proc.stdout.getReader()
  let seen = ''
  let ports: number[] | undefined
  while (ports === undefined) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the server process ended before listening:\n${seen}`)
    seen += new TextDecoder().decode(value)
    ports = /listening on [^\s]+:(\d+(?:,\d+)*)/.exec(seen)?.[1]?.split(',').map(Number)
  }
  // Keep reading so the server never blocks on a full pipe.
  void (async () => {
    while (!(await reader.read()).done);
  })()
  const ticks = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100
  return {
    url: `http://127.0.0.1:${ports[0]}`,
    ports,
    pid: proc.pid,
    cpuSeconds() {
      const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      return (Number(fields[11]) + Number(fields[12])) / ticks
    },
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}

/** A loopback port nothing listens on now. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  return port
}

/**
 * `command` in a process of its own on a free loopback port, timed from spawn to its first 200 on
 * `/healthz` (start-up as a user sees it); throws when that takes longer than `limitMs`.
 */
export async function spawnUntilHealthy(command: string[], options: { cwd: string; env: Record<string, string>; name: string; limitMs: number }) {
  const port = freePort()
  const startedAt = performance.now()
  const proc = Bun.spawn(command, {
    cwd: options.cwd,
    env: { PATH: '/usr/bin:/bin', HOST: '127.0.0.1', PORT: String(port), BASE_URL: 'https://status.example.com', STATUS_DOMAIN: 'status.example.com', ...options.env },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break
    } catch {}
    if (performance.now() - startedAt > options.limitMs) throw new Error(`${options.name} did not answer /healthz within ${options.limitMs / 1000} s`)
    await Bun.sleep(2)
  }
  return {
    url,
    pid: proc.pid,
    startMs: performance.now() - startedAt,
    stop: async () => {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}

/** Polls a database file (read-only, beside the server that writes it) until every monitor has a result. */
export async function untilEveryMonitorRan(path: string): Promise<void> {
  const reader = openDatabase(path, { readonly: true })
  try {
    for (;;) {
      const row = await reader.db.selectFrom('monitors').select((eb) => eb.fn.countAll<number>().as('n')).where('last_check_at', 'is', null).executeTakeFirstOrThrow()
      if (Number(row.n) === 0) return
      await Bun.sleep(1000)
    }
  } finally {
    await reader.close()
  }
}
