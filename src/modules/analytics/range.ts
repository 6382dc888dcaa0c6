/**
 * Report ranges. Presets cover the last N UTC days including today (`7d` = today and the six days
 * before); a custom range is `from`/`to` as dates (`2026-01-31`) or RFC 3339 times, taken as whole
 * UTC days, `to` inclusive and clipped to today, at most two years (731 days).
 */
import { badRequest } from '../../lib/errors.ts'
import { parseRfc3339 } from '../../lib/time.ts'
import { dayOf } from './rollup.ts'
import { DAY_MS } from '../../lib/time.ts'

export const PRESETS = { '7d': 7, '30d': 30, '90d': 90, '365d': 365 } as const
export type Preset = keyof typeof PRESETS
export const DEFAULT_PRESET: Preset = '90d'
const MAX_RANGE_DAYS = 731

export interface ReportRange {
  key: Preset | 'custom'
  fromDay: number
  /** Inclusive. */
  toDay: number
  fromMs: number
  /** Exclusive: the end of `toDay`, or now when that is earlier. */
  toMs: number
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function parseDay(field: string, raw: string): number {
  const value = raw.trim()
  const date = DATE.exec(value)
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]))
    if (Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value) return dayOf(ms)
  } else {
    const ms = parseRfc3339(value)
    if (ms !== undefined) return dayOf(ms)
  }
  throw badRequest(`${field} must be a date (YYYY-MM-DD) or an RFC 3339 date-time`)
}

export function parseRange(query: { range?: string; from?: string; to?: string }, now: number): ReportRange {
  const today = dayOf(now)
  const finish = (key: ReportRange['key'], fromDay: number, toDay: number): ReportRange => ({
    key,
    fromDay,
    toDay,
    fromMs: fromDay * DAY_MS,
    toMs: Math.min(now, (toDay + 1) * DAY_MS),
  })
  const custom = query.from !== undefined || query.to !== undefined || query.range === 'custom'
  if (custom) {
    if (query.range !== undefined && query.range !== 'custom') throw badRequest('range: use either a preset range or from/to, not both')
    if (!query.from) throw badRequest('from is required for a custom range')
    if (!query.to) throw badRequest('to is required for a custom range')
    const fromDay = parseDay('from', query.from)
    const toDay = Math.min(parseDay('to', query.to), today)
    if (fromDay > today) throw badRequest('from must not be in the future')
    if (fromDay > toDay) throw badRequest('from must not be after to')
    if (toDay - fromDay + 1 > MAX_RANGE_DAYS) throw badRequest('a custom range may span at most two years (731 days)')
    return finish('custom', fromDay, toDay)
  }
  const key = (query.range ?? DEFAULT_PRESET) as Preset
  if (!Object.hasOwn(PRESETS, key)) throw badRequest('range must be one of 7d, 30d, 90d, 365d or custom')
  return finish(key, today - PRESETS[key] + 1, today)
}
