/**
 * Cron schedules of push monitors (croner): a 5-field expression read in an IANA time zone. Pure:
 * the next runs after an instant, and a clear message for an expression or zone that is not valid.
 */
import { Cron } from 'croner'

export const MAX_CRON_LENGTH = 100
export const DEFAULT_CRON_TIMEZONE = 'UTC'

export type CronCheck = { ok: true; cron: Cron } | { ok: false; field: 'cron' | 'cron_timezone'; message: string }

/** A valid IANA zone name (what Intl knows), e.g. Europe/Berlin. */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** Parses `expression` (minute hour day-of-month month day-of-week, as crontab) in `timezone`. */
export function parseCron(expression: string, timezone: string = DEFAULT_CRON_TIMEZONE): CronCheck {
  if (!isTimeZone(timezone)) return { ok: false, field: 'cron_timezone', message: `${JSON.stringify(timezone.slice(0, 64))} is not a time zone; use an IANA name such as Europe/Berlin or UTC` }
  const text = expression.trim()
  if (!text || text.length > MAX_CRON_LENGTH) return { ok: false, field: 'cron', message: `must be a cron expression of at most ${MAX_CRON_LENGTH} characters, e.g. "0 3 * * *"` }
  if (text.split(/\s+/).length !== 5 && !text.startsWith('@')) return { ok: false, field: 'cron', message: 'must have 5 fields (minute hour day-of-month month day-of-week), e.g. "*/15 * * * *"' }
  try {
    const cron = new Cron(text, { timezone, mode: '5-part', paused: true })
    if (cron.nextRun(new Date(0)) === null) return { ok: false, field: 'cron', message: 'never runs' }
    return { ok: true, cron }
  } catch (error) {
    return { ok: false, field: 'cron', message: `is not a valid cron expression (${String((error as Error).message ?? error).replace(/^CronPattern: /, '').slice(0, 200)})` }
  }
}

/** The first scheduled instant strictly after `after` (ms), or null when there is none. */
export function nextCronRun(expression: string, timezone: string | undefined, after: number): number | null {
  const parsed = parseCron(expression, timezone)
  if (!parsed.ok) return null
  return parsed.cron.nextRun(new Date(after))?.getTime() ?? null
}

/** The next `count` scheduled instants after `after` (ms). */
export function nextCronRuns(expression: string, timezone: string | undefined, after: number, count: number): number[] {
  const parsed = parseCron(expression, timezone)
  if (!parsed.ok) return []
  return parsed.cron.nextRuns(count, new Date(after)).map((d) => d.getTime())
}
