/**
 * Push (heartbeat) monitors, the pure part: what one push means, and when silence means down.
 * The HTTP endpoint (`/api/push/<token>?status=up|down&msg=&ping=`, `/start`, `/fail`) belongs to the scheduler layer.
 * With a cron schedule the job is late when no push came by the next scheduled time (after the last
 * push) plus the grace; after `/start` the run must end (a push or `/fail`) within the grace.
 */
import { clipMessage, type CheckResult } from '../kinds/spec.ts'
import { DEFAULT_CRON_TIMEZONE, nextCronRun } from './cron-schedule.ts'

export interface PushSignal {
  status: 'up' | 'down'
  message?: string | undefined
  /** Response time the pusher measured, in ms (Kuma's `ping`). */
  pingMs?: number | undefined
}

export const MAX_PUSH_PING_MS = 3_600_000

/** Reads a push's query (`status`, `msg`, `ping`); a bad value is an error message for a 400. */
export function parsePushQuery(query: URLSearchParams): { ok: true; signal: PushSignal } | { ok: false; message: string } {
  const status = (query.get('status') ?? 'up').trim().toLowerCase()
  if (status !== 'up' && status !== 'down') return { ok: false, message: 'status must be "up" or "down"' }
  const msg = query.get('msg') ?? undefined
  const pingText = query.get('ping')
  let pingMs: number | undefined
  if (pingText !== null && pingText !== '') {
    const ping = Number(pingText)
    if (!Number.isFinite(ping) || ping < 0 || ping > MAX_PUSH_PING_MS) return { ok: false, message: `ping must be a number of ms from 0 to ${MAX_PUSH_PING_MS}` }
    pingMs = Math.round(ping)
  }
  return { ok: true, signal: { status, message: msg === undefined ? undefined : clipMessage(msg), pingMs } }
}

/** The check result one push stands for. */
export function pushResult(signal: PushSignal): CheckResult {
  const fallback = signal.status === 'up' ? 'push received' : 'push reported down'
  return {
    outcome: signal.status === 'up' ? 'ok' : 'fail',
    responseTimeMs: signal.pingMs ?? null,
    message: clipMessage(signal.message?.trim() ? signal.message : fallback),
  }
}

export interface PushClock {
  /** The last push (any status), or null when none came yet. */
  lastPushAt: number | null
  /** When the monitor was created or resumed: silence is counted from here before the first push. */
  watchingSince: number
  intervalSeconds: number
  graceSeconds: number
  /** A cron schedule instead of the interval (the interval then only spaces the checks of a late job). */
  cron?: PushCron | null
  /** The job called /start and has not ended the run; ignored when older than watchingSince. */
  startedAt?: number | null
}

export interface PushCron {
  expression: string
  timezone: string
}

/** A push monitor's cron schedule from its options, or null. */
export function pushCronOf(options: { cron?: string | null; cron_timezone?: string | null }): PushCron | null {
  return options.cron ? { expression: options.cron, timezone: options.cron_timezone || DEFAULT_CRON_TIMEZONE } : null
}

/** A run in progress: started since the monitor was created or resumed. */
const runStart = (clock: PushClock): number | null => (clock.startedAt != null && clock.startedAt >= clock.watchingSince ? clock.startedAt : null)

/** The scheduled instant the job answers for next (cron only): the first after the last push (or the start). */
export function pushDueAt(clock: PushClock): number | null {
  if (!clock.cron) return null
  const from = Math.max(clock.lastPushAt ?? clock.watchingSince, clock.watchingSince)
  return nextCronRun(clock.cron.expression, clock.cron.timezone, from)
}

/** A schedule that never comes again is checked once a year (a stored expression was valid when saved). */
const YEAR_MS = 365 * 86_400_000

/**
 * The instant after which silence means down: a run started ends within the grace; on a cron
 * schedule, the next scheduled time + grace; else last push (or start) + interval + grace.
 */
export function pushDeadline(clock: PushClock): number {
  const started = runStart(clock)
  if (started !== null) return started + clock.graceSeconds * 1000
  const from = Math.max(clock.lastPushAt ?? clock.watchingSince, clock.watchingSince)
  if (clock.cron) {
    const due = pushDueAt(clock)
    return due === null ? from + YEAR_MS : due + clock.graceSeconds * 1000
  }
  return from + (clock.intervalSeconds + clock.graceSeconds) * 1000
}

/** A failing result when nothing arrived in time at `now`, else null (the last push stands). */
export function pushOverdue(clock: PushClock, now: number): CheckResult | null {
  if (now <= pushDeadline(clock)) return null
  const started = runStart(clock)
  if (started !== null) {
    return { outcome: 'fail', responseTimeMs: null, message: `the run started at ${new Date(started).toISOString()} has not ended within the grace time (${clock.graceSeconds} s)` }
  }
  const due = pushDueAt(clock)
  if (clock.cron && due !== null) {
    return { outcome: 'fail', responseTimeMs: null, message: clipMessage(`no push for the run due at ${new Date(due).toISOString()} (cron "${clock.cron.expression}" in ${clock.cron.timezone}, grace ${clock.graceSeconds} s)`) }
  }
  const waited = Math.round((now - (clock.lastPushAt ?? clock.watchingSince)) / 1000)
  const what = clock.lastPushAt === null ? 'no push yet' : `no push for ${waited} s`
  return { outcome: 'fail', responseTimeMs: null, message: `${what} (interval ${clock.intervalSeconds} s + grace ${clock.graceSeconds} s)` }
}
