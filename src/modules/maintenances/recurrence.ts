/**
 * Recurrence of maintenance (pure): a rule in an IANA time zone expands into occurrences, each a
 * local date and a UTC [start, end). The wall-clock time stays fixed across daylight-saving changes
 * (02:00 Berlin is 01:00Z in winter, 00:00Z in summer); a time that does not exist on a spring-forward
 * day moves forward by the gap, a time that happens twice on a fall-back day takes the first.
 * The same rules as iCalendar's RRULE: COUNT counts the generated dates before exceptions
 * (EXDATE) remove some; UNTIL is the last local date that may hold an occurrence; a monthly day that
 * a month lacks (the 31st in April) is skipped. Zone offsets come from Intl, the platform's zone data.
 */

export type Frequency = 'daily' | 'weekly' | 'monthly'
export const FREQUENCIES: readonly Frequency[] = ['daily', 'weekly', 'monthly']
/** iCalendar weekday names, Monday first (ISO order). */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export interface RecurrenceRule {
  timeZone: string
  /** First local date, YYYY-MM-DD. */
  startsOn: string
  /** Local start time, HH:MM. */
  startTime: string
  durationMinutes: number
  frequency: Frequency
  interval: number
  /** Weekly only; empty: the weekday of `startsOn`. */
  weekdays: readonly Weekday[]
  /** Monthly only; undefined: the day of `startsOn`. */
  monthDay?: number
  /** Last local date an occurrence may fall on (inclusive). */
  untilOn?: string
  count?: number
  /** Skipped local dates. */
  exceptions: readonly string[]
}

export interface Occurrence {
  /** Local date in the rule's zone. */
  on: string
  startAt: number
  endAt: number
}

const DAY_MS = 86_400_000
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/

/** Days since 1970-01-01 of a valid YYYY-MM-DD, else undefined (no rolling February 30 into March). */
export function dayNumber(date: string): number | undefined {
  const match = DATE.exec(date)
  if (!match) return undefined
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number]
  const ms = Date.UTC(year, month - 1, day)
  const back = new Date(ms)
  if (year < 1970 || year > 9999 || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined
  return ms / DAY_MS
}

export const isLocalDate = (value: string): boolean => dayNumber(value) !== undefined
export const isLocalTime = (value: string): boolean => TIME.test(value)

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return value.length > 0
  } catch {
    return false
  }
}

const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

const formats = new Map<string, Intl.DateTimeFormat>()
/** The zone's offset from UTC at instant `ms`, in ms (Berlin in winter: 3,600,000). */
export function offsetAt(zone: string, ms: number): number {
  let format = formats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    formats.set(zone, format)
  }
  const p: Record<string, number> = {}
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value)
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!)
  return wall - Math.floor(ms / 1000) * 1000
}

/** The instant of a local wall-clock time (`wall` is that time read as if it were UTC). */
export function instantOf(zone: string, wall: number): number {
  const before = offsetAt(zone, wall - DAY_MS)
  const after = offsetAt(zone, wall + DAY_MS)
  const valid = [...new Set([before, after])].map((offset) => wall - offset).filter((ms) => offsetAt(zone, ms) === wall - ms)
  // Twice (fall back): the first. Never (spring forward): the offset before the change, which lands after the gap.
  return valid.length > 0 ? Math.min(...valid) : wall - before
}

/** The local date (YYYY-MM-DD) of instant `ms` in `zone`. */
export const localDateOf = (zone: string, ms: number): string => dateOf(Math.floor((ms + offsetAt(zone, ms)) / DAY_MS))

/** ISO weekday of a day number, Monday 0 … Sunday 6 (1970-01-01 was a Thursday). */
const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7

/** Candidate local days in order, before count and exceptions (at most `cap`). */
function* candidates(rule: RecurrenceRule, first: number, last: number): Generator<number> {
  if (rule.frequency === 'daily') {
    for (let day = first; day <= last; day += rule.interval) yield day
    return
  }
  if (rule.frequency === 'weekly') {
    const days = (rule.weekdays.length > 0 ? rule.weekdays.map((w) => WEEKDAYS.indexOf(w)) : [weekdayOf(first)]).toSorted((a, b) => a - b)
    for (let monday = first - weekdayOf(first); monday <= last; monday += 7 * rule.interval) {
      for (const offset of days) {
        const day = monday + offset
        if (day >= first && day <= last) yield day
      }
    }
    return
  }
  const start = new Date(first * DAY_MS)
  const monthDay = rule.monthDay ?? start.getUTCDate()
  for (let step = 0; ; step += rule.interval) {
    const month = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + step, 1) / DAY_MS
    if (month > last) return
    const ms = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + step, monthDay)
    // A month without this day (the 31st in April) has no occurrence.
    if (new Date(ms).getUTCDate() !== monthDay) continue
    const day = ms / DAY_MS
    if (day >= first && day <= last) yield day
  }
}

/** The last local date the rule can reach, as a day number (a far bound when unending). */
const LAST_DAY = Date.UTC(9999, 11, 31) / DAY_MS

/**
 * The occurrences whose end is after `from` and whose start is before `to`, in order, at most
 * `limit` of them.
 */
export function occurrences(rule: RecurrenceRule, range: { from: number; to: number; limit: number }): Occurrence[] {
  const first = dayNumber(rule.startsOn)
  if (first === undefined) return []
  const last = rule.untilOn === undefined ? LAST_DAY : (dayNumber(rule.untilOn) ?? LAST_DAY)
  const [hour, minute] = rule.startTime.split(':').map(Number) as [number, number]
  const skipped = new Set(rule.exceptions)
  const duration = rule.durationMinutes * 60_000
  const found: Occurrence[] = []
  let generated = 0
  for (const day of candidates(rule, first, last)) {
    generated++
    if (rule.count !== undefined && generated > rule.count) break
    const on = dateOf(day)
    if (skipped.has(on)) continue
    const startAt = instantOf(rule.timeZone, day * DAY_MS + hour * 3_600_000 + minute * 60_000)
    // Local days never run backwards: once one starts at or after `to`, the rest do too.
    if (startAt >= range.to) break
    if (startAt + duration <= range.from) continue
    found.push({ on, startAt, endAt: startAt + duration })
    if (found.length >= range.limit) break
  }
  return found
}
