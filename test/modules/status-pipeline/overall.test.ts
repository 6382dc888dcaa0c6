import { describe, expect, test } from 'bun:test'
import { overallStatus, type OverallStatus } from '../../../src/modules/status-pipeline/overall.ts'

type S = 'up' | 'degraded' | 'partial' | 'down'
const c = (...statuses: S[]) => statuses.map((status) => ({ status }))

// [case, components, active incidents, active maintenances, expected]
const TABLE: Array<[string, ReturnType<typeof c>, number, number, OverallStatus]> = [
  ['no components, nothing going on', c(), 0, 0, 'operational'],
  ['all up', c('up', 'up', 'up'), 0, 0, 'operational'],
  ['one degraded', c('up', 'degraded'), 0, 0, 'degraded_performance'],
  ['all degraded', c('degraded', 'degraded'), 0, 0, 'degraded_performance'],
  ['one down among several', c('up', 'down', 'degraded'), 0, 0, 'partial_outage'],
  ['every component down', c('down', 'down'), 0, 0, 'major_outage'],
  ['the only component down', c('down'), 0, 0, 'major_outage'],
  ['maintenance with all up', c('up', 'up'), 0, 1, 'under_maintenance'],
  ['maintenance hides degraded', c('up', 'degraded'), 0, 1, 'under_maintenance'],
  ['maintenance does not hide a partial outage', c('up', 'down'), 0, 1, 'partial_outage'],
  ['maintenance does not hide a major outage', c('down', 'down'), 0, 1, 'major_outage'],
  ['maintenance on a page without components', c(), 0, 2, 'under_maintenance'],
  ['an incident makes an operational page degraded', c('up', 'up'), 1, 0, 'degraded_performance'],
  ['an incident on a page without components', c(), 3, 0, 'degraded_performance'],
  ['an incident never improves a partial outage', c('up', 'down'), 2, 0, 'partial_outage'],
  ['an incident never improves a major outage', c('down'), 1, 0, 'major_outage'],
  // An open incident is news that a maintenance does not explain: it outranks the maintenance.
  ['an incident during maintenance: the incident shows', c('up'), 1, 1, 'degraded_performance'],
  ['an incident during maintenance on a page without components', c(), 1, 1, 'degraded_performance'],
  ['an incident during maintenance with a degraded component', c('up', 'degraded'), 1, 1, 'degraded_performance'],
  ['an incident during maintenance with an outage', c('up', 'down'), 1, 1, 'partial_outage'],
  ['an incident with a degraded component', c('degraded'), 1, 0, 'degraded_performance'],
  // A partial outage (set by people) sits between degraded and down.
  ['one component in partial outage', c('up', 'partial'), 0, 0, 'partial_outage'],
  ['every component in partial outage: still partial', c('partial', 'partial'), 0, 0, 'partial_outage'],
  ['the only component in partial outage', c('partial'), 0, 0, 'partial_outage'],
  ['partial outage outranks degraded', c('degraded', 'partial'), 0, 0, 'partial_outage'],
  ['down and partial: one down among several', c('partial', 'down'), 0, 0, 'partial_outage'],
  ['every component down but one in partial outage', c('down', 'down', 'partial'), 0, 0, 'partial_outage'],
  ['maintenance does not hide a component in partial outage', c('up', 'partial'), 0, 1, 'partial_outage'],
  ['an incident never improves a component in partial outage', c('partial'), 1, 1, 'partial_outage'],
]

describe('overallStatus', () => {
  for (const [name, components, incidents, maintenances, expected] of TABLE) {
    test(`${name} → ${expected}`, () => {
      expect(overallStatus({ components, activeIncidents: incidents, activeMaintenances: maintenances })).toBe(expected)
    })
  }

  test('incidents can only make it worse: for every row, adding an incident never gives a better status', () => {
    // Planned work is less bad than an unplanned problem (the order of the banner colours too).
    const rank: Record<OverallStatus, number> = {
      operational: 0,
      under_maintenance: 1,
      degraded_performance: 2,
      partial_outage: 3,
      major_outage: 4,
    }
    for (const [, components, incidents, maintenances] of TABLE) {
      const without = overallStatus({ components, activeIncidents: incidents, activeMaintenances: maintenances })
      const withMore = overallStatus({ components, activeIncidents: incidents + 1, activeMaintenances: maintenances })
      expect(rank[withMore]).toBeGreaterThanOrEqual(rank[without])
    }
  })
})
