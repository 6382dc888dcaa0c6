/**
 * Writes what monitors found, many at once: in ONE transaction per batch it reads the monitors'
 * current rows, moves their state with nextState, logs the raw results, records state changes,
 * sets the next run, stores SSL/DNSBL reports and emits their events (tool-state.ts), and feeds the component check store (so sparklines, uptime bars, analytics and
 * badges follow monitors with no second path). After the commit, a component whose monitor changed
 * state takes the worst of its monitors' states through the components service's own status write.
 *
 * A run the configuration refused (outcome `misconfigured`) is logged and moves the monitor's state,
 * but never touches a component: no check goes to the component's store and a change into the
 * misconfigured state refreshes no component status and tells no listener (automatic incidents).
 *
 * Regions (regions.ts, region-state.ts): a monitor that lists regions besides `local` keeps a state
 * per region; the server's runs are region `local`, a probe's results ('probe' events, from
 * src/modules/probes) their own region, and the monitor's state is the k-of-n aggregate, which is
 * all that components, incidents and check roll-ups see. Monitors with only `local` (the default)
 * are recorded exactly as before.
 *
 * A run is recorded at most once: a run scheduled before the monitor's stored next run was already
 * recorded (or overtaken by a pause and resume), so it is dropped. That makes a stop, a restart or
 * a second scheduler unable to double a run.
 */
import type { Db } from '../../../db/client.ts'
import type { ChangeFeed } from '../../../lib/change-feed.ts'
import type { Clock } from '../../../lib/clock.ts'
import type { ChecksService } from '../../checks/service.ts'
import type { ComponentsService } from '../../components/service.ts'
import type { ComponentStatus } from '../../components/tables.ts'
import type { NotifyCause } from '../../notify/contract.ts'
import { componentStatusFromMonitors } from './component-status.ts'
import { pushDeadline, pushOverdue, type PushClock } from './push.ts'
import { MonitorsRepo, type MonitorRow, type RegionStateRow } from '../repo.ts'
import type { CheckResult } from '../kinds/spec.ts'
import { decodeHistory, encodeHistory, nextState, type MonitorState, type StateSnapshot } from './state.ts'
import { recordToolReport, type EventSink } from '../tool-state.ts'
import { DEFAULTS } from '../kinds/spec.ts'
import { isLocalOnly, LOCAL_REGION, regionsOf } from './regions.ts'
import { regionalStep } from './region-state.ts'

/** Something to record for one monitor. */
export type MonitorEvent =
  /** A finished run of an active check, for the run that was due at `scheduledAt`. */
  | { kind: 'run'; monitorId: number; scheduledAt: number; result: CheckResult & { attempts: number } }
  /** A push monitor's deadline came: silence is a failure, unless a push arrived meanwhile. */
  | { kind: 'deadline'; monitorId: number; scheduledAt: number }
  /** A push arrived. */
  | { kind: 'push'; monitorId: number; result: CheckResult }
  /** The server's turn of a monitor it does not run itself (no `local` region): the aggregate is judged again (staleness). */
  | { kind: 'tick'; monitorId: number; scheduledAt: number }
  /** A probe's result in another region (src/modules/probes): never moves the schedule or a lease. */
  | { kind: 'probe'; monitorId: number; region: string; scheduledAt: number; result: CheckResult & { attempts?: number } }

/**
 * Raw results older than this are deleted (documented in src/content/docs/monitors.md): 1,000
 * monitors at 30 s write 2.88 M rows a day, so raw results are kept one day; the minute buckets
 * (2 days) and day buckets (for good) of the check store keep the figures.
 */
export const RESULT_RETENTION_MS = 24 * 3_600_000

/** A change into `misconfigured` leaves the component as it was: the monitor measured nothing. */
const touchesComponent = (state: MonitorState): boolean => state !== 'misconfigured'

export function snapshotOf(row: Pick<MonitorRow, 'state' | 'state_since' | 'flapping' | 'history'>): StateSnapshot {
  return { state: row.state, since: row.state_since, flapping: row.flapping === 1, history: decodeHistory(row.history) }
}

