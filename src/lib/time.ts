/** Timestamps are stored as epoch milliseconds and shown as RFC 3339 UTC strings. */

export const MINUTE_MS = 60_000
export const DAY_MS = 86_400_000

/** UTC midnight of the day that holds `ms`. */
export const utcDayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS

export const toIso = (ms: number): string => new Date(ms).toISOString()
export const toIsoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms))

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/i

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * Parses an RFC 3339 date-time (with an explicit offset); undefined when it is not one. Checks the
 * fields itself, because Date.parse quietly rolls "February 30" over into March.
 */
export function parseRfc3339(value: string): number | undefined {
  const match = RFC3339.exec(value)
  if (!match) return undefined
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = match.slice(1).map((part) => Number(part ?? 0))
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth(year!, month!)) return undefined
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHour! > 23 || offsetMinute! > 59) return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}
