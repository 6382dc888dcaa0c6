/**
 * Uptime from the recorded status history (exact, not sampled). A component is "down" only while
 * its status is `down`; `degraded` counts as available (the service answers, slowly). Time before a
 * component's first recorded status is unknown and left out, so a new page is not punished for days
 * it did not exist. Pure.
 */
import { DAY_MS } from '../checks/rollup.ts'

export interface StatusEntry {
  status: 'up' | 'degraded' | 'down'
  at: number
}

export interface UptimeResult {
  /** Per UTC day from `from`, oldest first: % available rounded to 2 decimals, null without data. */
  daily: Array<number | null>
  /** Over the whole window. */
  total: number | null
}

const percent = (known: number, down: number): number | null =>
  known > 0 ? Math.round(((known - down) / known) * 10_000) / 100 : null

/**
 * `histories` holds, per component, its status changes in time order, including the last change
 * before `from` (which gives the status at the start of the window).
 */
export function uptimeByDay(histories: ReadonlyArray<readonly StatusEntry[]>, from: number, days: number, now: number): UptimeResult {
  const known = new Array<number>(days).fill(0)
  const down = new Array<number>(days).fill(0)
  const end = Math.min(now, from + days * DAY_MS)
  for (const history of histories) {
    for (let i = 0; i < history.length; i++) {
      const entry = history[i]!
      const start = Math.max(entry.at, from)
      const stop = Math.min(history[i + 1]?.at ?? end, end)
      if (stop <= start) continue
      // Spread [start, stop) over the days it touches.
      for (let day = Math.floor((start - from) / DAY_MS), t = start; t < stop; day++) {
        const dayEnd = Math.min(from + (day + 1) * DAY_MS, stop)
        known[day]! += dayEnd - t
        if (entry.status === 'down') down[day]! += dayEnd - t
        t = dayEnd
      }
    }
  }
  const totalKnown = known.reduce((a, b) => a + b, 0)
  const totalDown = down.reduce((a, b) => a + b, 0)
  return { daily: known.map((k, i) => percent(k, down[i]!)), total: percent(totalKnown, totalDown) }
}