export function pushClockOf(row: Pick<MonitorRow, 'last_push_at' | 'watching_since' | 'interval_s' | 'options_json'>): PushClock {
  const grace = (JSON.parse(row.options_json) as { push_grace_seconds?: number }).push_grace_seconds ?? DEFAULTS.pushGraceSeconds
  return { lastPushAt: row.last_push_at, watchingSince: row.watching_since, intervalSeconds: row.interval_s, graceSeconds: grace }
}

/** The first run time after `now` on the monitor's grid (scheduledAt + k × interval): late runs never bunch up. */
export function nextRunAfter(scheduledAt: number, intervalMs: number, now: number): number {
  if (scheduledAt > now) return scheduledAt + intervalMs
  return scheduledAt + (Math.floor((now - scheduledAt) / intervalMs) + 1) * intervalMs
}

/** Hears a monitored component's confirmed state after a run changed it (automatic incidents). */
export interface ConfirmedStateListener {
  confirmedState(componentId: number, status: ComponentStatus, cause?: NotifyCause): Promise<unknown>
}
/**
 * Called in the recorder's transaction after a run's result is written (the row as it was read):
 * a monitor type's own bookkeeping and notices (e.g. email-auth changes) ride the same commit.
 */
export type ResultHook = (db: Db, monitor: MonitorRow, result: CheckResult, at: number) => Promise<void>

export class MonitorRecorder {
  private readonly resultHooks: ResultHook[] = []

  /** Registers a hook (composition root). */
  onResult(hook: ResultHook): this {
    this.resultHooks.push(hook)
    return this
  }

  constructor(
    private readonly repo: MonitorsRepo,
    private readonly checks: ChecksService,
    private readonly components: ComponentsService,
    private readonly clock: Clock,
    private readonly changes: ChangeFeed,
    private readonly listener?: ConfirmedStateListener,
    /** SSL and DNSBL events (certificate.expiring/renewed, dnsbl.listed/delisted) go here, in the transaction. */
    private readonly events?: EventSink,
  ) {}

