/**
 * A monitor's confirmed state as a pure state machine: confirmation (N bad runs before it gets
 * worse, M good runs before it gets better) and Naemon-style flap detection over the last 21
 * results. A run the configuration refused (`misconfigured`) measured nothing: the state says so at
 * once, the history and flap detection keep what they had, and the next measured run leaves the
 * state as a new monitor's first result would. Time comes in as `at` (the scheduler's injected
 * clock); nothing here reads a clock.
 */
import { DEFAULTS, type Outcome } from '../kinds/spec.ts'

/**
 * `misconfigured`: the last run was refused by the configuration; it never counts as down.
 * `unreachable`: a parent monitor is down (dependencies.ts); it sends no alert and moves no component.
 */
export type MonitorState = 'pending' | 'up' | 'degraded' | 'down' | 'misconfigured' | 'unreachable'
export const MONITOR_STATES: readonly MonitorState[] = ['pending', 'up', 'degraded', 'down', 'misconfigured', 'unreachable']
export type StateEvent = 'up' | 'degraded' | 'down' | 'misconfigured' | 'flapping-start' | 'flapping-stop'
/** An outcome that measured the target (a misconfigured run did not). */
export type MeasuredOutcome = Exclude<Outcome, 'misconfigured'>

export interface StateSnapshot {
  state: MonitorState
  /** When `state` began (ms). */
  since: number
  flapping: boolean
  /** The last `flapWindow` measured outcomes, oldest first (store with encodeHistory). */
  history: MeasuredOutcome[]
}

export interface StateSettings {
  /** Runs in a row at least this bad before the state gets worse (default 2). */
  confirmFailures: number
  /** Runs in a row at least this good before the state gets better (default 2). */
  confirmSuccesses: number
  flapWindow?: number
  /** Flapping starts above this percent state change (default 50) ... */
  flapHighPercent?: number
  /** ... and stops below this one (default 25). */
  flapLowPercent?: number
}

export const DEFAULT_STATE_SETTINGS: Required<StateSettings> = {
  confirmFailures: DEFAULTS.confirmFailures,
  confirmSuccesses: DEFAULTS.confirmSuccesses,
  flapWindow: DEFAULTS.flapWindow,
  flapHighPercent: DEFAULTS.flapHighPercent,
  flapLowPercent: DEFAULTS.flapLowPercent,
}

export interface Transition {
  next: StateSnapshot
  /** The state changed (notifications and component status follow this). */
  changed: boolean
  /** What happened, for notifications; none while flapping (flapping damps them). */
  events: StateEvent[]
  /** Weighted percent state change over the window after this result. */
  percentChange: number
}

const SEVERITY: Record<MeasuredOutcome, number> = { ok: 0, degraded: 1, fail: 2 }
const LEVEL: MonitorState[] = ['up', 'degraded', 'down']
/** States that say nothing about the target: the next measured run stands on its own. */
const UNMEASURED: ReadonlySet<MonitorState> = new Set(['pending', 'misconfigured', 'unreachable'])

export function initialState(at: number): StateSnapshot {
  return { state: 'pending', since: at, flapping: false, history: [] }
}

/** The state after one more run's outcome. */
export function nextState(prev: StateSnapshot, outcome: Outcome, settings: StateSettings, at: number): Transition {
  const s = { ...DEFAULT_STATE_SETTINGS, ...settings }
  if (outcome === 'misconfigured') {
    const changed = prev.state !== 'misconfigured'
    const events: StateEvent[] = [...(prev.flapping ? (['flapping-stop'] as const) : []), ...(changed ? (['misconfigured'] as const) : [])]
    return {
      next: { state: 'misconfigured', since: changed ? at : prev.since, flapping: false, history: prev.history },
      changed,
      events,
      percentChange: percentStateChange(prev.history, s.flapWindow),
    }
  }
  const history = [...prev.history, outcome].slice(-s.flapWindow)
  const percentChange = percentStateChange(history, s.flapWindow)
  const flapping = prev.flapping ? percentChange >= s.flapLowPercent : percentChange > s.flapHighPercent
  const events: StateEvent[] = []
  let state = prev.state

  if (flapping) {
    // While it flaps, the state is held at degraded: honest about partial failure, and still.
    if (!prev.flapping) events.push('flapping-start')
    state = 'degraded'
  } else {
    if (prev.flapping) events.push('flapping-stop')
    state = confirmedState(prev.state, history, s)
    if (state !== prev.state && !UNMEASURED.has(state)) events.push(state as 'up' | 'degraded' | 'down')
  }
  const changed = state !== prev.state
  return { next: { state, since: changed ? at : prev.since, flapping, history }, changed, events, percentChange }
}

/** Applies confirmation to the recent outcomes (newest last). */
function confirmedState(current: MonitorState, history: readonly MeasuredOutcome[], s: Required<StateSettings>): MonitorState {
  const latest = history[history.length - 1]!
  // A new (or misconfigured) monitor has no measured state to protect: its first result stands.
  if (UNMEASURED.has(current)) return LEVEL[SEVERITY[latest]]!
  const severity = LEVEL.indexOf(current)
  const worse = history.slice(-s.confirmFailures)
  if (worse.length === s.confirmFailures) {
    const level = Math.min(...worse.map((o) => SEVERITY[o]))
    if (level > severity) return LEVEL[level]!
  }
  const better = history.slice(-s.confirmSuccesses)
  if (better.length === s.confirmSuccesses) {
    const level = Math.max(...better.map((o) => SEVERITY[o]))
    if (level < severity) return LEVEL[level]!
  }
  return current
}

/**
 * Naemon's weighted percent state change: over a window of 21 results there are 20 transitions,
 * weighted linearly from 0.75 (oldest) to 1.25 (newest); a shorter history counts as if it had
 * been steady before. 0 is perfectly steady, 100 changes on every run.
 */
export function percentStateChange(history: readonly MeasuredOutcome[], window: number = DEFAULTS.flapWindow): number {
  const transitions = window - 1
  let weighted = 0
  const recent = history.slice(-window)
  for (let i = 1; i < recent.length; i++) {
    if (recent[i] === recent[i - 1]) continue
    // Position of this transition in a full window: the newest is transitions - 1.
    const position = transitions - (recent.length - i)
    weighted += 0.75 + (position * 0.5) / (transitions - 1)
  }
  return (weighted * 100) / transitions
}

const CODE: Record<MeasuredOutcome, string> = { ok: 'o', degraded: 'd', fail: 'f' }
const OUTCOME: Record<string, MeasuredOutcome> = { o: 'ok', d: 'degraded', f: 'fail' }

/** A compact text form of the history for storage ("oodff"). */
export function encodeHistory(history: readonly MeasuredOutcome[]): string {
  return history.map((outcome) => CODE[outcome]).join('')
}

export function decodeHistory(text: string): MeasuredOutcome[] {
  return [...text].map((char) => OUTCOME[char]).filter((outcome): outcome is MeasuredOutcome => outcome !== undefined)
}
