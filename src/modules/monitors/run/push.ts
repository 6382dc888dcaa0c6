/**
 * Push (heartbeat) monitors, the pure part: what one push means, and when silence means down.
 * The HTTP endpoint (`/api/push/<token>?status=up|down&msg=&ping=`) belongs to the scheduler layer.
 */
import { clipMessage, type CheckResult } from '../kinds/spec.ts'

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
}

/** The instant after which silence means down: last push (or start) + interval + grace. */
export function pushDeadline(clock: PushClock): number {
  const from = Math.max(clock.lastPushAt ?? clock.watchingSince, clock.watchingSince)
  return from + (clock.intervalSeconds + clock.graceSeconds) * 1000
}

/** A failing result when nothing arrived in time at `now`, else null (the last push stands). */
export function pushOverdue(clock: PushClock, now: number): CheckResult | null {
  if (now <= pushDeadline(clock)) return null
  const waited = Math.round((now - (clock.lastPushAt ?? clock.watchingSince)) / 1000)
  const what = clock.lastPushAt === null ? 'no push yet' : `no push for ${waited} s`
  return { outcome: 'fail', responseTimeMs: null, message: `${what} (interval ${clock.intervalSeconds} s + grace ${clock.graceSeconds} s)` }
}
