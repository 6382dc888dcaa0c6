/**
 * The probe process's loop (`lantern probe`): no database, only the server's probe API. Web
 * standards only (fetch, timers); the CLI entry (command.ts) wires it to the process.
 *
 * - Definitions are pulled every `pullEveryMs` (30 s) with If-None-Match: a 304 changes nothing.
 * - Each monitor runs on its grid (epoch + phase + k × interval, recorder.ts nextRunAfter) from a
 *   min-heap (heap.ts), with the engine's runMonitor, retries and hard deadline, as the server does.
 * - Results queue in memory and are pushed in batches of up to 500, at most once a `pushEveryMs`.
 *   The queue is bounded: past `maxQueue` the oldest are dropped and counted. An unreachable
 *   server is retried with backoff (1 s doubling to 60 s), and the log gets one line per change of
 *   state, never one per failure.
 * - stop() (SIGTERM) finishes the batch push under way and tries once more with what is queued.
 */
import type { Clock } from '../../lib/clock.ts'
import type { CheckDeps, CheckResult, MonitorSpec } from '../monitors/kinds/index.ts'
import { runBudgetMs, runMonitor, type RetryPolicy } from '../monitors/run/index.ts'
import { MinHeap } from '../monitors/run/index.ts'
import { nextRunAfter } from '../monitors/run/index.ts'
import { systemTimer, type RunCheck, type Timer } from '../monitors/run/index.ts'
import { SCHEDULER_DEFAULTS } from '../monitors/run/index.ts'

export interface ProbeOptions {
  /** The server's base URL (BASE_URL of the instance). */
  server: string
  token: string
  region: string
  clock: Clock
  checkDeps: CheckDeps
  timer?: Timer
  fetch?: (input: string, init?: RequestInit) => Promise<Response>
  run?: RunCheck
  log?: (line: string) => void
  pullEveryMs?: number
  pushEveryMs?: number
  maxQueue?: number
  maxBatch?: number
  globalCap?: number
  tickMs?: number
}

interface Definition {
  id: number
  spec: MonitorSpec
  interval_seconds: number
  retries: number
  retry_interval_ms: number
  phase_ms: number
}

interface QueuedResult {
  monitor_id: number
  scheduled_at: string
  result: { outcome: string; response_ms: number | null; status_code: number | null; attempts: number; message: string }
}

type Link = 'starting' | 'connected' | 'unreachable' | 'unauthorized'

export const PROBE_DEFAULTS = { pullEveryMs: 30_000, pushEveryMs: 1_000, maxQueue: 10_000, maxBatch: 500, globalCap: 50, tickMs: 250, maxBackoffMs: 60_000 } as const

export class ProbeRunner {
  private readonly heap = new MinHeap()
  private readonly monitors = new Map<number, Definition>()
  /** The valid next run of each monitor (heap entries that disagree are stale). */
  private readonly scheduled = new Map<number, number>()
  private readonly inFlight = new Set<number>()
  private queue: QueuedResult[] = []
  private etag: string | undefined
  private nextPullAt = Number.NEGATIVE_INFINITY
  private nextPushAt = Number.NEGATIVE_INFINITY
  private backoffMs = 0
  private link: Link = 'starting'
  private running = false
  private handle: unknown
  private pushing: Promise<void> | undefined
  private pulling: Promise<void> | undefined
  private readonly runs = new Set<Promise<void>>()
  private readonly timer: Timer
  private readonly fetch: (input: string, init?: RequestInit) => Promise<Response>
  private readonly run: RunCheck
  private readonly log: (line: string) => void
  private readonly o: Required<Pick<ProbeOptions, 'pullEveryMs' | 'pushEveryMs' | 'maxQueue' | 'maxBatch' | 'globalCap' | 'tickMs'>>
  /** Results dropped because the queue was full (since start). */
  dropped = 0
  /** Results the server accepted (since start). */
  delivered = 0

