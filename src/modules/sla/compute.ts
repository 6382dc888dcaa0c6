/**
 * The SLA report as pure computation (no SQL, no HTTP): time per status per strip bucket from the
 * cumulative daily status roll-ups (component_status_daily's cum_* columns: any span is the difference
 * of two rows, so a year costs what a month costs), then the policy's corrections from the few spans
 * that need a time of day: outages shorter than the policy's minimum count as up, and time inside
 * maintenance windows moves out of every status. Percentages are floored (never rounded up to a
 * target that was not met) and computed in integers, so 43 min 12 s down in 30 days is 99.9000 %.
 */
import { DAY_MS } from '../../lib/time.ts'
import { TIME_COUNTED_AS, type ComponentStatus } from '../components/tables.ts'
import type { DegradedCountsAs, SlaPeriod } from './tables.ts'

export interface SlaPolicy {
  degradedCountsAs: DegradedCountsAs
  excludeMaintenance: boolean
  /** Outages shorter than this (seconds) are not counted: their time counts as up. */
  minOutageSeconds: number
}

export const DEFAULT_POLICY: SlaPolicy = { degradedCountsAs: 'up', excludeMaintenance: true, minOutageSeconds: 0 }

export interface SlaTarget {
  /** Parts per million: 999000 = 99.9 %. */
  targetPpm: number
  period: SlaPeriod
  policy: SlaPolicy
  breachAlerts: boolean
  /** Shown on the public page and in the status JSON. */
  publicBudget: boolean
}

export interface StatusTimes {
  upMs: number
  degradedMs: number
  downMs: number
}

/** Running totals of a roll-up row: time per status and outages started. */
export interface Cumulative extends StatusTimes {
  outages: number
}

/** A component's roll-up as the repo reads it: cumulative rows at the days asked, its first day and its latest change. */
export interface RollupInput {
  firstDay: number
  /** Cumulative totals at the END of each day asked for (days since the epoch). */
  cumByDay: ReadonlyMap<number, Cumulative>
  /** The latest change: its status holds from `since` on; `cum` is the row of its day (time up to `since`). */
  last: { status: ComponentStatus; since: number; cum: Cumulative }
}

export interface SlaComponentInput {
  id: number
  name: string
  target: SlaTarget | null
  /** The first recorded status (time before it is unknown and not counted); null: nothing recorded. */
  knownFrom: number | null
  rollup: RollupInput | null
  /**
   * The down and degraded spans that need a time of day (short outages, those overlapping
   * maintenance); `end` null while it lasts. The rest is in the roll-ups.
   */
  spans: ReadonlyArray<{ status: 'down' | 'degraded'; start: number; end: number | null }>
  /** The longest down span clipped to the range among those not in `spans` (0: none). */
  longestDownMs: number
  /** Maintenance windows that cover this component. */
  maintenance: ReadonlyArray<{ start: number; end: number }>
  /** Incidents that name this component and overlap the range. */
  incidents: ReadonlyArray<{ startedAt: number; resolvedAt: number | null }>
}

export interface SlaBucket extends StatusTimes {
  start: number
  end: number
  maintenanceMs: number
  /** % not down under the policy, floored to 4 decimals; null without measured time. */
  percent: number | null
  level: 'none' | 'ok' | 'minor' | 'major' | 'maintenance'
}

export interface SlaComponentReport {
  id: number
  name: string
  target: SlaTarget | null
  policy: SlaPolicy
  totals: StatusTimes & { maintenanceMs: number; measuredMs: number }
  /** Down time as the policy counts it (down, plus degraded when it counts, minus short outages). */
  downtimeMs: number
  /** Parts per million of measured time not down; null without measured time. */
  actualPpm: number | null
  met: boolean | null
  budget: { allowedMs: number; usedMs: number; leftMs: number; usedPct: number } | null
  outages: { count: number; ignoredShort: number; longestMs: number }
  incidents: { count: number; resolved: number; mttrMs: number | null }
  strip: SlaBucket[]
}

export interface SlaReportInput {
  from: number
  /** The end of the range (exclusive); may be after `now` (a period still running). */
  to: number
  now: number
  /** Strip bucket length in days (1 = daily). */
  bucketDays: number
  components: readonly SlaComponentInput[]
}

/** The largest strip the screen and the PDF draw; longer ranges get buckets of several days. */
export const MAX_STRIP_BARS = 92

/** Days per strip bucket: daily up to 92 days, then weekly, then as many days as keep it to 92 bars. */
export function bucketDaysFor(days: number): number {
  if (days <= MAX_STRIP_BARS) return 1
  return Math.max(7, Math.ceil(days / MAX_STRIP_BARS))
}

/** The bucket boundaries of a range: [from, from + k days, …, to]. */
export function bucketBounds(from: number, to: number, bucketDays: number): number[] {
  const bounds: number[] = []
  for (let t = from; t < to; t += bucketDays * DAY_MS) bounds.push(t)
  bounds.push(to)
  return bounds
}

