/**
 * What one recorded event does to its monitor, one pure step per event kind: worked out from the
 * monitor's row and its regions' rows as read in the batch, with no database. The recorder
 * (recorder.ts) writes the steps, in order, in its one transaction per batch.
 */
import type { CheckResult, ToolReport } from '../kinds/index.ts'
import { clipMessage, DEFAULTS } from '../kinds/index.ts'
import type { MonitorRow, RegionStateRow } from '../repo.ts'
import { pushCronOf, pushDeadline, pushOverdue, type PushClock } from './push.ts'
import { isLocalOnly, LOCAL_REGION, regionsOf } from './regions.ts'
import { regionalStep } from './region-state.ts'
import { decodeHistory, encodeHistory, nextState, type MonitorState, type StateSnapshot } from './state.ts'

/** Something to record for one monitor. */
export type MonitorEvent =
  /** A finished run of an active check, for the run that was due at `scheduledAt`. */
  | { kind: 'run'; monitorId: number; scheduledAt: number; result: CheckResult & { attempts: number } }
  /** A push monitor's deadline came: silence is a failure, unless a push arrived meanwhile. */
  | { kind: 'deadline'; monitorId: number; scheduledAt: number }
  /** A push arrived: a run's end (its result), or `start` (/start: a run began; no result yet). */
  | { kind: 'push'; monitorId: number; result: CheckResult; start?: boolean }
  /** The server's turn of a monitor it does not run itself (no `local` region): the aggregate is judged again (staleness). */
  | { kind: 'tick'; monitorId: number; scheduledAt: number }
  /** A probe's result in another region (src/modules/probes): never moves the schedule or a lease. */
  | { kind: 'probe'; monitorId: number; region: string; scheduledAt: number; result: CheckResult & { attempts?: number } }

/** A row of monitor_results. */
export interface LoggedResult {
  monitor_id: number
  at: number
  outcome: string
  response_ms: number | null
  status_code: number | null
  attempts: number
  message: string
  region: string | null
}

/** What one event does. Absent fields: nothing of that sort. */
export interface EventStep {
  /** The monitor's next run, answered to the scheduler. */
  nextRunAt?: number
  /** Columns of the monitor's row to write; later events of the batch build on them. */
  changes?: Partial<MonitorRow>
  /** A region's newest state, written once at the end of the batch. */
  regionRow?: RegionStateRow
  logged?: LoggedResult
  /** A result the server took (run, push, deadline): the result hooks hear it, in the transaction. */
  ownResult?: CheckResult
  /** An SSL or DNSBL report of a run, stored with its events. */
  report?: ToolReport
  /** The monitor's new state, when it changed. */
  changedTo?: MonitorState
  /** For the monitor's component (if any): a check for its store, whether its status is worked out again, whether its page shows new results. */
  componentCheck?: { at: number; ok: boolean; responseMs: number | null }
  componentChanged?: boolean
  pageTouched?: boolean
}

/** Each monitor's region rows as read for the batch, updated in place by later events. */
export type RegionStatesOf = (monitorId: number) => Map<string, RegionStateRow>

/** A change into `misconfigured` leaves the component as it was: the monitor measured nothing. */
const touchesComponent = (state: MonitorState): boolean => state !== 'misconfigured'

export function snapshotOf(row: Pick<MonitorRow, 'state' | 'state_since' | 'flapping' | 'history'>): StateSnapshot {
  return { state: row.state, since: row.state_since, flapping: row.flapping === 1, history: decodeHistory(row.history) }
}

export function pushClockOf(row: Pick<MonitorRow, 'last_push_at' | 'watching_since' | 'interval_s' | 'options_json' | 'push_started_at'>): PushClock {
  const options = JSON.parse(row.options_json) as { push_grace_seconds?: number; cron?: string | null; cron_timezone?: string }
  const grace = options.push_grace_seconds ?? DEFAULTS.pushGraceSeconds
  return { lastPushAt: row.last_push_at, watchingSince: row.watching_since, intervalSeconds: row.interval_s, graceSeconds: grace, cron: pushCronOf(options), startedAt: row.push_started_at ?? null }
}

/** The first run time after `now` on the monitor's grid (scheduledAt + k × interval): late runs never bunch up. */
export function nextRunAfter(scheduledAt: number, intervalMs: number, now: number): number {
  if (scheduledAt > now) return scheduledAt + intervalMs
  return scheduledAt + (Math.floor((now - scheduledAt) / intervalMs) + 1) * intervalMs
}

