/**
 * The page's maintenance as an iCalendar feed (RFC 5545, pure). A recurring series is one VEVENT
 * with its rule (RRULE), skipped dates (EXDATE) and local times named by their IANA zone (TZID),
 * each zone defined by a VTIMEZONE over the series' years; a one-off window is a VEVENT in UTC. UIDs never change for an event; SEQUENCE is the event's count
 * of changes, so calendar programs replace an older copy; a cancelled series stays as
 * STATUS:CANCELLED so subscribed calendars remove its occurrences, and so does a deleted one-off
 * window (from its cancellation: UID, times, title and a SEQUENCE one past its last), for as long as
 * the maintenances module keeps it. Occurrences of a series are not
 * listed on their own (the rule makes them), so an update posted to an occurrence shows on the page
 * and in the feeds, not here; a one-off window's DESCRIPTION carries its updates, newest first. Every byte comes from stored times, so an unchanged
 * page gives the same feed and ETag (until a cancelled event's time in the feed is over).
 */
import { dayNumber, instantOf, occurrences, type RecurrenceRule } from '../maintenances/service.ts'
import type { MaintenanceCancellation } from '../maintenances/service.ts'
import type { PublicMaintenance, PublicMaintenanceSeries } from './events.ts'
import { vtimezone } from './vtimezone.ts'

export interface CalendarInput {
  name: string
  url: string
  pageId: number
  series: readonly PublicMaintenanceSeries[]
  maintenances: readonly PublicMaintenance[]
  /** Deleted one-off windows, shown cancelled. */
  cancelled: readonly MaintenanceCancellation[]
}

const DAY_MS = 86_400_000

/** TEXT values: backslash, semicolon, comma and line breaks escaped. */
export const escapeText = (value: string): string => value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n|\r/g, '\\n')

const encoder = new TextEncoder()
/** Folds a content line at 75 octets, never inside a UTF-8 character. */
export function fold(line: string): string {
  if (encoder.encode(line).length <= 75) return line
  const parts: string[] = []
  let current = ''
  let size = 0
  for (const char of line) {
    const bytes = encoder.encode(char).length
    // The first line holds 75 octets; the next ones 74 after their leading space.
    if (size + bytes > (parts.length === 0 ? 75 : 74)) {
      parts.push(current)
      current = ''
      size = 0
    }
    current += char
    size += bytes
  }
  parts.push(current)
  return parts.join('\r\n ')
}

const utc = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
const localStamp = (on: string, time: string): string => `${on.replace(/-/g, '')}T${time.replace(':', '')}00`