/** Days whose cumulative rows the report needs: the day before each boundary it measures up to. */
export function daysNeeded(from: number, to: number, now: number, bucketDays: number): number[] {
  const end = Math.min(to, now)
  return [...new Set(bucketBounds(from, to, bucketDays).map((t) => Math.ceil(Math.min(t, end) / DAY_MS) - 1))]
}

const zero = (): Cumulative => ({ upMs: 0, degradedMs: 0, downMs: 0, outages: 0 })
const FIELD_OF_WORD = { up: 'upMs', degraded: 'degradedMs', down: 'downMs' } as const
const FIELD = (status: ComponentStatus): keyof StatusTimes => FIELD_OF_WORD[TIME_COUNTED_AS[status]]

/** Cumulative time per status up to instant `t` (a UTC midnight, or the measuring end). */
export function cumAt(rollup: RollupInput | null, t: number): Cumulative {
  if (!rollup) return zero()
  const { last } = rollup
  if (t >= last.since) {
    const total = { ...last.cum }
    total[FIELD(last.status)] += t - last.since
    return total
  }
  const day = Math.ceil(t / DAY_MS) - 1
  if (day < rollup.firstDay) return zero()
  // Days are dense between the first day and the latest change: a missing row means no data.
  return rollup.cumByDay.get(day) ?? zero()
}

const overlap = (a0: number, a1: number, b0: number, b1: number): number => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0))

/** Merges overlapping windows so no time is taken out twice. */
function merged(windows: ReadonlyArray<{ start: number; end: number }>, from: number, to: number) {
  const list = windows
    .map((w) => ({ start: Math.max(w.start, from), end: Math.min(w.end, to) }))
    .filter((w) => w.end > w.start)
    .sort((a, b) => a.start - b.start)
  const out: Array<{ start: number; end: number }> = []
  for (const w of list) {
    const lastWindow = out[out.length - 1]
    if (lastWindow && w.start <= lastWindow.end) lastWindow.end = Math.max(lastWindow.end, w.end)
    else out.push({ ...w })
  }
  return out
}

/** floor(a × scale / b) exactly, for ms counts whose product would pass 2^53. */
const ratio = (a: number, b: number, scale: bigint): number => Number((BigInt(Math.round(a)) * scale) / BigInt(Math.round(b)))

/** The down time a bucket's statuses add up to under the policy (half of degraded rounds up). */
function countedDown(times: StatusTimes, policy: SlaPolicy): number {
  if (policy.degradedCountsAs === 'down') return times.downMs + times.degradedMs
  if (policy.degradedCountsAs === 'half') return times.downMs + Math.ceil(times.degradedMs / 2)
  return times.downMs
}

function levelOf(bucket: StatusTimes & { maintenanceMs: number }): SlaBucket['level'] {
  const measured = bucket.upMs + bucket.degradedMs + bucket.downMs
  if (measured === 0) return bucket.maintenanceMs > 0 ? 'maintenance' : 'none'
  if (bucket.downMs / measured >= 0.05) return 'major'
  return bucket.downMs > 0 || bucket.degradedMs > 0 ? 'minor' : 'ok'
}

