/**
 * Dependencies between monitors (pure): a monitor may name parent monitors (the router in front of
 * it, the database behind it). While a parent is down, or itself unreachable, the child is
 * `unreachable`: its runs go on and are logged, but it sends no alert, opens no incident, feeds no
 * check to its component and leaves the component's status as it is.
 *
 * One outage of a parent is one alert for the whole tree, whichever monitor runs first: a child
 * whose own checks would make it down WAITS (keeps the state it had) while a parent is still
 * confirming a failure, or has not checked since the child's failures began. It waits at most until
 * the parent could have confirmed its own outage (its next checks, bounded by MAX_WAIT_MS), then it
 * is down on its own like any monitor.
 *
 * After `unreachable` the next measured run stands on its own (state.ts treats it as unmeasured),
 * as after `pending`: the failures seen while the parent was down do not count against the child.
 */
import type { MonitorRow } from '../repo.ts'
import type { EventStep } from './record-steps.ts'
import type { MonitorState } from './state.ts'

/** A child waits for its parents at most this long after its failures began. */
export const MAX_WAIT_MS = 10 * 60_000
/** Room for a parent's run to be taken up and recorded after it falls due. */
const WAIT_SLACK_MS = 5_000
/** Parents per monitor at most. */
export const MAX_PARENTS = 20

/** What a child needs to know of one parent (its row as read in the batch). */
export interface ParentFacts {
  id: number
  name: string
  state: MonitorState
  enabled: boolean
  lastCheckAt: number | null
  lastOutcome: string | null
  nextRunAt: number
  intervalMs: number
  confirmFailures: number
  /** The longest a run of the parent takes (timeout × attempts, retry waits). */
  runBudgetMs: number
}

export type ParentVerdict =
  /** No parent stands in the way: the child's own state stands. */
  | { kind: 'free' }
  /** These parents are down (or unreachable): the child is unreachable. */
  | { kind: 'unreachable'; parents: ParentFacts[] }
  /** These parents may be going down: a child about to be down waits for them. */
  | { kind: 'wait'; parents: ParentFacts[] }

/** The row's columns a parent's facts come from. */
export interface ParentRow {
  id: number
  name: string
  state: MonitorState
  enabled: number
  last_check_at: number | null
  last_outcome: string | null
  next_run_at: number
  interval_s: number
  confirm_failures: number
  timeout_ms: number
  retries: number
  retry_interval_ms: number
}

export function parentFacts(row: ParentRow): ParentFacts {
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    enabled: row.enabled === 1,
    lastCheckAt: row.last_check_at,
    lastOutcome: row.last_outcome,
    nextRunAt: row.next_run_at,
    intervalMs: row.interval_s * 1000,
    confirmFailures: row.confirm_failures,
    runBudgetMs: row.timeout_ms * (row.retries + 1) + row.retry_interval_ms * row.retries,
  }
}

const downish = (state: MonitorState) => state === 'down' || state === 'unreachable'

/**
 * Where the parents leave a child now. `child`: its interval and how many failing runs make it
 * down, so when its current failures began (`now` minus the runs before this one).
 */
export function parentVerdict(parents: readonly ParentFacts[], child: { intervalMs: number; confirmFailures: number }, now: number): ParentVerdict {
  // A paused parent says nothing about the child.
  const active = parents.filter((parent) => parent.enabled)
  const down = active.filter((parent) => downish(parent.state))
  if (down.length > 0) return { kind: 'unreachable', parents: down }
  const failingSince = now - Math.max(0, child.confirmFailures - 1) * child.intervalMs
  const waiting = active.filter((parent) => parent.state !== 'misconfigured' && now <= waitUntil(parent, failingSince))
  return waiting.length > 0 ? { kind: 'wait', parents: waiting } : { kind: 'free' }
}

/**
 * Until when a child whose failures began at `failingSince` waits for `parent` (a time in the past:
 * not at all). A parent whose last run failed is confirming: until its remaining runs are done. A
 * parent that has not run since the child's failures began: until its next run is recorded.
 */
