/**
 * The monitor scheduler: ONE loop (a tick every 250 ms) over an in-memory min-heap of next runs.
 *
 * - First runs are phase-spread over the interval by the API (service.ts phaseOffsetMs); runs stay
 *   on their grid afterwards (recorder.ts nextRunAfter), so monitors never bunch up.
 * - A global cap (100 checks at once) and a per-host cap (4) bound the load on us and on a target.
 *   They count requests on the network: a run gives its slot back during a retry pause and takes
 *   one again (before any new run) to try once more, so a failing host's runs, which are mostly
 *   pauses, never hold its slots from its healthy monitors. A run that finds its host full waits
 *   in that host's queue, off the heap, until one of the host's slots frees: a crowd of overdue
 *   runs for one host never stands in front of due runs for other hosts.
 * - Every run has a hard deadline: the engine's runBudgetMs + 1 s; past it, the run is a failure.
 * - Finished runs are written in batches: one transaction a second at most (recorder.ts). The lease
 *   of a run lasts until its result is written, so a longer interval between writes would delay the
 *   takeover of a dead server's monitors by as much.
 * - The database is the truth: a due monitor is read again before it runs, so a pause, a change
 *   or a push in another process is seen; the owner's changes reach the heap through `updated_at`.
 *   next_run_at is persisted with each result, so a restart neither loses nor doubles a run.
 * - Clean-up (retention) runs on its own timer, never inside a tick.
 * - Several servers on one database (PostgreSQL): every server schedules every monitor, and a due
 *   run is claimed with a lease (repo.claimDue) before it starts, so it runs once. The lease lasts
 *   the run's hard deadline plus the write's delay; writing the result gives it back. A server that
 *   dies keeps its leases until they lapse, then the others run those monitors.
 * Clock and timer are injected: tests drive ticks and deadlines without sleeping.
 */
import type { Clock } from '../../../lib/clock.ts'
import type { CheckDeps, CheckResult, MonitorSpec } from '../kinds/index.ts'
import { runBudgetMs, runMonitor, type RetryPolicy, type Sleep } from './retries.ts'
import { definitionOf } from '../service.ts'
import { hostKey, toSpec } from '../definition.ts'
import { MinHeap } from './heap.ts'
import { LOCAL_REGION } from './regions.ts'
import type { MonitorEvent, MonitorRecorder } from './recorder.ts'
import type { MonitorsRepo } from '../repo.ts'
import type { StoredMonitorType } from '../tables.ts'