export function computeComponent(input: SlaComponentInput, range: SlaReportInput): SlaComponentReport {
  const policy = input.target?.policy ?? DEFAULT_POLICY
  const end = Math.min(range.to, range.now)
  const bounds = bucketBounds(range.from, range.to, range.bucketDays)
  const buckets = bounds.slice(0, -1).map((start, i) => {
    const stop = bounds[i + 1]!
    const a = cumAt(input.rollup, Math.min(start, end))
    const b = cumAt(input.rollup, Math.min(stop, end))
    return { start, end: stop, upMs: b.upMs - a.upMs, degradedMs: b.degradedMs - a.degradedMs, downMs: b.downMs - a.downMs, maintenanceMs: 0 }
  })
  const forEachBucket = (from: number, to: number, apply: (bucket: (typeof buckets)[number], ms: number) => void) => {
    for (const bucket of buckets) {
      const ms = overlap(bucket.start, bucket.end, from, to)
      if (ms > 0) apply(bucket, ms)
    }
  }

  // Outages shorter than the policy's minimum: their time counts as up.
  const minMs = policy.minOutageSeconds * 1000
  const counted: Array<{ status: 'down' | 'degraded'; start: number; end: number }> = []
  let ignoredShort = 0
  let longestMs = input.longestDownMs
  for (const span of input.spans) {
    const spanEnd = Math.min(span.end ?? end, end)
    const from = Math.max(span.start, range.from)
    if (spanEnd <= from) continue
    if (span.status === 'down' && minMs > 0 && (span.end ?? end) - span.start < minMs) {
      // Counted by the roll-ups as an outage started in the range: taken out again.
      if (span.start >= range.from) ignoredShort++
      forEachBucket(from, spanEnd, (bucket, ms) => {
        bucket.downMs -= ms
        bucket.upMs += ms
      })
      continue
    }
    if (span.status === 'down') longestMs = Math.max(longestMs, spanEnd - from)
    counted.push({ status: span.status, start: from, end: spanEnd })
  }

  // Maintenance: its time leaves every status (only where a status was known).
  if (policy.excludeMaintenance && input.knownFrom !== null) {
    for (const window of merged(input.maintenance, Math.max(range.from, input.knownFrom), end)) {
      forEachBucket(window.start, window.end, (bucket, ms) => {
        const from = Math.max(window.start, bucket.start)
        const to = Math.min(window.end, bucket.end)
        let down = 0
        let degraded = 0
        for (const span of counted) {
          const inside = overlap(span.start, span.end, from, to)
          if (span.status === 'down') down += inside
          else degraded += inside
        }
        bucket.downMs -= down
        bucket.degradedMs -= degraded
        bucket.upMs -= ms - down - degraded
        bucket.maintenanceMs += ms
      })
    }
  }

  const strip: SlaBucket[] = buckets.map((bucket) => {
    const measured = bucket.upMs + bucket.degradedMs + bucket.downMs
    const percent = measured > 0 ? ratio(measured - countedDown(bucket, policy), measured, 1_000_000n) / 10_000 : null
    return { ...bucket, percent, level: levelOf(bucket) }
  })
  const totals = { upMs: 0, degradedMs: 0, downMs: 0, maintenanceMs: 0, measuredMs: 0 }
  for (const bucket of buckets) {
    totals.upMs += bucket.upMs
    totals.degradedMs += bucket.degradedMs
    totals.downMs += bucket.downMs
    totals.maintenanceMs += bucket.maintenanceMs
  }
  totals.measuredMs = totals.upMs + totals.degradedMs + totals.downMs
  const downtimeMs = countedDown(totals, policy)
  const actualPpm = totals.measuredMs > 0 ? ratio(totals.measuredMs - downtimeMs, totals.measuredMs, 1_000_000n) : null

  let budget: SlaComponentReport['budget'] = null
  if (input.target && input.knownFrom !== null) {
    // The budget spans the whole range (a running period's budget is the whole period's), less the
    // excluded maintenance and the time before the component's first recorded status.
    const plannedMs = range.to - Math.max(range.from, Math.min(input.knownFrom, range.to)) - totals.maintenanceMs
    const allowedMs = Math.max(0, ratio(plannedMs, 1_000_000, BigInt(1_000_000 - input.target.targetPpm)))
    const usedPct = allowedMs > 0 ? ratio(downtimeMs, allowedMs, 10_000n) / 100 : downtimeMs > 0 ? Infinity : 0
    budget = { allowedMs, usedMs: downtimeMs, leftMs: allowedMs - downtimeMs, usedPct }
  }

  const outageCount = cumAt(input.rollup, end).outages - cumAt(input.rollup, Math.min(range.from, end)).outages - ignoredShort
  const resolved = input.incidents.filter((i) => i.resolvedAt !== null)
  const mttrMs = resolved.length > 0 ? Math.round(resolved.reduce((sum, i) => sum + (i.resolvedAt! - i.startedAt), 0) / resolved.length) : null
  return {
    id: input.id,
    name: input.name,
    target: input.target,
    policy,
    totals,
    downtimeMs,
    actualPpm,
    met: input.target && actualPpm !== null ? actualPpm >= input.target.targetPpm : null,
    budget,
    outages: { count: outageCount, ignoredShort, longestMs },
    incidents: { count: input.incidents.length, resolved: resolved.length, mttrMs },
    strip,
  }
}

export function computeSlaReport(input: SlaReportInput): SlaComponentReport[] {
  return input.components.map((component) => computeComponent(component, input))
}

/** "99.9000": parts per million as a percentage with 4 decimals (already floored). */
export const formatPpm = (ppm: number): string => (ppm / 10_000).toFixed(4)

/** 2592000 → "0:43:12", 90061000 → "25:01:01" (hours not folded into days: totals read as durations). */
export function formatDuration(ms: number): string {
  const negative = ms < 0
  const seconds = Math.floor(Math.abs(ms) / 1000)
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return `${negative ? '-' : ''}${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
}

/** The policy in words, as every report states it. */
export function describePolicy(policy: SlaPolicy): string {
  const degraded = { up: 'degraded time counts as up', down: 'degraded time counts as down', half: 'degraded time counts half as down' }[policy.degradedCountsAs]
  const maintenance = policy.excludeMaintenance ? 'time inside maintenance windows is excluded' : 'time inside maintenance windows counts like any other'
  const shortest = policy.minOutageSeconds > 0 ? `outages shorter than ${policy.minOutageSeconds} s are not counted` : 'every recorded outage counts, however short'
  return `Down time counts as down; ${degraded}; ${maintenance}; ${shortest}; time before the first recorded status is not counted.`
}