export function waitUntil(parent: ParentFacts, failingSince: number): number {
  const cap = failingSince + MAX_WAIT_MS
  if (parent.lastOutcome === 'fail' && parent.lastCheckAt !== null) {
    return Math.min(cap, parent.lastCheckAt + Math.max(0, parent.confirmFailures - 1) * parent.intervalMs + parent.runBudgetMs + WAIT_SLACK_MS)
  }
  if (parent.lastCheckAt === null || parent.lastCheckAt < failingSince) {
    return Math.min(cap, Math.max(parent.nextRunAt, failingSince) + parent.runBudgetMs + WAIT_SLACK_MS)
  }
  // It ran since, and that run did not fail: it is not going down.
  return Number.NEGATIVE_INFINITY
}

/**
 * The child's state once its parents are taken into account. `proposed`: what its own runs say;
 * `failedNow`: whether the run that decides it failed (a child leaving `unreachable` is down only
 * on a failure of its own, not on what its regions kept from the parent's outage).
 */
export function stateWithParents(previous: MonitorState, proposed: MonitorState, verdict: ParentVerdict, failedNow: boolean): MonitorState {
  // A configuration that refuses its runs is the owner's to fix, whatever the parents do.
  if (proposed === 'misconfigured') return proposed
  if (verdict.kind === 'unreachable') return 'unreachable'
  if (proposed !== 'down' || previous === 'down') return proposed
  if (verdict.kind === 'wait') return previous
  return previous === 'unreachable' && !failedNow ? previous : proposed
}

/**
 * One recorded event's step (record-steps.ts) with the monitor's parents taken into account: the
 * state, its start, whether it changed, and what reaches the component. Without parents, or for a
 * step that moves no state, the step as it was.
 */
export function stepWithParents(
  step: EventStep | null,
  row: Pick<MonitorRow, 'state' | 'state_since' | 'interval_s' | 'confirm_failures'>,
  parents: readonly ParentFacts[],
  now: number,
): EventStep | null {
  const proposed = step?.changes?.state
  if (!step?.changes || proposed === undefined || parents.length === 0) return step
  const verdict = parentVerdict(parents, { intervalMs: row.interval_s * 1000, confirmFailures: row.confirm_failures }, now)
  const state = stateWithParents(row.state, proposed, verdict, step.logged?.outcome === 'fail')
  if (state === proposed && state !== 'unreachable') return step
  const changed = state !== row.state
  const { componentCheck, changedTo: _changedTo, ...rest } = step
  return {
    ...rest,
    changes: { ...step.changes, state, state_since: !changed ? row.state_since : state === proposed ? (step.changes.state_since ?? now) : now },
    ...(changed ? { changedTo: state } : {}),
    componentChanged: changed && state !== 'unreachable' && state !== 'misconfigured',
    // While unreachable the child's failures are its parent's: none reaches its component's checks.
    ...(state !== 'unreachable' && componentCheck ? { componentCheck } : {}),
  }
}

/** Why a monitor is unreachable, or waits, in words: `Router is down`, `Router and DB are down`. */
export function parentsText(parents: readonly Pick<ParentFacts, 'name' | 'state'>[]): string {
  const names = parents.map((parent) => `"${parent.name}"`)
  const list = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  const allUnreachable = parents.every((parent) => parent.state === 'unreachable')
  return `${list} ${names.length === 1 ? 'is' : 'are'} ${allUnreachable ? 'unreachable' : 'down'}`
}

/** The parent ids reachable upwards from `start` (its parents, theirs…) include `target`: adding the edge would close a cycle. */
export function closesCycle(target: number, start: readonly number[], parentsOf: (id: number) => readonly number[]): boolean {
  const seen = new Set<number>()
  const queue = [...start]
  while (queue.length > 0) {
    const id = queue.pop()!
    if (id === target) return true
    if (seen.has(id)) continue
    seen.add(id)
    queue.push(...parentsOf(id))
  }
  return false
}
