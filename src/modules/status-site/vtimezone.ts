/**
 * VTIMEZONE components for the calendar feed (RFC 5545 §3.6.5: every TZID a feed uses is defined in
 * it). The platform's time-zone data (`Intl`) is read for the offsets, and each change of offset in
 * the years asked for becomes one observance (STANDARD or DAYLIGHT) with its local start, so a
 * calendar program that does not know the IANA name still places every occurrence right. Pure: the
 * same zone and years give the same lines.
 */
import { offsetAt } from '../maintenances/recurrence.ts'

const DAY_MS = 86_400_000
const WEEK_MS = 7 * DAY_MS

interface Transition {
  /** The first instant of the new offset. */
  at: number
  from: number
  to: number
}

/** The instant in (low, high] where the offset changes (to the second), given it differs at the ends. */
function changeBetween(zone: string, low: number, high: number): number {
  const before = offsetAt(zone, low)
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000
    if (offsetAt(zone, middle) === before) low = middle
    else high = middle
  }
  return high
}

/** Every change of the zone's offset from the start of `fromYear` to the end of `toYear` (UTC). */
export function transitions(zone: string, fromYear: number, toYear: number): Transition[] {
  const found: Transition[] = []
  const end = Date.UTC(toYear + 1, 0, 1)
  let at = Date.UTC(fromYear, 0, 1)
  let offset = offsetAt(zone, at)
  // Zones change their offset at most a few times a year, never twice within a week.
  while (at < end) {
    const next = Math.min(at + WEEK_MS, end)
    const nextOffset = offsetAt(zone, next)
    if (nextOffset !== offset) {
      found.push({ at: changeBetween(zone, at, next), from: offset, to: nextOffset })
      offset = nextOffset
    }
    at = next
  }
  return found
}

const pad = (n: number) => String(n).padStart(2, '0')
/** +0100, -0430, +054500 (seconds only when the offset has them). */
function utcOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+'
  const total = Math.abs(ms) / 1000
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = total % 60
  return `${sign}${pad(hours)}${pad(minutes)}${seconds === 0 ? '' : pad(seconds)}`
}
/** A local date-time (floating) of wall-clock ms. */
const localStamp = (wall: number): string => new Date(wall).toISOString().slice(0, 19).replace(/[-:]/g, '')

const cache = new Map<string, string[]>()
const CACHE_LIMIT = 256

/**
 * The zone's VTIMEZONE for events from `fromYear` to `toYear`. The change before `fromYear` is
 * included (so the first events have an observance that has begun); a zone without changes in the
 * span is one STANDARD observance.
 */
export function vtimezone(zone: string, fromYear: number, toYear: number): string[] {
  const key = `${zone} ${fromYear} ${toYear}`
  const known = cache.get(key)
  if (known) return known
  const changes = transitions(zone, fromYear - 1, toYear)
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`, `X-LIC-LOCATION:${zone}`]
  if (changes.length === 0) {
    const offset = utcOffset(offsetAt(zone, Date.UTC(fromYear, 0, 1)))
    lines.push('BEGIN:STANDARD', 'DTSTART:19700101T000000', `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`, 'END:STANDARD')
  } else {
    for (const change of changes) {
      // Daylight time is the larger of the two offsets around the change.
      const kind = change.to > change.from ? 'DAYLIGHT' : 'STANDARD'
      // An observance starts at the local time read on the clock before the change.
      lines.push(`BEGIN:${kind}`, `DTSTART:${localStamp(change.at + change.from)}`, `TZOFFSETFROM:${utcOffset(change.from)}`, `TZOFFSETTO:${utcOffset(change.to)}`, `END:${kind}`)
    }
  }
  lines.push('END:VTIMEZONE')
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!)
  cache.set(key, lines)
  return lines
}
