/**
 * Regions of a monitor, pure. A monitor runs in one or more regions: `local` is
 * the server's own scheduler, any other name a probe process (src/modules/probes). Each region's
 * results go through the same state machine (state.ts nextState) into a per-region state; the
 * monitor's confirmed state is the k-of-n aggregate of those, and only that aggregate reaches
 * components, incidents, notifications and analytics.
 *
 * The rule (documented in src/content/docs/scale-out.md):
 * - a region whose last result is older than STALE_INTERVALS intervals has no data: neither down nor up;
 * - a region whose run the configuration refused (misconfigured) has no data either; when no region
 *   reports but at least one fresh region is misconfigured, the monitor is misconfigured (never down);
 * - down when at least k reporting regions are down;
 * - otherwise the k-th worst reporting state (so k = 1 is "the worst region", k = n "the best");
 * - with fewer than k regions reporting the monitor cannot be down: a failure there shows as degraded;
 * - no region reporting at all changes nothing (the state is held).
 */
import type { MonitorState } from './state.ts'

export const LOCAL_REGION = 'local'
export const REGION_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/
export const MAX_REGIONS = 16
/** A region with no result for this many intervals is stale (no data). */
export const STALE_INTERVALS = 3

export interface RegionSnapshot {
  region: string
  state: MonitorState
  flapping: boolean
  /** Null: this region never reported. */
  lastCheckAt: number | null
}

export interface Aggregate {
  /** Null: no region reports, keep the current state. */
  state: MonitorState | null
  /** The region that decided the state is flapping (held at degraded by nextState). */
  flapping: boolean
  /** Regions reporting (fresh, with a state) and how many of them are down. */
  reporting: number
  down: number
}

const SEVERITY: Record<MonitorState, number> = { pending: -1, misconfigured: -1, unreachable: -1, up: 0, degraded: 1, down: 2 }

/** The monitor's regions from its stored JSON (the default, and anything unreadable, is just `local`). */
export function regionsOf(row: { regions_json: string }): string[] {
  try {
    const parsed = JSON.parse(row.regions_json) as unknown
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((r) => typeof r === 'string')) return parsed as string[]
  } catch {
    // fall through
  }
  return [LOCAL_REGION]
}

/** True for today's monitors: only the server itself runs them, and every result is the monitor's own. */
export function isLocalOnly(row: { regions_json: string }): boolean {
  const regions = regionsOf(row)
  return regions.length === 1 && regions[0] === LOCAL_REGION
}

export const staleAfterMs = (intervalMs: number): number => STALE_INTERVALS * intervalMs

export function isStale(lastCheckAt: number | null, intervalMs: number, now: number): boolean {
  return lastCheckAt === null || now - lastCheckAt > staleAfterMs(intervalMs)
}

/** The k-of-n aggregate of the regions' states (see the rule above). */
export function aggregateRegions(regions: readonly RegionSnapshot[], requiredDown: number, intervalMs: number, now: number): Aggregate {
  const current = regions.filter((r) => !isStale(r.lastCheckAt, intervalMs, now))
  const fresh = current
    .filter((r) => r.state !== 'pending' && r.state !== 'misconfigured')
    // Worst first; among equals a flapping region first, so a flap that decides is reported.
    .sort((a, b) => SEVERITY[b.state] - SEVERITY[a.state] || Number(b.flapping) - Number(a.flapping))
  const down = fresh.filter((r) => r.state === 'down').length
  if (fresh.length === 0) return { state: current.some((r) => r.state === 'misconfigured') ? 'misconfigured' : null, flapping: false, reporting: 0, down: 0 }
  const k = Math.max(1, requiredDown)
  if (fresh.length >= k) {
    const decider = fresh[k - 1]!
    return { state: decider.state, flapping: decider.flapping && decider.state === 'degraded', reporting: fresh.length, down }
  }
  // Too few regions report to confirm an outage: the worst of them, but never down.
  const worst = fresh[0]!
  const state = worst.state === 'down' ? 'degraded' : worst.state
  return { state, flapping: worst.flapping && state === 'degraded', reporting: fresh.length, down }
}

/** The rule in words, for the monitor's screen. */
export function regionRuleText(regions: readonly string[], requiredDown: number): string {
  const n = regions.length
  if (n === 1) return `Down when ${regions[0]} is down.`
  if (requiredDown === 1) return `Down when any 1 of its ${n} regions is down.`
  if (requiredDown === n) return `Down only when all ${n} of its regions are down.`
  return `Down when at least ${requiredDown} of its ${n} regions are down.`
}

/** One region of a monitor as the API and the screen show it. */
export interface RegionView {
  region: string
  /** pending: no result yet from this region. */
  state: MonitorState
  since: number | null
  flapping: boolean
  /** The last result is older than STALE_INTERVALS intervals (or never came after it was added): no data. */
  stale: boolean
  lastCheckAt: number | null
  lastOutcome: string | null
  lastResponseMs: number | null
  lastMessage: string | null
}