export interface Timer {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const systemTimer: Timer = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export type RunCheck = (spec: MonitorSpec, policy: RetryPolicy, sleep: Sleep) => Promise<CheckResult & { attempts: number }>

/** Hears what the scheduler does (metrics); it must not throw. */
export interface SchedulerObserver {
  /** A due run was taken up this late (every kind: checks, push deadlines, probe-only turns). */
  lateness(latenessMs: number): void
  /** A check of this monitor starts on the network; the answer is called when it has ended. */
  checkStarted(monitorId: number, type: StoredMonitorType): () => void
}

export interface SchedulerOptions {
  repo: MonitorsRepo
  recorder: MonitorRecorder
  clock: Clock
  checkDeps: CheckDeps
  timer?: Timer
  tickMs?: number
  /** Finished runs are written at most this often, in one transaction (default 1 s). */
  flushEveryMs?: number
  globalCap?: number
  perHostCap?: number
  /** The check itself (default: the engine's runMonitor with checkDeps). */
  run?: RunCheck
  onError?: (error: unknown) => void
  /** Who this scheduler is when it claims runs (default: a new id per process). */
  leaseOwner?: string
  observer?: SchedulerObserver
}

/** One run's claim on the caps: held while a request of it is on the network. */
interface RunSlot {
  host: string | null
  held: boolean
  /** The run has its result (or its deadline passed): it never takes a slot again. */
  ended: boolean
  resume?: () => void
}

export const SCHEDULER_DEFAULTS = { tickMs: 250, flushEveryMs: 1_000, flushAtPending: 1_000, globalCap: 100, perHostCap: 4, deadlineMarginMs: 1_000, leaseMarginMs: 5_000 } as const

export class MonitorScheduler {
  private readonly heap = new MinHeap()
  /** The valid next run of each scheduled monitor (heap entries that disagree are stale). */
  private readonly scheduled = new Map<number, number>()
  /** Monitors with a run under way or a result not yet written: never started twice. */
  private readonly inFlight = new Map<number, Promise<void>>()
  private readonly hostLoad = new Map<string, number>()
  /** Due runs whose host was full, per host, in due order: back on the heap when a slot frees. */
  private readonly parked = new Map<string, MinHeap>()
  /** Runs back from a retry pause waiting for a slot (first come, first served; before new runs). */
  private readonly resuming: RunSlot[] = []
  private readonly resumingFor = new Map<string, number>()
  /** Each monitor's host as of its last run (a hint; the row read before a run decides). */
  private readonly hostOf = new Map<number, string>()
  private pending: MonitorEvent[] = []
  private watermark = 0
  private loaded = false
  private running = false
  private handle: unknown
  private ticking: Promise<void> | undefined
  private readonly timer: Timer
  private readonly tickMs: number
  private readonly flushEveryMs: number
  private lastFlushAt = Number.NEGATIVE_INFINITY
  private readonly globalCap: number
  private readonly perHostCap: number
  private readonly run: RunCheck
  /** Lateness of each started run (ms after its due time), for the benchmark. */
  readonly lateness: number[] = []
  recordLateness = false
  readonly leaseOwner: string

  constructor(private readonly options: SchedulerOptions) {
    this.timer = options.timer ?? systemTimer
    this.tickMs = options.tickMs ?? SCHEDULER_DEFAULTS.tickMs
    this.flushEveryMs = options.flushEveryMs ?? SCHEDULER_DEFAULTS.flushEveryMs
    this.globalCap = options.globalCap ?? SCHEDULER_DEFAULTS.globalCap
    this.perHostCap = options.perHostCap ?? SCHEDULER_DEFAULTS.perHostCap
    this.run = options.run ?? ((spec, policy, sleep) => runMonitor(spec, options.checkDeps, policy, sleep))
    this.leaseOwner = options.leaseOwner ?? crypto.randomUUID()
  }

  /** Checks on the network right now (not runs in a retry pause, nor finished ones waiting to be written). */
  get active(): number {
    return this.runningNow
  }

  /** What the global cap counts: checks on the network now. Finished runs wait for the write without holding a slot. */
  private runningNow = 0

  /** What the per-host cap counts against: the host's checks on the network and its runs waiting to resume. */
  private loadOf(host: string): number {
    return (this.hostLoad.get(host) ?? 0) + (this.resumingFor.get(host) ?? 0)
  }

  private take(slot: RunSlot): void {
    slot.held = true
    this.runningNow++
    if (slot.host !== null) this.hostLoad.set(slot.host, (this.hostLoad.get(slot.host) ?? 0) + 1)
  }

  private giveBack(slot: RunSlot): void {
    if (!slot.held) return
    slot.held = false
    this.runningNow--
    if (slot.host !== null) this.hostLoad.set(slot.host, (this.hostLoad.get(slot.host) ?? 1) - 1)
  }

  /** A run back from its retry pause: it tries again as soon as both caps allow (an ended run never does). */
  private resume(slot: RunSlot): Promise<void> {
    if (slot.ended) return new Promise(() => {})
    const hostFree = slot.host === null || ((this.hostLoad.get(slot.host) ?? 0) < this.perHostCap && !this.resumingFor.has(slot.host))
    if (this.runningNow < this.globalCap && hostFree) {
      this.take(slot)
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      slot.resume = resolve
      this.resuming.push(slot)
      if (slot.host !== null) this.resumingFor.set(slot.host, (this.resumingFor.get(slot.host) ?? 0) + 1)
    })
  }

