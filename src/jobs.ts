/**
 * The server's background jobs: one table of what runs on a timer, how often, and where. The leader
 * is the one process that schedules monitors (with WORKERS=N, worker 1); jobs marked `leaderOnly`
 * run there and nowhere else. `startJobs` starts them and stops them in one loop; `main.ts` calls it.
 */
import { SWEEP_INTERVAL_MS } from './modules/maintenances/sweeper.ts'
import { CHECK_INTERVAL_MS as SLA_CHECK_INTERVAL_MS } from './modules/sla/checker.ts'
import { DOMAIN_SWEEP_MS } from './modules/status-pages/domain-verifier.ts'
import { VENDOR_SWEEP_MS } from './modules/vendor-feeds/service.ts'
import type { Services } from './services.ts'

export interface Job {
  /** Names the job in its error lines. */
  name: string
  /** Milliseconds between two starts (a run that takes longer does not hold the next one back). */
  every: number
  /** Runs only in the leader. */
  leaderOnly: boolean
  /** Also runs once as the jobs start (otherwise the first run is one interval later). */
  atStart?: boolean
  run: () => Promise<unknown>
}

export function backgroundJobs(services: Services): Job[] {
  return [
    // Page views are buffered in memory and written in batches (the last batch on shutdown, by main.ts).
    { name: 'page views', every: 5_000, leaderOnly: false, run: () => services.pageViews.flush() },
    // Check results out of retention are pruned on each ingestion; this catches components that stopped reporting.
    { name: 'pruning checks', every: 3_600_000, leaderOnly: false, run: () => services.checks.pruneAll() },
    // Maintenance windows announce their start and end (once each; the notices are in the database).
    { name: 'maintenance sweeper', every: SWEEP_INTERVAL_MS, leaderOnly: true, run: () => services.maintenanceSweeper.sweep() },
    // Recurring maintenance: occurrences written as windows as they come within the horizon (60 days).
    { name: 'maintenance series', every: 3_600_000, leaderOnly: true, atStart: true, run: () => services.maintenanceSeries.extend() },
    // Raw monitor results past their retention, in small deletes on their own timer (never inside a tick).
    { name: 'pruning monitor results', every: 600_000, leaderOnly: true, run: () => services.monitorRecorder.prune() },
    // Transfer offers past their 7 days expire (and both parties are mailed) even when nobody opens them.
    { name: 'expiring transfers', every: 600_000, leaderOnly: true, run: () => services.transfers.expireDue() },
    // Monitors still down remind the channels they alert (every N minutes, at most M times, unless snoozed).
    { name: 'monitor reminders', every: 60_000, leaderOnly: true, run: () => services.monitorAlerts.remind() },
    // Audit rows past their team's plan retention (plans/roles.ts), in batches.
    { name: 'pruning audit log', every: 3_600_000, leaderOnly: true, run: () => services.audit.prune() },
    // Lapsed password-reset links, a batch at a time.
    { name: 'sweeping reset links', every: 3_600_000, leaderOnly: true, run: () => services.passwordResets.sweep() },
    // SLA breach alerts and the monthly report mail.
    { name: 'SLA checker', every: SLA_CHECK_INTERVAL_MS, leaderOnly: true, run: () => services.slaChecker.run() },
    // Custom domains: checked at start and on a schedule, so links follow a domain once it resolves here
    // and leave it when it stops. Each due check is claimed in the database: several servers never double one.
    // Vendor components: each feed read every few minutes, claimed in the database (never doubled).
    { name: 'vendor feeds', every: VENDOR_SWEEP_MS, leaderOnly: true, atStart: true, run: () => services.vendorFeeds.pollDue() },
    { name: 'custom-domain check', every: DOMAIN_SWEEP_MS, leaderOnly: true, atStart: true, run: () => services.domainVerifier.sweep() },
  ]
}

export interface RunningJobs {
  /** Starts no new run, then waits for the runs in progress (idempotent). */
  stop(): Promise<void>
}

/** Starts the jobs this process runs; a failed run is logged and the job keeps its schedule. */
export function startJobs(jobs: readonly Job[], options: { leader: boolean; onError: (name: string, error: unknown) => void }): RunningJobs {
  const running = new Set<Promise<void>>()
  let stopped = false
  const launch = (job: Job) => {
    if (stopped) return
    const run = (async () => job.run())()
      .then(
        () => undefined,
        (error: unknown) => options.onError(job.name, error),
      )
      .finally(() => running.delete(run))
    running.add(run)
  }
  const timers = jobs
    .filter((job) => options.leader || !job.leaderOnly)
    .map((job) => {
      const timer = setInterval(() => launch(job), job.every)
      if (job.atStart) launch(job)
      return timer
    })
  let stopping: Promise<void> | undefined
  return {
    stop() {
      stopping ??= (async () => {
        stopped = true
        for (const timer of timers) clearInterval(timer)
        await Promise.all(running)
      })()
      return stopping
    },
  }
}