function rrule(rule: RecurrenceRule): string {
  const parts = [`FREQ=${rule.frequency.toUpperCase()}`, `INTERVAL=${rule.interval}`]
  if (rule.frequency === 'weekly') {
    parts.push('WKST=MO')
    if (rule.weekdays.length > 0) parts.push(`BYDAY=${rule.weekdays.join(',')}`)
  }
  if (rule.frequency === 'monthly' && rule.monthDay !== undefined) parts.push(`BYMONTHDAY=${rule.monthDay}`)
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`)
  if (rule.untilOn !== undefined) {
    // With a zoned DTSTART, UNTIL is in UTC: the last local date at the start time.
    const [hour, minute] = rule.startTime.split(':').map(Number) as [number, number]
    parts.push(`UNTIL=${utc(instantOf(rule.timeZone, dayNumber(rule.untilOn)! * DAY_MS + hour * 3_600_000 + minute * 60_000))}`)
  }
  return parts.join(';')
}

/** A series without an end is given its zone's changes for this many years from its first date. */
const OPEN_SERIES_YEARS = 20

/** The years a series' occurrences fall in (from its first to its last, or OPEN_SERIES_YEARS on). */
function yearsOf(rule: RecurrenceRule): [number, number] | undefined {
  const all = { ...rule, exceptions: [] }
  const first = occurrences(all, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 1 })[0]
  if (!first) return undefined
  const from = Number(first.on.slice(0, 4))
  if (rule.untilOn !== undefined) return [from, Number(rule.untilOn.slice(0, 4))]
  if (rule.count !== undefined) {
    const last = occurrences(all, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: rule.count }).at(-1)!
    return [from, Number(last.on.slice(0, 4))]
  }
  return [from, from + OPEN_SERIES_YEARS]
}

/** One VTIMEZONE per zone the series use, over the years of all of that zone's series. */
function timeZones(series: readonly PublicMaintenanceSeries[]): string[] {
  const spans = new Map<string, [number, number]>()
  for (const one of series) {
    const years = yearsOf(one.rule)
    if (!years) continue
    const known = spans.get(one.rule.timeZone)
    spans.set(one.rule.timeZone, known ? [Math.min(known[0], years[0]), Math.max(known[1], years[1])] : years)
  }
  return [...spans].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([zone, [from, to]]) => vtimezone(zone, from, to))
}

function seriesEvent(series: PublicMaintenanceSeries, input: CalendarInput): string[] | undefined {
  const { rule } = series
  // DTSTART is the first date the rule makes (it always counts as an occurrence in iCalendar).
  const first = occurrences({ ...rule, exceptions: [] }, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 1 })[0]
  if (!first) return undefined
  const zone = rule.timeZone
  const lines = [
    'BEGIN:VEVENT',
    `UID:maintenance-series-${series.id}.page-${input.pageId}@lantern`,
    `DTSTAMP:${utc(series.updatedAt)}`,
    `CREATED:${utc(series.createdAt)}`,
    `LAST-MODIFIED:${utc(series.updatedAt)}`,
    `SEQUENCE:${series.sequence}`,
    `STATUS:${series.cancelledAt === null ? 'CONFIRMED' : 'CANCELLED'}`,
    `SUMMARY:${escapeText(series.title)}`,
    `DTSTART;TZID=${zone}:${localStamp(first.on, rule.startTime)}`,
    `DURATION:PT${rule.durationMinutes}M`,
    `RRULE:${rrule(rule)}`,
  ]
  if (rule.exceptions.length > 0) lines.push(`EXDATE;TZID=${zone}:${rule.exceptions.map((on) => localStamp(on, rule.startTime)).join(',')}`)
  return [...lines, ...details(series.message, series.components, input), 'END:VEVENT']
}

function windowEvent(window: PublicMaintenance, input: CalendarInput): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:maintenance-${window.id}.page-${input.pageId}@lantern`,
    `DTSTAMP:${utc(window.updatedAt)}`,
    `CREATED:${utc(window.createdAt)}`,
    `LAST-MODIFIED:${utc(window.updatedAt)}`,
    `SEQUENCE:${window.sequence}`,
    'STATUS:CONFIRMED',
    `SUMMARY:${escapeText(window.title)}`,
    `DTSTART:${utc(window.startAt)}`,
    `DTEND:${utc(window.endAt)}`,
    ...details(withUpdates(window), window.components, input),
    'END:VEVENT',
  ]
}

/** A deleted window: the same UID, a higher SEQUENCE and STATUS:CANCELLED make calendars remove it. */
function cancelledEvent(window: MaintenanceCancellation, input: CalendarInput): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:maintenance-${window.id}.page-${input.pageId}@lantern`,
    `DTSTAMP:${utc(window.deletedAt)}`,
    `LAST-MODIFIED:${utc(window.deletedAt)}`,
    `SEQUENCE:${window.sequence}`,
    'STATUS:CANCELLED',
    `SUMMARY:${escapeText(window.title)}`,
    `DTSTART:${utc(window.startAt)}`,
    `DTEND:${utc(window.endAt)}`,
    `URL:${input.url}/`,
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
  ]
}

const UPDATE_WORDS = { scheduled: 'Scheduled', in_progress: 'In progress', verifying: 'Verifying', completed: 'Completed' } as const

/** A one-off window's description with its updates, newest first (posting one raises its SEQUENCE). */
function withUpdates(window: PublicMaintenance): string {
  const updates = window.updates.map((u) => `${UPDATE_WORDS[u.status]} (${utcWords(u.at)}): ${u.message}`)
  return [window.message, ...updates].filter((part) => part !== '').join('\n\n')
}

const utcWords = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`

function details(message: string, components: ReadonlyArray<{ name: string }>, input: CalendarInput): string[] {
  const affected = components.length === 0 ? 'Affects: the whole page' : `Affects: ${components.map((c) => c.name).join(', ')}`
  return [`DESCRIPTION:${escapeText(message === '' ? affected : `${message}\n\n${affected}`)}`, `URL:${input.url}/`, 'TRANSP:OPAQUE']
}

export function renderCalendar(input: CalendarInput): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Lantern//Status page maintenance//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(`${input.name} maintenance`)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...timeZones(input.series),
  ]
  for (const series of input.series) lines.push(...(seriesEvent(series, input) ?? []))
  // Occurrences belong to their series' event.
  for (const window of input.maintenances) if (window.seriesId === null) lines.push(...windowEvent(window, input))
  for (const window of input.cancelled) lines.push(...cancelledEvent(window, input))
  lines.push('END:VCALENDAR')
  return `${lines.map(fold).join('\r\n')}\r\n`
}