  private dropResuming(slot: RunSlot, index = this.resuming.indexOf(slot)): void {
    if (index < 0) return
    this.resuming.splice(index, 1)
    slot.resume = undefined
    if (slot.host !== null) {
      const left = (this.resumingFor.get(slot.host) ?? 1) - 1
      if (left > 0) this.resumingFor.set(slot.host, left)
      else this.resumingFor.delete(slot.host)
    }
  }

  /** A slot freed (a pause began, a run ended): paused runs first, then the host's queue, then due runs. */
  private handOn(host: string | null): void {
    for (let i = 0; i < this.resuming.length && this.runningNow < this.globalCap; ) {
      const slot = this.resuming[i]!
      if (slot.host !== null && (this.hostLoad.get(slot.host) ?? 0) >= this.perHostCap) {
        i++
        continue
      }
      const resume = slot.resume!
      this.dropResuming(slot, i)
      this.take(slot)
      resume()
    }
    if (host !== null) {
      const queue = this.parked.get(host)
      for (let room = this.perHostCap - this.loadOf(host); queue && room > 0 && queue.size > 0; room--) this.heap.push(queue.pop()!)
      if (queue?.size === 0) this.parked.delete(host)
    }
    const top = this.heap.peek()
    if (this.running && top && top.at <= this.options.clock.now() && this.runningNow < this.globalCap) {
      this.startDueSerially().catch((error) => this.options.onError?.(error))
    }
  }

  /** Waits, off the heap, for one of its host's slots. */
  private park(host: string, entry: { id: number; at: number }): void {
    let queue = this.parked.get(host)
    if (!queue) this.parked.set(host, (queue = new MinHeap()))
    queue.push(entry)
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.schedule()
  }

  /**
   * Stops the loop. By default the runs under way finish (each within its hard deadline) and are
   * written. With `abandon`, finished runs are written and unfinished ones dropped: their
   * next_run_at never moved, so they run again after a restart. Either way no run is written twice.
   */
  async stop(options: { abandon?: boolean } = {}): Promise<void> {
    this.running = false
    if (this.handle !== undefined) this.timer.clearTimeout(this.handle)
    this.handle = undefined
    await this.ticking
    if (options.abandon) {
      this.abandoned = true
      await this.flush()
      // Abandoned runs go back at once rather than when their leases lapse.
      await this.options.repo.releaseLeases(this.leaseOwner)
      return
    }
    await this.settle()
  }

  private abandoned = false

  /** Waits for every run under way and writes what is pending (tests and stop). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0 || this.pending.length > 0) {
      await Promise.all([...this.inFlight.values()])
      await this.flush()
    }
  }

  /** One turn of the loop: learn of changes, start what is due, write what finished. */
  tick(): Promise<void> {
    this.ticking ??= this.turn().finally(() => (this.ticking = undefined))
    return this.ticking
  }

  private schedule(): void {
    if (!this.running) return
    this.handle = this.timer.setTimeout(() => {
      void this.tick().finally(() => this.schedule())
    }, this.tickMs)
  }

  private async turn(): Promise<void> {
    try {
      await this.sync()
      await this.startDueSerially()
      // One write transaction per flush interval at most (or sooner when much is waiting): fewer, larger batches.
      const now = this.options.clock.now()
      if (now - this.lastFlushAt >= this.flushEveryMs || this.pending.length >= SCHEDULER_DEFAULTS.flushAtPending) {
        this.lastFlushAt = now
        await this.flush()
      }
    } catch (error) {
      this.options.onError?.(error)
    }
  }