  constructor(private readonly options: ProbeOptions) {
    this.timer = options.timer ?? systemTimer
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init))
    this.run = options.run ?? ((spec, policy, sleep) => runMonitor(spec, options.checkDeps, policy, sleep))
    this.log = options.log ?? ((line) => console.log(line))
    this.o = {
      pullEveryMs: options.pullEveryMs ?? PROBE_DEFAULTS.pullEveryMs,
      pushEveryMs: options.pushEveryMs ?? PROBE_DEFAULTS.pushEveryMs,
      maxQueue: options.maxQueue ?? PROBE_DEFAULTS.maxQueue,
      maxBatch: options.maxBatch ?? PROBE_DEFAULTS.maxBatch,
      globalCap: options.globalCap ?? PROBE_DEFAULTS.globalCap,
      tickMs: options.tickMs ?? PROBE_DEFAULTS.tickMs,
    }
  }

  get queued(): number {
    return this.queue.length
  }

  get monitorCount(): number {
    return this.monitors.size
  }

  /** Waits for the checks under way (tests). */
  async drain(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs])
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.log(`probe ${this.options.region}: starting for ${this.options.server}`)
    this.schedule()
  }

  /** Stops running checks, finishes the push under way and pushes what is queued once more. */
  async stop(): Promise<void> {
    this.running = false
    if (this.handle !== undefined) this.timer.clearTimeout(this.handle)
    this.handle = undefined
    await this.pushing
    if (this.queue.length > 0 && this.link !== 'unauthorized') await this.push()
    this.log(`probe ${this.options.region}: stopped (${this.delivered} results delivered, ${this.queue.length} left unsent, ${this.dropped} dropped)`)
  }

  /** One turn of the loop (tests call it directly). */
  async tick(): Promise<void> {
    const now = this.options.clock.now()
    if (now >= this.nextPullAt && !this.pulling) {
      this.pulling = this.pull().finally(() => (this.pulling = undefined))
      await this.pulling
    }
    this.startDue()
    if (this.queue.length > 0 && now >= this.nextPushAt && !this.pushing) {
      this.pushing = this.push().finally(() => (this.pushing = undefined))
      await this.pushing
    }
  }

  private schedule(): void {
    if (!this.running) return
    this.handle = this.timer.setTimeout(() => {
      void this.tick()
        .catch((error) => this.log(`probe ${this.options.region}: internal error: ${String((error as Error)?.message ?? error)}`))
        .finally(() => this.schedule())
    }, this.o.tickMs)
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.options.token}`, 'user-agent': `Lantern probe (${this.options.region})`, ...extra }
  }

  private url(path: string): string {
    return `${this.options.server.replace(/\/+$/, '')}${path}`
  }

  private async pull(): Promise<void> {
    const now = this.options.clock.now()
    let response: Response
    try {
      response = await this.fetch(this.url('/api/v1/probe/monitors'), { headers: this.headers(this.etag ? { 'if-none-match': this.etag } : {}) })
    } catch (error) {
      this.failed(`server unreachable (${String((error as Error)?.message ?? error)})`)
      this.nextPullAt = this.options.clock.now() + this.backoffMs
      return
    }
    if (response.status === 304) {
      this.nextPullAt = now + this.o.pullEveryMs
      return
    }
    if (response.status === 401) {
      await response.body?.cancel()
      this.setLink('unauthorized', 'the server refuses the probe token (401): create a new one with lantern probe-token create')
      this.nextPullAt = now + this.o.pullEveryMs
      return
    }
    if (!response.ok) {
      await response.body?.cancel()
      this.failed(`server answered ${response.status}`)
      this.nextPullAt = this.options.clock.now() + this.backoffMs
      return
    }
    const body = (await response.json()) as { data: Definition[] }
    this.etag = response.headers.get('etag') ?? undefined
    this.apply(body.data, this.options.clock.now())
    this.nextPullAt = now + this.o.pullEveryMs
    this.reachable()
  }

  /** Takes in the definitions: new monitors go on the grid, changed ones move, gone ones stop. */
  private apply(definitions: readonly Definition[], now: number): void {
    const seen = new Set<number>()
    for (const definition of definitions) {
      seen.add(definition.id)
      const before = this.monitors.get(definition.id)
      this.monitors.set(definition.id, definition)
      // A run under way puts its monitor back on the grid when it ends.
      if (this.inFlight.has(definition.id)) continue
      if (before && before.interval_seconds === definition.interval_seconds && before.phase_ms === definition.phase_ms && this.scheduled.has(definition.id)) continue
      const at = nextRunAfter(definition.phase_ms, definition.interval_seconds * 1000, now)
      this.scheduled.set(definition.id, at)
      this.heap.push({ id: definition.id, at })
    }
    for (const id of [...this.monitors.keys()]) {
      if (seen.has(id)) continue
      this.monitors.delete(id)
      this.scheduled.delete(id)
    }
  }

  private startDue(): void {
    if (!this.running) return
    const now = this.options.clock.now()
    while (this.inFlight.size < this.o.globalCap) {
      const top = this.heap.peek()
      if (!top || top.at > now) break
      this.heap.pop()
      const definition = this.monitors.get(top.id)
      if (!definition || this.scheduled.get(top.id) !== top.at || this.inFlight.has(top.id)) continue
      this.scheduled.delete(top.id)
      this.inFlight.add(top.id)
      const policy: RetryPolicy = { retries: definition.retries, retryDelayMs: definition.retry_interval_ms }
      const budget = runBudgetMs(definition.spec.timeoutMs, policy) + SCHEDULER_DEFAULTS.deadlineMarginMs
      const running = this.runWithDeadline(definition.spec, policy, budget).then((result) => {
        this.inFlight.delete(top.id)
        this.enqueue({
          monitor_id: top.id,
          scheduled_at: new Date(top.at).toISOString(),
          result: { outcome: result.outcome, response_ms: result.responseTimeMs, status_code: result.statusCode ?? null, attempts: result.attempts, message: result.message.slice(0, 512) },
        })
        // Still ours: next run on its grid.
        const current = this.monitors.get(top.id)
        if (current && !this.scheduled.has(top.id)) {
          const next = nextRunAfter(top.at, current.interval_seconds * 1000, this.options.clock.now())
          this.scheduled.set(top.id, next)
          this.heap.push({ id: top.id, at: next })
        }
      })
      this.runs.add(running)
      void running.finally(() => this.runs.delete(running))
    }
  }

  private async runWithDeadline(spec: MonitorSpec, policy: RetryPolicy, budgetMs: number): Promise<CheckResult & { attempts: number }> {
    let handle: unknown
    const deadline = new Promise<CheckResult & { attempts: number }>((resolve) => {
      handle = this.timer.setTimeout(() => resolve({ outcome: 'fail', responseTimeMs: null, message: `no result within the run's hard deadline of ${budgetMs} ms`, attempts: policy.retries + 1 }), budgetMs)
    })
    try {
      return await Promise.race([this.run(spec, policy, (ms) => new Promise((resolve) => this.timer.setTimeout(() => resolve(), ms))), deadline])
    } catch (error) {
      return { outcome: 'fail', responseTimeMs: null, message: `internal error: ${String((error as Error)?.message ?? error).slice(0, 400)}`, attempts: 1 }
    } finally {
      this.timer.clearTimeout(handle)
    }
  }

  /** Bounded: when full, the oldest result goes (counted). */
  private enqueue(result: QueuedResult): void {
    this.queue.push(result)
    const over = this.queue.length - this.o.maxQueue
    if (over > 0) {
      this.queue.splice(0, over)
      this.dropped += over
    }
  }

  private async push(): Promise<void> {
    const batch = this.queue.splice(0, this.o.maxBatch)
    if (batch.length === 0) return
    const putBack = () => {
      this.queue = [...batch, ...this.queue]
      const over = this.queue.length - this.o.maxQueue
      if (over > 0) {
        this.queue.splice(0, over)
        this.dropped += over
      }
    }
    let response: Response
    try {
      response = await this.fetch(this.url('/api/v1/probe/results'), {
        method: 'POST',
        headers: this.headers({ 'content-type': 'application/json' }),
        body: JSON.stringify({ results: batch }),
      })
    } catch (error) {
      putBack()
      this.failed(`server unreachable (${String((error as Error)?.message ?? error)})`)
      this.nextPushAt = this.options.clock.now() + this.backoffMs
      return
    }
    if (response.status === 401) {
      await response.body?.cancel()
      putBack()
      this.setLink('unauthorized', 'the server refuses the probe token (401): create a new one with lantern probe-token create')
      this.nextPushAt = this.options.clock.now() + this.o.pullEveryMs
      return
    }
    if (response.status === 400) {
      // The server will never take this batch: keep going with the next.
      this.log(`probe ${this.options.region}: the server refused a batch of ${batch.length} results: ${(await response.text()).slice(0, 200)}`)
      this.nextPushAt = this.options.clock.now() + this.o.pushEveryMs
      return
    }
    if (!response.ok) {
      await response.body?.cancel()
      putBack()
      this.failed(`server answered ${response.status}`)
      this.nextPushAt = this.options.clock.now() + this.backoffMs
      return
    }
    const answer = (await response.json()) as { data: { accepted: number; rejected: Array<{ monitor_id: number; error: string }> } }
    this.delivered += answer.data.accepted
    this.nextPushAt = this.options.clock.now() + this.o.pushEveryMs
    this.reachable()
  }

  private failed(why: string): void {
    this.backoffMs = Math.min(PROBE_DEFAULTS.maxBackoffMs, this.backoffMs === 0 ? 1_000 : this.backoffMs * 2)
    this.setLink('unreachable', `${why}; results queue in memory (at most ${this.o.maxQueue}) and are retried with backoff`)
  }

  private reachable(): void {
    this.backoffMs = 0
    this.setLink('connected', `connected: ${this.monitors.size} monitors, ${this.queue.length} results queued, ${this.dropped} dropped so far`)
  }

  /** One log line per change of state, never one per failure. */
  private setLink(link: Link, line: string): void {
    if (this.link === link) return
    this.link = link
    this.log(`probe ${this.options.region}: ${line}`)
  }
}
