/**
 * Check results are kept three ways so reads stay cheap however long the history grows:
 * raw rows for a short retention, one bucket per component and UTC minute for the last two days
 * (response-time sparklines read at most 240 of them), and one bucket per component and UTC day
 * kept for good (daily figures over any number of days). Buckets hold sums and counts, never
 * averages, so they add up exactly across components and across repeated batches.
 * Everything here is pure.
 */
import { DAY_MS, MINUTE_MS } from '../../lib/time.ts'

/** Raw rows older than this are deleted (buckets keep their figures). */
export const RAW_RETENTION_MS = 7 * DAY_MS
/** Minute buckets older than this are deleted; 240 minutes are read, analytics may read 24 h. */
export const MINUTE_RETENTION_MS = 2 * DAY_MS

export interface CheckResult {
  at: number
  ok: boolean
  /** Absent when the check did not measure a response time (e.g. a timeout). */
  responseMs: number | null
}

export interface Bucket {
  /** Start of the minute or day (epoch ms, UTC). */
  start: number
  checks: number
  okChecks: number
  timedChecks: number
  responseMsSum: number
  responseMsMax: number | null
}

export const minuteStart = (ms: number): number => Math.floor(ms / MINUTE_MS) * MINUTE_MS

/** Adds up checks per bucket (`startOf` picks the bucket); buckets come out in time order. */
export function rollUp(checks: readonly CheckResult[], startOf: (ms: number) => number): Bucket[] {
  const buckets = new Map<number, Bucket>()
  for (const check of checks) {
    const start = startOf(check.at)
    let bucket = buckets.get(start)
    if (!bucket) buckets.set(start, (bucket = { start, checks: 0, okChecks: 0, timedChecks: 0, responseMsSum: 0, responseMsMax: null }))
    bucket.checks++
    if (check.ok) bucket.okChecks++
    if (check.responseMs !== null) {
      bucket.timedChecks++
      bucket.responseMsSum += check.responseMs
      bucket.responseMsMax = Math.max(bucket.responseMsMax ?? 0, check.responseMs)
    }
  }
  return [...buckets.values()].sort((a, b) => a.start - b.start)
}

/**
 * One value per slot from `from` (inclusive) in steps of `step`, `count` slots: the mean response
 * time over every bucket (of any component) in that slot, rounded to whole ms, or null when no check
 * measured one.
 */
export function meanSeries(
  buckets: ReadonlyArray<Pick<Bucket, 'start' | 'timedChecks' | 'responseMsSum'>>,
  from: number,
  step: number,
  count: number,
): Array<number | null> {
  const sums = new Array<number>(count).fill(0)
  const counts = new Array<number>(count).fill(0)
  for (const bucket of buckets) {
    const slot = Math.floor((bucket.start - from) / step)
    if (slot < 0 || slot >= count) continue
    sums[slot]! += bucket.responseMsSum
    counts[slot]! += bucket.timedChecks
  }
  return sums.map((sum, i) => (counts[i] ? Math.round(sum / counts[i]!) : null))
}