const logged = (row: MonitorRow, at: number, result: CheckResult & { attempts?: number }, region: string | null): LoggedResult => ({
  monitor_id: row.id,
  at,
  outcome: result.outcome,
  response_ms: result.responseTimeMs,
  status_code: result.statusCode ?? null,
  attempts: result.attempts ?? 1,
  message: result.message,
  region,
})

/** A probe's result: its region's state, and the monitor's k-of-n aggregate. Null: dropped (a region not listed, or a run already recorded). */
export function probeStep(row: MonitorRow, event: Extract<MonitorEvent, { kind: 'probe' }>, statesOf: RegionStatesOf, now: number): EventStep | null {
  // Only a region the monitor lists, and each probe run once (a batch pushed again is dropped).
  if (isLocalOnly(row) || event.region === LOCAL_REGION || !regionsOf(row).includes(event.region)) return null
  const states = statesOf(row.id)
  const previous = states.get(event.region)
  if (previous && event.scheduledAt <= previous.last_scheduled_at) return null
  const at = Math.min(now, event.scheduledAt)
  const step = regionalStep(row, states, { region: event.region, scheduledAt: event.scheduledAt, result: event.result, at }, now)
  return {
    changes: {
      state: step.state,
      state_since: step.since,
      flapping: step.flapping ? 1 : 0,
      ...(row.last_check_at === null || at >= row.last_check_at
        ? { last_check_at: at, last_outcome: event.result.outcome, last_response_ms: event.result.responseTimeMs, last_message: event.result.message }
        : {}),
    },
    regionRow: step.regionRow!,
    logged: logged(row, at, event.result, event.region),
    ...(step.changed ? { changedTo: step.state } : {}),
    // Downstream sees the aggregate only: a check is good unless the monitor is down.
    ...(event.result.outcome !== 'misconfigured' ? { componentCheck: { at, ok: step.state !== 'down', responseMs: event.result.responseTimeMs } } : {}),
    componentChanged: step.changed && touchesComponent(step.state),
    pageTouched: true,
  }
}

/**
 * A push: the result as the job sent it, and the next deadline counted from now. `/start` records no
 * result: the run must end within the grace. A run's end measures its duration (the response time).
 */
export function pushStep(row: MonitorRow, event: Extract<MonitorEvent, { kind: 'push' }>, statesOf: RegionStatesOf, now: number): EventStep {
  const clock = pushClockOf(row)
  if (event.start) {
    const nextRunAt = pushDeadline({ ...clock, startedAt: now }) + 1
    // updated_at: the deadline may move earlier, and schedulers see that through it (scheduler.ts sync).
    return { nextRunAt, changes: { push_started_at: now, next_run_at: nextRunAt, lease_owner: null, lease_until: null, updated_at: now } }
  }
  const started = clock.startedAt != null && clock.startedAt >= clock.watchingSince ? clock.startedAt : null
  const result = started === null ? event.result : { ...event.result, responseTimeMs: now - started, message: clipMessage(`${event.result.message} (the run took ${formatRunDuration(now - started)})`) }
  const nextRunAt = pushDeadline({ ...clock, lastPushAt: now, startedAt: null }) + 1
  const step = resultStep(row, result, { nextRunAt, lastPushAt: now, scheduledAt: now, report: false }, statesOf, now)
  return { ...step, changes: { ...step.changes, push_started_at: null } }
}

/** "850 ms", "42 s", "3 min 5 s". */
function formatRunDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  const seconds = Math.round(ms / 1000)
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

/** A push monitor's deadline: a failure when the silence lasted past interval and grace, else the deadline moves. */
export function deadlineStep(row: MonitorRow, event: Extract<MonitorEvent, { kind: 'deadline' }>, statesOf: RegionStatesOf, now: number): EventStep {
  const result = pushOverdue(pushClockOf(row), now)
  if (!result) return scheduleStep(row, pushDeadline(pushClockOf(row)) + 1, null)
  return resultStep(row, result, { nextRunAt: now + row.interval_s * 1000, lastPushAt: row.last_push_at, scheduledAt: now, report: false }, statesOf, now)
}

/** The server's turn of a monitor only probes run: its regions' staleness is judged again. */
export function tickStep(row: MonitorRow, event: Extract<MonitorEvent, { kind: 'tick' }>, statesOf: RegionStatesOf, now: number): EventStep {
  const nextRunAt = nextRunAfter(event.scheduledAt, row.interval_s * 1000, now)
  return scheduleStep(row, nextRunAt, isLocalOnly(row) ? null : regionalStep(row, statesOf(row.id), null, now))
}

