/**
 * Pure status roll-up: turns a component's status changes into per-day milliseconds per status and
 * outages started, with running totals. Used when changes are written, never when reports are read.
 */
import { DAY_MS } from '../../lib/time.ts'
import type { ComponentStatus } from '../components/tables.ts'

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS)
/** Epoch ms of the start of day number `day` (days since the epoch, UTC). */
export const startOfDayNumber = (day: number): number => day * DAY_MS
export const dayDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

export interface StatusTotals {
  up_ms: number
  degraded_ms: number
  down_ms: number
  outages: number
}

export interface DailyStatusRow extends StatusTotals {
  day: number
  cum_up_ms: number
  cum_degraded_ms: number
  cum_down_ms: number
  cum_outages: number
}

export const zeroTotals = (): StatusTotals => ({ up_ms: 0, degraded_ms: 0, down_ms: 0, outages: 0 })

const FIELD: Record<ComponentStatus, 'up_ms' | 'degraded_ms' | 'down_ms'> = { up: 'up_ms', degraded: 'degraded_ms', down: 'down_ms' }

/** Adds the time from `from` to `to` spent in `status` to per-day totals (splitting at UTC midnight). */
export function addInterval(
  totalsOfDay: (day: number) => StatusTotals | undefined,
  status: ComponentStatus,
  from: number,
  to: number,
): void {
  let t = from
  while (t < to) {
    const day = dayOf(t)
    const end = Math.min(to, startOfDayNumber(day + 1))
    const totals = totalsOfDay(day)
    if (totals) totals[FIELD[status]] += end - t
    t = end
  }
}

/**
 * Rolls up `entries` (sorted by time) starting at day `startDay`. `before` is the status in force at
 * the start of that day (undefined when nothing was recorded earlier: counting then starts at the
 * first entry), `cum` the running totals up to the end of the previous day. Returns one row per day
 * from the first counted day to the day of the last entry; the time after the last entry stays open.
 */
export function rollUp(input: {
  startDay: number
  before: ComponentStatus | undefined
  cum: StatusTotals
  entries: ReadonlyArray<{ status: ComponentStatus; at: number }>
}): DailyStatusRow[] {
  const { entries } = input
  if (entries.length === 0) return []
  const first = entries[0]!
  const last = entries[entries.length - 1]!
  let t = input.before === undefined ? first.at : Math.min(startOfDayNumber(input.startDay), first.at)
  const firstDay = dayOf(t)
  const lastDay = dayOf(last.at)
  const days: StatusTotals[] = []
  for (let day = firstDay; day <= lastDay; day++) days.push(zeroTotals())
  const totalsOfDay = (day: number) => days[day - firstDay]
  let current = input.before
  for (const entry of entries) {
    if (current !== undefined) addInterval(totalsOfDay, current, t, entry.at)
    if (entry.status === 'down' && current !== 'down') totalsOfDay(dayOf(entry.at))!.outages++
    current = entry.status
    t = entry.at
  }
  const cum = { ...input.cum }
  return days.map((totals, index) => {
    cum.up_ms += totals.up_ms
    cum.degraded_ms += totals.degraded_ms
    cum.down_ms += totals.down_ms
    cum.outages += totals.outages
    return {
      day: firstDay + index,
      ...totals,
      cum_up_ms: cum.up_ms,
      cum_degraded_ms: cum.degraded_ms,
      cum_down_ms: cum.down_ms,
      cum_outages: cum.outages,
    }
  })
}
