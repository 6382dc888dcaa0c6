/**
 * Dates and times for people, one way wherever a person reads one: the web app, status pages,
 * mails, the SLA PDF. An instant always names its zone; a day is a calendar day (UTC unless a zone
 * is given). Machines get RFC 3339 instead (time.ts): APIs, feeds, `datetime` attributes, CSV cells.
 *
 *   formatDateTime(ms)                     // '27 Nov 2026, 14:05 UTC'
 *   formatDateTime(ms, 'Europe/Berlin')    // '27 Nov 2026, 15:05 GMT+1'
 *   formatDate(ms)                         // '27 Nov 2026'
 *   formatMonth(ms)                        // 'November 2026'
 *   formatLength(2_592_000)                // '43 min 12 s' (a length of time, to the second)
 *
 * Pure, Intl only, no imports: browsers get this very file as /static/analytics/human-time.js
 * (types stripped), so the analytics dashboard writes dates exactly as the server does.
 */

const formats = new Map<string, Intl.DateTimeFormat>()

function partsOf(ms: number, zone: string, withTime: boolean): Record<string, string> {
  const key = `${zone} ${withTime}`
  let format = formats.get(key)
  if (!format) {
    // en-US parts (three-letter months, zone names such as UTC, EDT or GMT+1), put in day-month-year order below.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' } : {}),
    } as Intl.DateTimeFormatOptions)
    formats.set(key, format)
  }
  const parts: Record<string, string> = {}
  for (const part of format.formatToParts(ms)) parts[part.type] = part.value
  return parts
}

/** An instant with its zone: '27 Nov 2026, 14:05 UTC'. */
export function formatDateTime(ms: number, zone = 'UTC'): string {
  const p = partsOf(ms, zone, true)
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute} ${p.timeZoneName}`
}

/** The calendar day of an instant: '27 Nov 2026'. */
export function formatDate(ms: number, zone = 'UTC'): string {
  const p = partsOf(ms, zone, false)
  return `${p.day} ${p.month} ${p.year}`
}

const monthFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' })

/** The UTC month of an instant: 'November 2026'. */
export function formatMonth(ms: number): string {
  return monthFormat.format(ms)
}

/** A span of whole UTC days, first to last (inclusive): '1 Nov 2026 to 30 Nov 2026', or one day. */
export function formatDayRange(firstDayMs: number, lastDayMs: number): string {
  const first = formatDate(firstDayMs)
  const last = formatDate(lastDayMs)
  return first === last ? first : `${first} to ${last}`
}

/** "43 min 12 s", "2 h 5 min", "3 d 4 h": a length of time (an outage, a budget) for people. */
export function formatLength(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  const d = Math.floor(seconds / 86_400)
  const h = Math.floor((seconds % 86_400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`
  if (m > 0) return s > 0 ? `${m} min ${s} s` : `${m} min`
  return `${s} s`
}
