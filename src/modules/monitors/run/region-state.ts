/**
 * One step of a monitor with regions besides `local` (pure; the recorder stores what it answers):
 * the region's result moves that region's own state with nextState, then the monitor's state is
 * the k-of-n aggregate of all its regions (regions.ts). Without a result (the server's tick of a
 * monitor it does not run itself) only the aggregate is judged again, so a silent region turns
 * stale even when nothing else reports.
 */
import type { RegionStateRow } from '../repo.ts'
import { aggregateRegions, regionsOf, type RegionSnapshot } from './regions.ts'
import type { CheckResult } from '../kinds/spec.ts'
import { decodeHistory, encodeHistory, initialState, nextState, type MonitorState } from './state.ts'

export interface RegionalMonitor {
  id: number
  regions_json: string
  regions_required_down: number
  interval_s: number
  confirm_failures: number
  confirm_successes: number
  state: MonitorState
  state_since: number
  flapping: number
}

export interface RegionalStep {
  /** The region's new state row (null: no result in this step). */
  regionRow: RegionStateRow | null
  state: MonitorState
  since: number
  flapping: boolean
  changed: boolean
}

export function snapshotOfRegion(region: string, row: RegionStateRow | undefined): RegionSnapshot {
  return row
    ? { region, state: row.state, flapping: row.flapping === 1, lastCheckAt: row.last_check_at }
    : { region, state: 'pending', flapping: false, lastCheckAt: null }
}

/**
 * `states` (the monitor's region rows) is updated in place, so later events of the same batch
 * build on this one. `at` is when the result was taken; `now` judges staleness.
 */
export function regionalStep(
  monitor: RegionalMonitor,
  states: Map<string, RegionStateRow>,
  input: { region: string; scheduledAt: number; result: CheckResult; at: number } | null,
  now: number,
): RegionalStep {
  let regionRow: RegionStateRow | null = null
  if (input) {
    const previous = states.get(input.region)
    const snapshot = previous
      ? { state: previous.state, since: previous.state_since, flapping: previous.flapping === 1, history: decodeHistory(previous.history) }
      : initialState(input.at)
    const { next } = nextState(snapshot, input.result.outcome, { confirmFailures: monitor.confirm_failures, confirmSuccesses: monitor.confirm_successes }, input.at)
    regionRow = {
      monitor_id: monitor.id,
      region: input.region,
      state: next.state,
      state_since: next.since,
      flapping: next.flapping ? 1 : 0,
      history: encodeHistory(next.history),
      last_scheduled_at: input.scheduledAt,
      last_check_at: input.at,
      last_outcome: input.result.outcome,
      last_response_ms: input.result.responseTimeMs,
      last_message: input.result.message,
    }
    states.set(input.region, regionRow)
  }
  const aggregate = aggregateRegions(
    regionsOf(monitor).map((region) => snapshotOfRegion(region, states.get(region))),
    monitor.regions_required_down,
    monitor.interval_s * 1000,
    now,
  )
  const state = aggregate.state ?? monitor.state
  const changed = state !== monitor.state
  return { regionRow, state, since: changed ? now : monitor.state_since, flapping: aggregate.state === null ? monitor.flapping === 1 : aggregate.flapping, changed }
}
