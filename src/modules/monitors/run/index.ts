/**
 * Running monitors: the face of monitors/run/. Other modules (probes, metrics, the composition root)
 * import the running side through this file only.
 *
 *   MonitorScheduler (scheduler.ts)  picks due monitors off a min-heap (heap.ts), runs each with its
 *                                    retries and a hard deadline (retries.ts), and hands results on
 *   MonitorRecorder (recorder.ts)    writes a batch of results and push calls in one transaction:
 *                                    state (state.ts: confirmations, flapping), regions (regions.ts,
 *                                    region-state.ts: k of n down), the component's status
 *                                    (component-status.ts), then the automation listeners
 *   push.ts                          push calls and the silence that makes a push monitor fail
 */
export type { MonitorRow } from '../repo.ts'
export { componentStatusFromMonitors } from './component-status.ts'
export { MinHeap, type HeapEntry } from './heap.ts'
export { DEFAULT_CRON_TIMEZONE, MAX_CRON_LENGTH, nextCronRuns, parseCron } from './cron-schedule.ts'
export { MAX_PUSH_PING_MS, parsePushQuery, pushDeadline, pushOverdue, pushResult, type PushClock, type PushSignal } from './push.ts'
export {
  MonitorRecorder,
  nextRunAfter,
  pushClockOf,
  RESULT_RETENTION_MS,
  snapshotOf,
  type ConfirmedStateListener,
  type MonitorEvent,
  type MonitorRecorderOptions,
  type MonitorStateChange,
  type ResultHook,
  type StateChangeHook,
} from './recorder.ts'
export { stepOf, type EventStep, type LoggedResult } from './record-steps.ts'
export { regionalStep, snapshotOfRegion, type RegionalMonitor, type RegionalStep } from './region-state.ts'
export {
  aggregateRegions,
  isLocalOnly,
  isStale,
  LOCAL_REGION,
  MAX_REGIONS,
  REGION_PATTERN,
  regionRuleText,
  regionsOf,
  STALE_INTERVALS,
  staleAfterMs,
  type Aggregate,
  type RegionSnapshot,
  type RegionView,
} from './regions.ts'
export { DEFAULT_RETRY_POLICY, runBudgetMs, runMonitor, runWithRetries, type RetryPolicy, type Sleep } from './retries.ts'
export { MonitorScheduler, SCHEDULER_DEFAULTS, systemTimer, type RunCheck, type SchedulerObserver, type SchedulerOptions, type Timer } from './scheduler.ts'
export {
  DEFAULT_STATE_SETTINGS,
  decodeHistory,
  encodeHistory,
  initialState,
  MONITOR_STATES,
  nextState,
  percentStateChange,
  type MeasuredOutcome,
  type MonitorState,
  type StateEvent,
  type StateSettings,
  type StateSnapshot,
  type Transition,
} from './state.ts'
