/**
 * Uptime from recorded status changes (pure): the one definition behind every public figure (the
 * status page's bars and percentages, the status JSON's `upd`, the uptime badge). Degraded and
 * partial outage count as available (the service answered, at least in part), down as down, time inside a maintenance window as neither,
 * and time before a component's first recorded status is unknown and left out. Only the changes
 * inside the window and the status in force when it opens are needed, so the cost follows the
 * number of changes in the window, never the length of the whole history.
 */
import { DAY_MS, utcDayStart } from '../../lib/time.ts'
import { TIME_COUNTED_AS, type ComponentStatus } from '../components/tables.ts'

export interface DayUptime {
  /** UTC midnight of the day, epoch ms. */
  day: number
  upMs: number
  degradedMs: number
  downMs: number
  /** Time inside a maintenance window: neither up nor down. */
  maintenanceMs: number
}

export type DayLevel = 'none' | 'ok' | 'minor' | 'major'

/** At least this share of a day down paints the day red; less (or any degradation) is yellow. */
export const MAJOR_DOWN_SHARE = 0.05


/** The first instant of a `days`-day window that ends today (UTC). */
export const windowStart = (now: number, days: number): number => utcDayStart(now) - (days - 1) * DAY_MS

export interface UptimeInput {
  /** Changes at or after the window start, oldest first. */
  changes: ReadonlyArray<{ status: ComponentStatus; at: number }>
  /** The status in force when the window opens; undefined when nothing was recorded before. */
  statusAtStart: ComponentStatus | undefined
  /** Maintenance windows to leave out of the figures ([start, end) in epoch ms). */
  maintenance?: ReadonlyArray<{ start: number; end: number }>
  days: number
  now: number
}

type TimeField = 'upMs' | 'degradedMs' | 'downMs' | 'maintenanceMs'
const FIELD_OF_WORD = { up: 'upMs', degraded: 'degradedMs', down: 'downMs' } as const
const FIELD_OF = (status: ComponentStatus): TimeField => FIELD_OF_WORD[TIME_COUNTED_AS[status]]

/** Adds [from, to) to `field` of the days it covers, split at UTC midnights. */
function addTime(days: DayUptime[], first: number, field: TimeField, from: number, to: number): void {
  let start = from
  while (start < to) {
    const index = Math.floor((start - first) / DAY_MS)
    const end = Math.min(to, first + (index + 1) * DAY_MS)
    const day = days[index]
    if (day) day[field] += end - start
    start = end
  }
}

export function dailyUptime(input: UptimeInput): DayUptime[] {
  const first = windowStart(input.now, input.days)
  const days: DayUptime[] = Array.from({ length: input.days }, (_, i) => ({
    day: first + i * DAY_MS,
    upMs: 0,
    degradedMs: 0,
    downMs: 0,
    maintenanceMs: 0,
  }))
  // Spans of known status: maintenance cuts holes into them.
  const spans: Array<{ status: ComponentStatus; from: number; to: number }> = []
  let status = input.statusAtStart
  let since = first
  for (const change of input.changes) {
    const at = Math.min(Math.max(change.at, first), input.now)
    if (status !== undefined && at > since) spans.push({ status, from: since, to: at })
    status = change.status
    since = at
  }
  if (status !== undefined && input.now > since) spans.push({ status, from: since, to: input.now })
  const holes = [...(input.maintenance ?? [])]
    .map((m) => ({ start: Math.max(m.start, first), end: Math.min(m.end, input.now) }))
    .filter((m) => m.end > m.start)
    .sort((a, b) => a.start - b.start)
  for (const span of spans) {
    let from = span.from
    for (const hole of holes) {
      if (hole.end <= from || hole.start >= span.to) continue
      if (hole.start > from) addTime(days, first, FIELD_OF(span.status), from, hole.start)
      const cutEnd = Math.min(hole.end, span.to)
      addTime(days, first, 'maintenanceMs', Math.max(hole.start, from), cutEnd)
      from = cutEnd
    }
    if (from < span.to) addTime(days, first, FIELD_OF(span.status), from, span.to)
  }
  return days
}

export interface RolledUpInput {
  /** The daily roll-ups' rows inside the window: time per status from the first change to the latest one. */
  rows: ReadonlyArray<{ day: number; upMs: number; degradedMs: number; downMs: number }>
  /** The latest change (at or before `now`): its status holds from `since` on. */
  status: ComponentStatus
  since: number
  days: number
  now: number
}

/**
 * The same figures as `dailyUptime` from the daily status roll-ups (analytics' component_status_daily
 * and its cursor) instead of every change: exact when no maintenance window overlaps the window
 * (the roll-ups hold no time of day to cut holes into) and the latest change is not after `now`.
 */
export function rolledUpUptime(input: RolledUpInput): DayUptime[] {
  const first = windowStart(input.now, input.days)
  const days: DayUptime[] = Array.from({ length: input.days }, (_, i) => ({ day: first + i * DAY_MS, upMs: 0, degradedMs: 0, downMs: 0, maintenanceMs: 0 }))
  for (const row of input.rows) {
    const day = days[Math.floor((row.day - first) / DAY_MS)]
    if (!day) continue
    day.upMs += row.upMs
    day.degradedMs += row.degradedMs
    day.downMs += row.downMs
  }
  addTime(days, first, FIELD_OF(input.status), Math.max(input.since, first), input.now)
  return days
}

/** Up share of the measured time (degraded counts as up: the service answered), or null without data. */
export function uptimePercent(days: ReadonlyArray<DayUptime>): number | null {
  let up = 0
  let total = 0
  for (const day of days) {
    up += day.upMs + day.degradedMs
    total += day.upMs + day.degradedMs + day.downMs
  }
  return total === 0 ? null : (up / total) * 100
}

export function dayLevel(day: DayUptime): DayLevel {
  const total = day.upMs + day.degradedMs + day.downMs
  if (total === 0) return day.maintenanceMs > 0 ? 'ok' : 'none'
  if (day.downMs / total >= MAJOR_DOWN_SHARE) return 'major'
  if (day.downMs > 0 || day.degradedMs > 0) return 'minor'
  return 'ok'
}

/** Never rounds up: 99.999 → 99.99, so a figure shows 100 only when nothing was down. */
const floorTo2 = (value: number): number => Math.floor(value * 100) / 100

/** 99.95 → "99.95", 100 → "100", 99.999 → "99.99" (never rounds up to a perfect 100). */
export function formatPercent(value: number): string {
  return floorTo2(value).toFixed(2).replace(/\.?0+$/, '')
}

/**
 * Several components together, per day (oldest first) and over the whole window: % of measured
 * time not down, 2 decimals rounded down, null without data.
 */
export function combinedUptime(perComponent: ReadonlyArray<ReadonlyArray<DayUptime>>, days: number): {
  daily: Array<number | null>
  total: number | null
} {
  const daily = Array.from({ length: days }, (_, i) => {
    const pct = uptimePercent(perComponent.map((component) => component[i]!).filter(Boolean))
    return pct === null ? null : floorTo2(pct)
  })
  const total = uptimePercent(perComponent.flat())
  return { daily, total: total === null ? null : floorTo2(total) }
}
