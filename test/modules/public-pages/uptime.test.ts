import { describe, expect, test } from 'bun:test'
import { dailyUptime, DAY_MS, dayLevel, formatPercent, uptimePercent, windowStart } from '../../../src/modules/public-pages/uptime.ts'

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
