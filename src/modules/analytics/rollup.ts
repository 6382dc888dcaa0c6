/**
 * Pure status roll-up: turns a component's status changes into per-day milliseconds per status and
 * outages started, with running totals. Used when changes are written, never when reports are read.
 */
import { DAY_MS } from '../../lib/time.ts'
import type { ComponentStatus } from '../components/tables.ts'
import type { ComponentStatusDailyTable } from './tables.ts'

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

/** A row of `component_status_daily` without its keys: the day's totals and the running totals. */
export type DailyStatusRow = Omit<ComponentStatusDailyTable, 'component_id' | 'page_id'>

/** Days per block of component_status_blocks: a year is about 23 blocks and the days at its edges. */
export const BLOCK_DAYS = 16

/** The longest and shortest outage of each block, from the daily rows of whole blocks (sorted by day). */
export function blockSpans(days: ReadonlyArray<Pick<DailyStatusRow, 'day' | 'longest_down_ms' | 'shortest_down_ms'>>) {
  const blocks = new Map<number, { block: number; longest_down_ms: number; shortest_down_ms: number | null }>()
  for (const day of days) {
    const block = Math.floor(day.day / BLOCK_DAYS)
    const current = blocks.get(block) ?? { block, longest_down_ms: 0, shortest_down_ms: null }
    current.longest_down_ms = Math.max(current.longest_down_ms, day.longest_down_ms)
    if (day.shortest_down_ms !== null) current.shortest_down_ms = Math.min(current.shortest_down_ms ?? Infinity, day.shortest_down_ms)
    blocks.set(block, current)
  }
  return [...blocks.values()]
}

export const zeroTotals = (): StatusTotals => ({ up_ms: 0, degraded_ms: 0, down_ms: 0, outages: 0 })

// A partial outage counts as degraded time, as everywhere time is counted (components' TIME_COUNTED_AS).
const FIELD: Record<ComponentStatus, 'up_ms' | 'degraded_ms' | 'down_ms'> = { up: 'up_ms', degraded: 'degraded_ms', partial: 'degraded_ms', down: 'down_ms' }

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
  const spans = days.map(() => ({ longest: 0, shortest: null as number | null }))
  let current = input.before
  entries.forEach((entry, i) => {
    if (current !== undefined) addInterval(totalsOfDay, current, t, entry.at)
    if (entry.status === 'down' && current !== 'down') totalsOfDay(dayOf(entry.at))!.outages++
    if (entry.status === 'down') {
      // A span lasts until the next change at a later instant (as the report's edge reads count it).
      let j = i + 1
      while (j < entries.length && entries[j]!.at <= entry.at) j++
      const next = entries[j]
      const day = spans[dayOf(entry.at) - firstDay]
      if (next && day) {
        const length = next.at - entry.at
        day.longest = Math.max(day.longest, length)
        day.shortest = day.shortest === null ? length : Math.min(day.shortest, length)
      }
    }
    current = entry.status
    t = entry.at
  })
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
      longest_down_ms: spans[index]!.longest,
      shortest_down_ms: spans[index]!.shortest,
    }
  })
}
