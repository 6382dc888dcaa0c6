/**
 * A monitor's availability over a period from its state changes (pure): uptime %, downtime, MTTR
 * (mean time to recover: the average length of a down spell that ended in the period) and MTBF
 * (mean time between failures: the time up divided by the number of down spells that began in it).
 * As the hosted service counts it: only `down` is downtime; time paused and time before the first
 * confirmed state are not counted at all.
 */
import { DAY_MS } from '../../lib/time.ts'

export const AVAILABILITY_PERIODS = { '7d': 7, '30d': 30, '90d': 90, '365d': 365 } as const
export type AvailabilityPeriod = keyof typeof AVAILABILITY_PERIODS

export interface Availability {
  period: AvailabilityPeriod
  from: number
  to: number
  /** Null when nothing was watched in the period. */
  uptimePercent: number | null
  monitoredMs: number
  downtimeMs: number
  incidents: number
  mttrMs: number | null
  mtbfMs: number | null
}

/** `changes`: time-ordered, the first may lie before the period (the state it began in). */
export function availability(changes: ReadonlyArray<{ state: string; at: number }>, period: AvailabilityPeriod, now: number): Availability {
  const from = now - AVAILABILITY_PERIODS[period] * DAY_MS
  let monitoredMs = 0
  let downtimeMs = 0
  let incidents = 0
  const recoveries: number[] = []
  let downSince: number | null = null
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!
    const start = Math.max(change.at, from)
    const end = Math.min(changes[i + 1]?.at ?? now, now)
    const counted = change.state === 'up' || change.state === 'degraded' || change.state === 'down'
    if (end > start && counted) monitoredMs += end - start
    if (change.state === 'down') {
      if (end > start) downtimeMs += end - start
      if (downSince === null) {
        downSince = change.at
        if (change.at >= from) incidents++
      }
    } else if (downSince !== null) {
      if (change.at >= from) recoveries.push(change.at - downSince)
      downSince = null
    }
  }
  const upMs = monitoredMs - downtimeMs
  return {
    period,
    from,
    to: now,
    uptimePercent: monitoredMs > 0 ? Math.round((upMs / monitoredMs) * 1_000_000) / 10_000 : null,
    monitoredMs,
    downtimeMs,
    incidents,
    mttrMs: recoveries.length ? Math.round(recoveries.reduce((a, b) => a + b, 0) / recoveries.length) : null,
    mtbfMs: incidents ? Math.round(upMs / incidents) : null,
  }
}
