import { describe, expect, test } from 'bun:test'
import { healthInputs, healthScore, p95 } from '../../../src/modules/monitors/health.ts'

const perfect = { total24h: 1440, failed24h: 0, total1h: 60, failed1h: 0, p95LastHourMs: 100, p95BaselineMs: 100 }

describe('healthScore: the reference rules', () => {
  test('all up, latency at baseline, no errors: 100 with full parts', () => {
    expect(healthScore(perfect)).toEqual({ score: 100, uptime: 60, latency: 20, errors: 20 })
  })

  test('uptime: 90 % over 24 h gives 54 of 60', () => {
    expect(healthScore({ ...perfect, failed24h: 144 })!.uptime).toBe(54)
  })

  test('latency: p95 50 % above baseline loses 10; twice the baseline or worse loses all 20', () => {
    expect(healthScore({ ...perfect, p95LastHourMs: 150 })!.latency).toBe(10)
    expect(healthScore({ ...perfect, p95LastHourMs: 200 })!.latency).toBe(0)
    expect(healthScore({ ...perfect, p95LastHourMs: 900 })!.latency).toBe(0)
  })

  test('latency faster than baseline never earns more than 20', () => {
    expect(healthScore({ ...perfect, p95LastHourMs: 10 })!.latency).toBe(20)
  })

  test('no baseline: latency 20', () => {
    expect(healthScore({ ...perfect, p95BaselineMs: null, p95LastHourMs: 5000 })!.latency).toBe(20)
    expect(healthScore({ ...perfect, p95BaselineMs: 0 })!.latency).toBe(20)
  })

  test('error rate: 15 of 60 failed in the last hour gives 15 of 20', () => {
    expect(healthScore({ ...perfect, failed1h: 15, failed24h: 15 })!.errors).toBe(15)
  })

  test('the score is the rounded sum of the parts', () => {
    const s = healthScore({ total24h: 100, failed24h: 3, total1h: 10, failed1h: 1, p95LastHourMs: 130, p95BaselineMs: 100 })!
    // 58.2 + 14 + 18 = 90.2
    expect(s).toEqual({ score: 90, uptime: 58.2, latency: 14, errors: 18 })
  })

  test('everything failed: 0', () => {
    expect(healthScore({ total24h: 10, failed24h: 10, total1h: 10, failed1h: 10, p95LastHourMs: 1000, p95BaselineMs: 100 })).toEqual({ score: 0, uptime: 0, latency: 0, errors: 0 })
  })
})

describe('healthScore: edge cases (decided, documented in the monitors guide)', () => {
  test('no checks at all in 24 h: null, not a made-up score', () => {
    expect(healthScore({ total24h: 0, failed24h: 0, total1h: 0, failed1h: 0, p95LastHourMs: null, p95BaselineMs: null })).toBeNull()
  })

  test('checks in 24 h but none in the last hour: errors and latency keep their full points', () => {
    expect(healthScore({ total24h: 20, failed24h: 2, total1h: 0, failed1h: 0, p95LastHourMs: null, p95BaselineMs: 100 })).toEqual({ score: 94, uptime: 54, latency: 20, errors: 20 })
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
  test('windows: the last hour includes its first instant; older than 24 h or in the future is left out; degraded is not a failure', () => {
    const now = Date.UTC(2026, 10, 23, 12)
    const inputs = healthInputs(
      [
        { at: now - 24 * 3_600_000 - 1, outcome: 'fail', response_ms: null },
        { at: now - 24 * 3_600_000, outcome: 'fail', response_ms: null },
        { at: now - 3 * 3_600_000, outcome: 'ok', response_ms: 100 },
        { at: now - 3_600_000, outcome: 'degraded', response_ms: 300 },
        { at: now - 60_000, outcome: 'fail', response_ms: null },
        { at: now + 1, outcome: 'fail', response_ms: null },
      ],
      now,
    )
    expect(inputs).toEqual({ total24h: 4, failed24h: 2, total1h: 2, failed1h: 1, p95LastHourMs: 300, p95BaselineMs: 300 })
  })
})