  /** Takes in monitors the owner created, changed, paused or resumed since the last look. */
  private async sync(): Promise<void> {
    const rows = this.loaded ? await this.options.repo.changedSince(this.watermark) : await this.options.repo.allEnabled()
    this.loaded = true
    for (const row of rows) {
      this.watermark = Math.max(this.watermark, row.updated_at)
      if (this.inFlight.has(row.id)) continue
      if ('enabled' in row && row.enabled !== 1) {
        this.scheduled.delete(row.id)
        continue
      }
      if (this.scheduled.get(row.id) === row.next_run_at) continue
      this.scheduled.set(row.id, row.next_run_at)
      this.heap.push({ id: row.id, at: row.next_run_at })
    }
  }

  /**
   * One startDue at a time (the global cap counts what is starting). A finished run calls it too,
   * so a monitor that waited for its host's cap starts when a slot frees, not a whole tick later.
   */
  private startDueSerially(): Promise<void> {
    if (this.starting) {
      this.startAgain = true
      return this.starting
    }
    this.starting = (async () => {
      do {
        this.startAgain = false
        await this.startDue()
      } while (this.startAgain)
    })().finally(() => (this.starting = undefined))
    return this.starting
  }

  private starting: Promise<void> | undefined
  private startAgain = false

  private async startDue(): Promise<void> {
    const now = this.options.clock.now()
    const due: Array<{ id: number; at: number }> = []
    // Runs this batch already plans per host: a monitor whose host (known from its last run) is
    // full waits without a database read, and the scan is bounded so a crowd for one host costs little.
    const planned = new Map<string, number>()
    let scanned = 0
    while (this.runningNow + due.length < this.globalCap && scanned++ < this.globalCap * 4) {
      const top = this.heap.peek()
      if (!top || top.at > now) break
      this.heap.pop()
      if (this.scheduled.get(top.id) !== top.at || this.inFlight.has(top.id)) continue
      const host = this.hostOf.get(top.id)
      if (host) {
        const load = this.loadOf(host) + (planned.get(host) ?? 0)
        if (load >= this.perHostCap) {
          this.park(host, top)
          continue
        }
        planned.set(host, (planned.get(host) ?? 0) + 1)
      }
      due.push(top)
    }
    if (due.length === 0) return
    const rows = new Map((await this.options.repo.findMany(due.map((d) => d.id))).map((row) => [row.id, row]))
    const stillDue = due.filter((entry) => {
      const row = rows.get(entry.id)
      return row !== undefined && row.enabled === 1 && row.next_run_at <= entry.at
    })
    const longestBudget = Math.max(0, ...stillDue.map((entry) => {
      const definition = definitionOf(rows.get(entry.id)!)
      return runBudgetMs(definition.timeoutMs, { retries: definition.retries, retryDelayMs: definition.retryIntervalMs })
    }))
    // A run whose host was not known yet and turns out full frees its place: look at the heap again.
    let learnedBusyHost = false
    const claimed = await this.options.repo.claimDue(stillDue.map((entry) => entry.id), {
      owner: this.leaseOwner,
      now,
      until: now + longestBudget + SCHEDULER_DEFAULTS.deadlineMarginMs + this.flushEveryMs + SCHEDULER_DEFAULTS.leaseMarginMs,
    })
    for (const entry of due) {
      const row = rows.get(entry.id)
      if (!row || row.enabled !== 1) {
        this.scheduled.delete(entry.id)
        continue
      }
      // Moved meanwhile (a push, a resume, another process): wait for the stored time.
      if (row.next_run_at > entry.at) {
        this.scheduled.set(entry.id, row.next_run_at)
        this.heap.push({ id: entry.id, at: row.next_run_at })
        continue
      }
      // Another server holds the run: look again when its lease lapses (by then it has written the
      // result, and the stored next run says when to look next).
      if (!claimed.has(entry.id)) {
        const again = Math.max(row.lease_until ?? 0, now + this.tickMs)
        this.heap.push({ id: entry.id, at: again })
        this.scheduled.set(entry.id, again)
        continue
      }
      const definition = definitionOf(row)
      const host = hostKey(definition)
      if (host === null) this.hostOf.delete(entry.id)
      else this.hostOf.set(entry.id, host)
      if (host !== null && this.loadOf(host) >= this.perHostCap) {
        this.park(host, entry)
        learnedBusyHost = true
        continue
      }
      // The cap filled while the rows were read (paused runs came back first): wait for the next slot.
      if (this.runningNow >= this.globalCap) {
        this.heap.push(entry)
        continue
      }
      this.scheduled.delete(entry.id)
      if (this.recordLateness) this.lateness.push(now - entry.at)
      this.options.observer?.lateness(now - entry.at)
      const spec = toSpec(definition)
      if (!spec) {
        // A push monitor's deadline: the recorder decides whether silence lasted too long.
        this.inFlight.set(entry.id, Promise.resolve())
        this.pending.push({ kind: 'deadline', monitorId: entry.id, scheduledAt: entry.at })
        continue
      }
      if (!definition.regions.includes(LOCAL_REGION)) {
        // Only probes run it: this turn judges its regions again (a silent one turns stale).
        this.inFlight.set(entry.id, Promise.resolve())
        this.pending.push({ kind: 'tick', monitorId: entry.id, scheduledAt: entry.at })
        continue
      }
      const slot: RunSlot = { host, held: false, ended: false }
      this.take(slot)
      const policy: RetryPolicy = { retries: definition.retries, retryDelayMs: definition.retryIntervalMs }
      const budget = runBudgetMs(definition.timeoutMs, policy) + SCHEDULER_DEFAULTS.deadlineMarginMs
      const checkEnded = this.options.observer?.checkStarted(entry.id, definition.type)
      this.inFlight.set(
        entry.id,
        this.runWithDeadline(spec, policy, budget, slot).then((result) => {
          checkEnded?.()
          slot.ended = true
          this.dropResuming(slot)
          this.giveBack(slot)
          if (!this.abandoned) this.pending.push({ kind: 'run', monitorId: entry.id, scheduledAt: entry.at, result })
          this.handOn(host)
        }),
      )
    }
    if (learnedBusyHost && this.runningNow < this.globalCap) this.startAgain = true
  }