  /** Records the events in one transaction; answers each monitor's next run (absent: drop it from the schedule). */
  async record(events: readonly MonitorEvent[]): Promise<Map<number, number>> {
    const nextRuns = new Map<number, number>()
    if (events.length === 0) return nextRuns
    const changedComponents = new Set<number>()
    /** Per component, the monitors whose state changed in this batch: what its notifications name. */
    const changedMonitors = new Map<number, number[]>()
    const touchedPages = new Set<number>()
    await this.checks.recordBatch(async (trx) => {
      const repo = new MonitorsRepo(trx)
      const rows = new Map((await repo.findMany([...new Set(events.map((e) => e.monitorId))])).map((row) => [row.id, row]))
      // Monitors with regions besides `local` keep a state per region (region-state.ts).
      const regionStates = await repo.regionStates([...rows.values()].filter((row) => !isLocalOnly(row)).map((row) => row.id))
      const statesOf = (id: number) => {
        let states = regionStates.get(id)
        if (!states) regionStates.set(id, (states = new Map()))
        return states
      }
      // Each region's newest state, written once at the end of the batch.
      const regionWrites = new Map<string, RegionStateRow>()
      const results: Array<{ monitor_id: number; at: number; outcome: string; response_ms: number | null; status_code: number | null; attempts: number; message: string; region: string | null }> = []
      const stateChanges: Array<{ monitor_id: number; state: string; at: number }> = []
      const checksByComponent = new Map<number, Array<{ at: number; ok: boolean; responseMs: number | null }>>()
      const componentChecks = (componentId: number) => {
        let list = checksByComponent.get(componentId)
        if (!list) checksByComponent.set(componentId, (list = []))
        return list
      }
      for (const event of events) {
        const row = rows.get(event.monitorId)
        if (!row || row.enabled !== 1) continue
        const now = this.clock.now()
        if (event.kind === 'probe') {
          // Only a region the monitor lists, and each probe run once (a batch pushed again is dropped).
          if (isLocalOnly(row) || event.region === LOCAL_REGION || !regionsOf(row).includes(event.region)) continue
          const states = statesOf(row.id)
          const previous = states.get(event.region)
          if (previous && event.scheduledAt <= previous.last_scheduled_at) continue
          const at = Math.min(now, event.scheduledAt)
          const step = regionalStep(row, states, { region: event.region, scheduledAt: event.scheduledAt, result: event.result, at }, now)
          regionWrites.set(`${row.id} ${step.regionRow!.region}`, step.regionRow!)
          const changes = {
            state: step.state,
            state_since: step.since,
            flapping: step.flapping ? 1 : 0,
            ...(row.last_check_at === null || at >= row.last_check_at
              ? { last_check_at: at, last_outcome: event.result.outcome, last_response_ms: event.result.responseTimeMs, last_message: event.result.message }
              : {}),
          }
          await repo.update(row.id, changes)
          Object.assign(row, changes)
          results.push({
            monitor_id: row.id,
            at,
            outcome: event.result.outcome,
            response_ms: event.result.responseTimeMs,
            status_code: event.result.statusCode ?? null,
            attempts: event.result.attempts ?? 1,
            message: event.result.message,
            region: event.region,
          })
          if (step.changed) stateChanges.push({ monitor_id: row.id, state: step.state, at: now })
          if (row.component_id !== null) {
            // Downstream sees the aggregate only: a check is good unless the monitor is down.
            if (event.result.outcome !== 'misconfigured') componentChecks(row.component_id).push({ at, ok: step.state !== 'down', responseMs: event.result.responseTimeMs })
            if (step.changed && touchesComponent(step.state)) changedComponents.add(row.component_id)
            if (row.page_id !== null) touchedPages.add(row.page_id)
          }
          continue
        }
        let result: (CheckResult & { attempts?: number }) | null
        let nextRunAt: number
        let lastPushAt = row.last_push_at
        if (event.kind === 'push') {
          result = event.result
          lastPushAt = now
          nextRunAt = pushDeadline({ ...pushClockOf(row), lastPushAt }) + 1
        } else {
          // Already recorded, or overtaken by a pause and resume: never twice.
          if (event.scheduledAt < row.next_run_at) {
            nextRuns.set(row.id, row.next_run_at)
            continue
          }
          if (event.kind === 'deadline') {
            result = pushOverdue(pushClockOf(row), now)
            nextRunAt = result ? now + row.interval_s * 1000 : pushDeadline(pushClockOf(row)) + 1
          } else if (event.kind === 'tick') {
            result = null
            nextRunAt = nextRunAfter(event.scheduledAt, row.interval_s * 1000, now)
          } else {
            result = event.result
            nextRunAt = nextRunAfter(event.scheduledAt, row.interval_s * 1000, now)
          }
        }
        nextRuns.set(row.id, nextRunAt)
        if (!result) {
          // A tick of a monitor only probes run: its regions' staleness is judged again.
          const regional = event.kind === 'tick' && !isLocalOnly(row) ? regionalStep(row, statesOf(row.id), null, now) : null
          const changes = {
            next_run_at: nextRunAt,
            lease_owner: null,
            lease_until: null,
            ...(regional ? { state: regional.state, state_since: regional.since, flapping: regional.flapping ? 1 : 0 } : {}),
          }
          await repo.update(row.id, changes)
          Object.assign(row, changes)
          if (regional?.changed) {
            stateChanges.push({ monitor_id: row.id, state: regional.state, at: now })
            if (row.component_id !== null && touchesComponent(regional.state)) changedComponents.add(row.component_id)
          }
          continue
        }
        let transition: { changed: boolean; next: { state: MonitorState; since: number; flapping: boolean; history: string } }
        if (isLocalOnly(row)) {
          const own = nextState(snapshotOf(row), result.outcome, { confirmFailures: row.confirm_failures, confirmSuccesses: row.confirm_successes }, now)
          transition = { changed: own.changed, next: { ...own.next, history: encodeHistory(own.next.history) } }
        } else {
          // The server's own region of a monitor that probes run too: the k-of-n aggregate decides.
          const step = regionalStep(row, statesOf(row.id), { region: LOCAL_REGION, scheduledAt: event.kind === 'run' ? event.scheduledAt : now, result, at: now }, now)
          regionWrites.set(`${row.id} ${step.regionRow!.region}`, step.regionRow!)
          transition = { changed: step.changed, next: { state: step.state, since: step.since, flapping: step.flapping, history: row.history } }
        }
        const next = transition.next
        const changes = {
          state: next.state,
          state_since: next.since,
          flapping: next.flapping ? 1 : 0,
          history: next.history,
          next_run_at: nextRunAt,
          last_check_at: now,
          last_outcome: result.outcome,
          last_response_ms: result.responseTimeMs,
          last_message: result.message,
          last_push_at: lastPushAt,
          // Written: the run's lease is given back (scheduler.ts).
          lease_owner: null,
          lease_until: null,
        }
        await repo.update(row.id, changes)
        if (event.kind === 'run' && result.report) {
          await recordToolReport(trx, result.report, { monitorId: row.id, ownerId: row.owner_id, pageId: row.page_id, target: row.target ?? '' }, now, this.events)
        }
        for (const hook of this.resultHooks) await hook(trx, row, result, now)
        // Later events of the same monitor in this batch build on this one.
        Object.assign(row, changes)
        results.push({
          monitor_id: row.id,
          at: now,
          outcome: result.outcome,
          response_ms: result.responseTimeMs,
          status_code: result.statusCode ?? null,
          attempts: result.attempts ?? 1,
          message: result.message,
          region: null,
        })
        if (transition.changed) stateChanges.push({ monitor_id: row.id, state: next.state, at: now })
        if (row.component_id !== null) {
          // With regions, downstream sees the aggregate only: a check is good unless the monitor is down.
          if (result.outcome !== 'misconfigured') componentChecks(row.component_id).push({ at: now, ok: isLocalOnly(row) ? result.outcome !== 'fail' : next.state !== 'down', responseMs: result.responseTimeMs })
          if (transition.changed && touchesComponent(next.state)) changedComponents.add(row.component_id)
          if (row.page_id !== null) touchedPages.add(row.page_id)
        }
      }
      await repo.saveRegionStates([...regionWrites.values()])
      await repo.insertResults(results)
      await repo.insertStateChanges(stateChanges)
      for (const change of stateChanges) {
        const componentId = rows.get(change.monitor_id)?.component_id ?? null
        if (componentId !== null) changedMonitors.set(componentId, [...(changedMonitors.get(componentId) ?? []), change.monitor_id])
      }
      return [...checksByComponent].map(([componentId, checks]) => ({ componentId, checks }))
      // The raw log is monitor_results: one raw row per result, not two.
    }, { raw: false })
    for (const componentId of changedComponents) {
      // What one change causes (the component's status, the automatic incident) is one message per channel.
      const cause: NotifyCause = { key: `monitors:${componentId}:${crypto.randomUUID()}`, monitorIds: [...new Set(changedMonitors.get(componentId))] }
      try {
        const status = await this.refreshComponent(componentId, cause)
        if (status !== null) await this.listener?.confirmedState(componentId, status, cause)
      } finally {
        await this.events?.flush?.(cause.key)
      }
    }
    // A status change was published by applyMonitorStatus; what is left is new results.
    for (const pageId of touchedPages) this.changes.pageChanged(pageId, { resultsOnly: true })
    return nextRuns
  }

  /** Gives the component the worst state of its monitors (unless the owner overrides it). */
  async refreshComponent(componentId: number, cause?: NotifyCause): Promise<ComponentStatus | null> {
    const status = componentStatusFromMonitors(await this.repo.componentMonitorStates(componentId))
    if (status !== null) await this.components.applyMonitorStatus(componentId, status, cause)
    return status
  }

  /** Deletes raw results past the retention, in small transactions so a run's writes never wait long. */
  async prune(batchSize = 5_000): Promise<number> {
    const before = this.clock.now() - RESULT_RETENTION_MS
    let total = 0
    for (;;) {
      const deleted = await this.repo.pruneResults(before, batchSize)
      total += deleted
      if (deleted < batchSize) return total
      // Let the scheduler's writes in between two deletes.
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  }
}
