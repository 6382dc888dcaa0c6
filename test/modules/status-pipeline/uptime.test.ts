import { describe, expect, test } from 'bun:test'
import { combinedUptime, dailyUptime, dayLevel, formatPercent, uptimePercent, windowStart } from '../../../src/modules/status-pipeline/uptime.ts'
import { DAY_MS } from '../../../src/lib/time.ts'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0) // noon, day 90 of the window
const H = 3_600_000

describe('daily uptime from status changes', () => {
  test('the window has 90 days ending today; today counts only up to now', () => {
    const days = dailyUptime({ changes: [], statusAtStart: 'up', days: 90, now: NOW })
    expect(days).toHaveLength(90)
    expect(days[0]!.day).toBe(windowStart(NOW, 90))
    expect(days[89]!.day).toBe(Date.UTC(2026, 10, 20))
    expect(days[0]!.upMs).toBe(DAY_MS)
    expect(days[89]!.upMs).toBe(12 * H)
    expect(uptimePercent(days)).toBe(100)
  })

  test('a down span across midnight is split between the two days', () => {
    const start = Date.UTC(2026, 10, 18, 23, 0)
    const days = dailyUptime({
      changes: [
        { status: 'down', at: start },
        { status: 'up', at: start + 3 * H },
      ],
      statusAtStart: 'up',
      days: 90,
      now: NOW,
    })
    const d18 = days.find((d) => d.day === Date.UTC(2026, 10, 18))!
    const d19 = days.find((d) => d.day === Date.UTC(2026, 10, 19))!
    expect(d18.downMs).toBe(1 * H)
    expect(d19.downMs).toBe(2 * H)
    expect(d18.upMs + d18.downMs).toBe(DAY_MS)
    expect(dayLevel(d18)).toBe('minor') // 1 h of 24 is below 5 %
    expect(dayLevel(d19)).toBe('major') // 2 h is above
    expect(formatPercent(((DAY_MS - 2 * H) / DAY_MS) * 100)).toBe('91.66')
  })

  test('days before anything was recorded have no data; degraded counts as available', () => {
    const created = Date.UTC(2026, 10, 19, 6, 0)
    const days = dailyUptime({
      changes: [
        { status: 'up', at: created },
        { status: 'degraded', at: created + H },
      ],
      statusAtStart: undefined,
      days: 90,
      now: NOW,
    })
    expect(dayLevel(days[0]!)).toBe('none')
    expect(uptimePercent(days.slice(0, 88))).toBeNull()
    const d19 = days[88]!
    expect(d19.upMs).toBe(H)
    expect(d19.degradedMs).toBe(17 * H)
    expect(dayLevel(d19)).toBe('minor')
    expect(uptimePercent(days)).toBe(100)
  })

  test('a long outage paints the day red; maintenance is left out of the figures', () => {
    const day = Date.UTC(2026, 10, 10)
    const days = dailyUptime({
      changes: [
        { status: 'down', at: day + 2 * H },
        { status: 'up', at: day + 8 * H },
      ],
      statusAtStart: 'up',
      maintenance: [{ start: day + 2 * H, end: day + 4 * H }],
      days: 90,
      now: NOW,
    })
    const d = days.find((x) => x.day === day)!
    expect(d.downMs).toBe(4 * H)
    expect(d.maintenanceMs).toBe(2 * H)
    expect(d.upMs).toBe(18 * H)
    expect(dayLevel(d)).toBe('major')
  })

  test('percent formatting never rounds up to 100', () => {
    expect(formatPercent(100)).toBe('100')
    expect(formatPercent(99.999)).toBe('99.99')
    expect(formatPercent(99.5)).toBe('99.5')
    expect(formatPercent(0)).toBe('0')
  })
})

describe('combinedUptime (status JSON, uptime badge)', () => {
  const H = 3_600_000
  const now = Date.UTC(2026, 10, 2, 12) // 12:00 UTC on the second day of the window
  const from = windowStart(now, 2)

  test('time-weighted per day and in total; degraded counts as available; never rounds up', () => {
    const days = dailyUptime({
      statusAtStart: 'up',
      changes: [
        { status: 'down', at: from + 6 * H }, // 6 h down on day 1
        { status: 'degraded', at: from + 12 * H },
        { status: 'down', at: from + DAY_MS + 11 * H }, // 11:00–12:00 down today
      ],
      days: 2,
      now,
    })
    const result = combinedUptime([days], 2)
    expect(result.daily).toEqual([75, 91.66]) // 11/12 = 91.666… shown as 91.66, not 91.67
    expect(result.total).toBe(Math.floor(((36 - 7) / 36) * 10_000) / 100)
  })

  test('days before the first record have no data; components add up; maintenance is left out', () => {
    const a = dailyUptime({ statusAtStart: undefined, changes: [{ status: 'up', at: from + DAY_MS }], days: 2, now })
    const b = dailyUptime({
      statusAtStart: undefined,
      changes: [
        { status: 'down', at: from + DAY_MS },
        { status: 'up', at: from + DAY_MS + 6 * H },
      ],
      days: 2,
      now,
    })
    expect(combinedUptime([a, b], 2).daily).toEqual([null, 75])
    const inMaintenance = dailyUptime({
      statusAtStart: 'down',
      changes: [],
      maintenance: [{ start: from, end: now }],
      days: 2,
      now,
    })
    expect(combinedUptime([inMaintenance], 2)).toEqual({ daily: [null, null], total: null })
    expect(combinedUptime([], 3)).toEqual({ daily: [null, null, null], total: null })
  })
})