  private async runWithDeadline(spec: MonitorSpec, policy: RetryPolicy, budgetMs: number, slot: RunSlot): Promise<CheckResult & { attempts: number }> {
    let handle: unknown
    const deadline = new Promise<CheckResult & { attempts: number }>((resolve) => {
      handle = this.timer.setTimeout(
        () => resolve({ outcome: 'fail', responseTimeMs: null, message: `no result within the run's hard deadline of ${budgetMs} ms`, attempts: policy.retries + 1 }),
        budgetMs,
      )
    })
    // A retry pause sends nothing: its slot serves others meanwhile. The hard deadline runs on.
    const sleep: Sleep = async (ms) => {
      this.giveBack(slot)
      this.handOn(slot.host)
      await new Promise<void>((resolve) => this.timer.setTimeout(() => resolve(), ms))
      await this.resume(slot)
    }
    try {
      return await Promise.race([this.run(spec, policy, sleep), deadline])
    } catch (error) {
      return { outcome: 'fail', responseTimeMs: null, message: `internal error: ${String((error as Error)?.message ?? error).slice(0, 400)}`, attempts: 1 }
    } finally {
      this.timer.clearTimeout(handle)
    }
  }

  /** Writes the finished runs in one transaction, then puts their monitors back on the heap. */
  private async flush(): Promise<void> {
    if (this.pending.length === 0) return
    const batch = this.pending
    this.pending = []
    let nextRuns: Map<number, number>
    try {
      nextRuns = await this.options.recorder.record(batch)
    } catch (error) {
      // Not written: keep the results for the next tick rather than lose them.
      this.pending = [...batch, ...this.pending]
      throw error
    }
    for (const event of batch) {
      this.inFlight.delete(event.monitorId)
      const next = nextRuns.get(event.monitorId)
      if (next === undefined) continue
      this.scheduled.set(event.monitorId, next)
      this.heap.push({ id: event.monitorId, at: next })
    }
  }
}
