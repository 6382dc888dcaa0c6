/**
 * SLA periods and report ranges in UTC (pure). A period is a calendar month, quarter or year; a
 * report range is whole UTC days, `from` to `to` inclusive, at most MAX_RANGE_DAYS.
 */
import { badRequest } from '../../lib/errors.ts'
import { DAY_MS } from '../../lib/time.ts'
import type { SlaPeriod } from './tables.ts'

export const MAX_RANGE_DAYS = 366

export interface Span {
  start: number
  end: number
}

/** The period of kind `period` that holds instant `at`: [start, end). */
export function periodOf(at: number, period: SlaPeriod): Span {
  const date = new Date(at)
  const year = date.getUTCFullYear()
  const month = date.getUTCMonth()
  if (period === 'year') return { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) }
  const first = period === 'quarter' ? month - (month % 3) : month
  const length = period === 'quarter' ? 3 : 1
  return { start: Date.UTC(year, first, 1), end: Date.UTC(year, first + length, 1) }
}

/** The calendar month before the one that holds `at`. */
export const previousMonth = (at: number): Span => periodOf(periodOf(at, 'month').start - 1, 'month')

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** "2026-11-01" → its UTC midnight; undefined unless a real calendar date. */
export function parseDay(value: string): number | undefined {
  const match = DATE.exec(value)
  if (!match) return undefined
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number]
  const ms = Date.UTC(year, month - 1, day)
  const date = new Date(ms)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? ms : undefined
}

export const dayString = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/**
 * A report range from `from`/`to` (YYYY-MM-DD, inclusive); either missing means the current
 * calendar month's side. 400 for a date that does not exist, `to` before `from`, or too long.
 */
export function parseReportRange(query: { from?: string; to?: string }, now: number): Span {
  const month = periodOf(now, 'month')
  const start = query.from === undefined ? month.start : parseDay(query.from)
  if (start === undefined) throw badRequest('from must be a date YYYY-MM-DD')
  const last = query.to === undefined ? (query.from === undefined ? month.end - DAY_MS : undefined) : parseDay(query.to)
  if (query.to !== undefined && last === undefined) throw badRequest('to must be a date YYYY-MM-DD')
  // `from` alone: that day to the end of its month.
  const lastDay = last ?? periodOf(start, 'month').end - DAY_MS
  if (lastDay < start) throw badRequest('to must not be before from')
  if ((lastDay - start) / DAY_MS + 1 > MAX_RANGE_DAYS) throw badRequest(`a report covers at most ${MAX_RANGE_DAYS} days`)
  return { start, end: lastDay + DAY_MS }
}