/** A finished run of the server's own check. */
export function runStep(row: MonitorRow, event: Extract<MonitorEvent, { kind: 'run' }>, statesOf: RegionStatesOf, now: number): EventStep {
  const nextRunAt = nextRunAfter(event.scheduledAt, row.interval_s * 1000, now)
  return resultStep(row, event.result, { nextRunAt, lastPushAt: row.last_push_at, scheduledAt: event.scheduledAt, report: true }, statesOf, now)
}

/** The next run and the lease given back, with no result (and the aggregate judged again, for a tick). */
function scheduleStep(row: MonitorRow, nextRunAt: number, regional: ReturnType<typeof regionalStep> | null): EventStep {
  return {
    nextRunAt,
    changes: {
      next_run_at: nextRunAt,
      lease_owner: null,
      lease_until: null,
      ...(regional ? { state: regional.state, state_since: regional.since, flapping: regional.flapping ? 1 : 0 } : {}),
    },
    ...(regional?.changed ? { changedTo: regional.state, componentChanged: touchesComponent(regional.state) } : {}),
  }
}

/** A result the server took: the monitor's state moves (its own, or its `local` region's and the aggregate). */
function resultStep(
  row: MonitorRow,
  result: CheckResult & { attempts?: number },
  run: { nextRunAt: number; lastPushAt: number | null; scheduledAt: number; report: boolean },
  statesOf: RegionStatesOf,
  now: number,
): EventStep {
  let transition: { changed: boolean; next: { state: MonitorState; since: number; flapping: boolean; history: string } }
  let regionRow: RegionStateRow | undefined
  if (isLocalOnly(row)) {
    const own = nextState(snapshotOf(row), result.outcome, { confirmFailures: row.confirm_failures, confirmSuccesses: row.confirm_successes }, now)
    transition = { changed: own.changed, next: { ...own.next, history: encodeHistory(own.next.history) } }
  } else {
    // The server's own region of a monitor that probes run too: the k-of-n aggregate decides.
    const step = regionalStep(row, statesOf(row.id), { region: LOCAL_REGION, scheduledAt: run.scheduledAt, result, at: now }, now)
    regionRow = step.regionRow!
    transition = { changed: step.changed, next: { state: step.state, since: step.since, flapping: step.flapping, history: row.history } }
  }
  const next = transition.next
  return {
    nextRunAt: run.nextRunAt,
    changes: {
      state: next.state,
      state_since: next.since,
      flapping: next.flapping ? 1 : 0,
      history: next.history,
      next_run_at: run.nextRunAt,
      last_check_at: now,
      last_outcome: result.outcome,
      last_response_ms: result.responseTimeMs,
      last_message: result.message,
      last_push_at: run.lastPushAt,
      // Written: the run's lease is given back (scheduler.ts).
      lease_owner: null,
      lease_until: null,
    },
    ...(regionRow ? { regionRow } : {}),
    logged: logged(row, now, result, null),
    ownResult: result,
    ...(run.report && result.report ? { report: result.report } : {}),
    ...(transition.changed ? { changedTo: next.state } : {}),
    // With regions, downstream sees the aggregate only: a check is good unless the monitor is down.
    ...(result.outcome !== 'misconfigured'
      ? { componentCheck: { at: now, ok: isLocalOnly(row) ? result.outcome !== 'fail' : next.state !== 'down', responseMs: result.responseTimeMs } }
      : {}),
    componentChanged: transition.changed && touchesComponent(next.state),
    pageTouched: true,
  }
}

/**
 * The step of one event. Scheduled events (all but push and probe) already recorded, or overtaken
 * by a pause and resume, only answer the stored next run: a run is never recorded twice.
 */
export function stepOf(row: MonitorRow, event: MonitorEvent, statesOf: RegionStatesOf, now: number): EventStep | null {
  switch (event.kind) {
    case 'probe':
      return probeStep(row, event, statesOf, now)
    case 'push':
      return pushStep(row, event, statesOf, now)
    default:
      if (event.scheduledAt < row.next_run_at) return { nextRunAt: row.next_run_at }
      return event.kind === 'deadline' ? deadlineStep(row, event, statesOf, now) : event.kind === 'tick' ? tickStep(row, event, statesOf, now) : runStep(row, event, statesOf, now)
  }
}
