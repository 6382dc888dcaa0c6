/**
 * The partial outage in the pure parts of the status pipeline: its display word (never hidden by a
 * maintenance), the incident impact it gives, and how its time is counted (as degraded: available
 * in uptime, in the degraded bucket of the roll-ups the SLA report reads).
 */
import { describe, expect, test } from 'bun:test'
import { componentDisplayStatus, incidentImpact, worstOf } from '../../../src/modules/status-pipeline/status.ts'
import { dailyUptime, dayLevel, rolledUpUptime, uptimePercent } from '../../../src/modules/status-pipeline/uptime.ts'
import { rollUp, zeroTotals } from '../../../src/modules/analytics/rollup.ts'
import { cumAt } from '../../../src/modules/sla/compute.ts'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0)
const H = 3_600_000
const DAY = Date.UTC(2026, 10, 19)

describe('display status', () => {
  test('partial shows as partial outage, also inside a maintenance window; degraded and up are hidden by one', () => {
    expect(componentDisplayStatus('partial', false)).toBe('partial_outage')
    expect(componentDisplayStatus('partial', true)).toBe('partial_outage')
    expect(componentDisplayStatus('down', true)).toBe('major_outage')
    expect(componentDisplayStatus('degraded', true)).toBe('under_maintenance')
    expect(componentDisplayStatus('degraded', false)).toBe('degraded_performance')
    expect(componentDisplayStatus('up', false)).toBe('operational')
  })

  test('a group of components shows its worst: partial between degraded and major', () => {
    expect(worstOf(['degraded_performance', 'partial_outage', 'operational'])).toBe('partial_outage')
    expect(worstOf(['partial_outage', 'major_outage'])).toBe('major_outage')
  })
})

describe('incident impact', () => {
  test('derived from the worst affected status, at least minor; the owner’s choice wins', () => {
    expect(incidentImpact(['operational', 'partial_outage'])).toBe('major')
    expect(incidentImpact(['partial_outage', 'major_outage'])).toBe('critical')
    expect(incidentImpact(['degraded_performance'])).toBe('minor')
    expect(incidentImpact(['operational'])).toBe('minor')
    expect(incidentImpact([])).toBe('minor')
    expect(incidentImpact(['major_outage'], 'none')).toBe('none')
    expect(incidentImpact(['operational'], 'critical')).toBe('critical')
  })
})

describe('time accounting', () => {
  const changes = [
    { status: 'partial' as const, at: DAY + 10 * H },
    { status: 'up' as const, at: DAY + 12 * H },
  ]

  test('uptime: partial outage counts as available, as degraded does; the day is yellow, not red', () => {
    const days = dailyUptime({ changes, statusAtStart: 'up', days: 3, now: NOW })
    const day = days.find((d) => d.day === DAY)!
    expect(day).toMatchObject({ upMs: 22 * H, degradedMs: 2 * H, downMs: 0 })
    expect(dayLevel(day)).toBe('minor')
    expect(uptimePercent([day])).toBe(100)
    // A component in partial outage since yesterday noon: the roll-up path counts it the same.
    const rolled = rolledUpUptime({ rows: [], status: 'partial', since: DAY + 12 * H, days: 3, now: NOW })
    expect(rolled.find((d) => d.day === DAY)!.degradedMs).toBe(12 * H)
  })

  test('analytics roll-ups put partial time in the degraded column, never as an outage', () => {
    const rows = rollUp({ startDay: DAY / (24 * H), before: 'up', cum: zeroTotals(), entries: changes })
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ up_ms: 10 * H, degraded_ms: 2 * H, down_ms: 0, outages: 0, longest_down_ms: 0 })
  })

  test('the SLA report reads a component still in partial outage as degraded time', () => {
    const cum = { upMs: 5, degradedMs: 0, downMs: 0, outages: 0 }
    const at = cumAt({ firstDay: 0, cumByDay: new Map(), last: { status: 'partial', since: 1000, cum } }, 1000 + H)
    expect(at).toEqual({ upMs: 5, degradedMs: H, downMs: 0, outages: 0 })
  })
})
