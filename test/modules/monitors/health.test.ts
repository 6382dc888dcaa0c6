import { describe, expect, test } from 'bun:test'
import { healthInputs, healthScore, p95, recentWindowMs, type HealthInputs } from '../../../src/modules/monitors/health.ts'

const HOUR = 3_600_000
const perfect: HealthInputs = { total24h: 1440, failed24h: 0, totalRecent: 60, failedRecent: 0, answeredRecent: 60, p95RecentMs: 100, p95BaselineMs: 100, recentMs: HOUR }
const parts = (input: HealthInputs) => {
  const s = healthScore(input)
  return s && { score: s.score, uptime: s.uptime, latency: s.latency, errors: s.errors }
}

describe('healthScore: the reference rules', () => {
  test('all up, latency at baseline, no errors: 100 with full parts', () => {
    expect(parts(perfect)).toEqual({ score: 100, uptime: 60, latency: 20, errors: 20 })
  })

  test('uptime: 90 % over 24 h gives 54 of 60', () => {
    expect(healthScore({ ...perfect, failed24h: 144 })!.uptime).toBe(54)
  })

  test('latency: p95 50 % above baseline loses 10; twice the baseline or worse loses all 20', () => {
    expect(healthScore({ ...perfect, p95RecentMs: 150 })!.latency).toBe(10)
    expect(healthScore({ ...perfect, p95RecentMs: 200 })!.latency).toBe(0)
    expect(healthScore({ ...perfect, p95RecentMs: 900 })!.latency).toBe(0)
  })

  test('latency faster than baseline never earns more than 20', () => {
    expect(healthScore({ ...perfect, p95RecentMs: 10 })!.latency).toBe(20)
  })

  test('no baseline (0): latency 20', () => {
    expect(healthScore({ ...perfect, p95BaselineMs: null, p95RecentMs: 5000 })!.latency).toBe(20)
    expect(healthScore({ ...perfect, p95BaselineMs: 0 })!.latency).toBe(20)
  })

  test('error rate: 15 of 60 failed in the last hour gives 15 of 20', () => {
    expect(healthScore({ ...perfect, failedRecent: 15, failed24h: 15 })!.errors).toBe(15)
  })

  test('the score is the rounded sum of the parts', () => {
    const s = parts({ total24h: 100, failed24h: 3, totalRecent: 10, failedRecent: 1, answeredRecent: 9, p95RecentMs: 130, p95BaselineMs: 100, recentMs: HOUR })!
    // 58.2 + 14 + 18 = 90.2
    expect(s).toEqual({ score: 90, uptime: 58.2, latency: 14, errors: 18 })
  })

  test('everything failed: 0', () => {
    expect(parts({ total24h: 10, failed24h: 10, totalRecent: 10, failedRecent: 10, answeredRecent: 10, p95RecentMs: 1000, p95BaselineMs: 100, recentMs: HOUR })).toEqual({ score: 0, uptime: 0, latency: 0, errors: 0 })
  })
})

describe('healthScore: edge cases (decided, documented in the monitors guide)', () => {
  test('no checks at all in 24 h: null, not a made-up score', () => {
    expect(healthScore({ total24h: 0, failed24h: 0, totalRecent: 0, failedRecent: 0, answeredRecent: 0, p95RecentMs: null, p95BaselineMs: null, recentMs: HOUR })).toBeNull()
  })

  test('nothing answered, nothing earned: every recent run failed without a response gives no latency points', () => {
    // The old rule gave the full 20 for "no timed check": a monitor that never got an answer scored 20 for latency.
    expect(parts({ total24h: 5, failed24h: 5, totalRecent: 5, failedRecent: 5, answeredRecent: 0, p95RecentMs: null, p95BaselineMs: null, recentMs: HOUR })).toEqual({ score: 0, uptime: 0, latency: 0, errors: 0 })
  })

  test('checks in 24 h but none in the recent window: no latency and no error points (nothing measured recently)', () => {
    expect(parts({ total24h: 20, failed24h: 2, totalRecent: 0, failedRecent: 0, answeredRecent: 0, p95RecentMs: null, p95BaselineMs: 100, recentMs: HOUR })).toEqual({ score: 54, uptime: 54, latency: 0, errors: 0 })
  })

  test('answers without a time (pushes without ping) keep the latency points: nothing to hold against them', () => {
    expect(parts({ total24h: 24, failed24h: 0, totalRecent: 1, failedRecent: 0, answeredRecent: 1, p95RecentMs: null, p95BaselineMs: null, recentMs: 2 * HOUR })).toEqual({ score: 100, uptime: 60, latency: 20, errors: 20 })
  })

  test('the recent window: an hour, or two intervals of a monitor that runs less often, at most a day', () => {
    expect(recentWindowMs(30)).toBe(HOUR)
    expect(recentWindowMs(3_600)).toBe(2 * HOUR)
    expect(recentWindowMs(21_600)).toBe(12 * HOUR)
    expect(recentWindowMs(86_400)).toBe(24 * HOUR)
  })
})

describe('p95', () => {
  test('nearest rank', () => {
    expect(p95([])).toBeNull()
    expect(p95([7])).toBe(7)
    expect(p95(Array.from({ length: 100 }, (_, i) => 100 - i))).toBe(95)
    expect(p95(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(19)
  })
})

describe('healthInputs', () => {
  test('windows: the recent window includes its first instant; older than 24 h, in the future or misconfigured is left out; degraded is not a failure', () => {
    const now = Date.UTC(2026, 10, 23, 12)
    const inputs = healthInputs(
      [
        { at: now - 24 * 3_600_000 - 1, outcome: 'fail', response_ms: null },
        { at: now - 24 * 3_600_000, outcome: 'fail', response_ms: null },
        { at: now - 3 * 3_600_000, outcome: 'ok', response_ms: 100 },
        { at: now - 3_600_000, outcome: 'degraded', response_ms: 300 },
        { at: now - 60_000, outcome: 'fail', response_ms: null },
        { at: now - 30_000, outcome: 'misconfigured', response_ms: null },
        { at: now + 1, outcome: 'fail', response_ms: null },
      ],
      now,
      3_600_000,
    )
    expect(inputs).toEqual({ total24h: 4, failed24h: 2, totalRecent: 2, failedRecent: 1, answeredRecent: 1, p95RecentMs: 300, p95BaselineMs: 300, recentMs: 3_600_000 })
  })
})
