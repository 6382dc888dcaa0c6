/**
 * A monitor's health score (pure), by the hosted service's rules (reference lines 303–314):
 * uptime 60 points over 24 h, p95 latency 20 points (last hour against a baseline), error rate 20
 * points over the last hour. The inputs are plain numbers so the rules are testable on their own.
 */

export interface HealthInputs {
  /** Checks in the last 24 h and how many of them failed. */
  total24h: number
  failed24h: number
  /** Checks in the last hour and how many of them failed. */
  total1h: number
  failed1h: number
  /** P95 response time of the last hour's timed checks (ms); null when none was timed. */
  p95LastHourMs: number | null
  /** The baseline p95 (ms); null or 0 when there is none. */
  p95BaselineMs: number | null
}

export interface HealthScore {
  /** 0–100, rounded to a whole number. */
  score: number
  /** The three parts, to one decimal. */
  uptime: number
  latency: number
  errors: number
}

const round1 = (x: number) => Math.round(x * 10) / 10
const clamp = (x: number, max: number) => Math.min(Math.max(x, 0), max)

/**
 * Null when the monitor made no check in 24 h: nothing was measured, and a made-up 100 or 0 would
 * mislead. A part whose own window is empty (no check, or no timed check, in the last hour) gets
 * its full points, as the reference does for "no baseline": nothing counts against it.
 */
export function healthScore(input: HealthInputs): HealthScore | null {
  if (input.total24h <= 0) return null
  const uptimePercent = ((input.total24h - input.failed24h) / input.total24h) * 100
  const uptime = Math.min((uptimePercent / 100) * 60, 60)
  let latency = 20
  if (input.p95BaselineMs !== null && input.p95BaselineMs > 0 && input.p95LastHourMs !== null) {
    latency = Math.max(0, 20 - Math.max(0, (input.p95LastHourMs / input.p95BaselineMs - 1) * 20))
  }
  const errors = input.total1h > 0 ? 20 * (1 - input.failed1h / input.total1h) : 20
  const parts = { uptime: clamp(uptime, 60), latency: clamp(latency, 20), errors: clamp(errors, 20) }
  return {
    score: Math.round(parts.uptime + parts.latency + parts.errors),
    uptime: round1(parts.uptime),
    latency: round1(parts.latency),
    errors: round1(parts.errors),
  }
}

/** The nearest-rank p95 of the values (null for none). */
export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)]!
}

const HOUR_MS = 3_600_000

/**
 * The inputs from a monitor's raw results of the last 24 h (the whole raw log: it is kept 24 h).
 * The baseline is the p95 over those 24 h — the reference asks for 30 days, but no p95 survives the
 * raw log (the check store's minute and day buckets keep sums and maxima, not percentiles), so the
 * longest window that has one stands in for it (stated in the monitors guide).
 */
export function healthInputs(results: ReadonlyArray<{ at: number; outcome: string; response_ms: number | null }>, now: number): HealthInputs {
  const hourAgo = now - HOUR_MS
  let total24h = 0
  let failed24h = 0
  let total1h = 0
  let failed1h = 0
  const lastHour: number[] = []
  const all: number[] = []
  for (const r of results) {
    if (r.at > now || r.at < now - 24 * HOUR_MS) continue
    const failed = r.outcome === 'fail'
    total24h++
    if (failed) failed24h++
    if (r.response_ms !== null) all.push(r.response_ms)
    if (r.at >= hourAgo) {
      total1h++
      if (failed) failed1h++
      if (r.response_ms !== null) lastHour.push(r.response_ms)
    }
  }
  return { total24h, failed24h, total1h, failed1h, p95LastHourMs: p95(lastHour), p95BaselineMs: p95(all) }
}
