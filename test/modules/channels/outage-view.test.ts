/** The one view of a group (pure): the component leads, monitors named with target and reason, one line per other event. */
import { describe, expect, test } from 'bun:test'
import type { EventView, MonitorFacts } from '../../../src/modules/channels/event-view.ts'
import { monitorLine, outageView } from '../../../src/modules/channels/outage-view.ts'

const AT = Date.UTC(2026, 10, 27, 10, 0, 0)
const page = { id: 1, slug: 'acme', name: 'Acme', url: 'https://acme.status.test', overall: 'major_outage' as const }
const component: EventView = {
  kind: 'component.status_changed', at: AT, id: 'component:3:x:down', title: 'API: Major outage',
  lines: ['API: Operational → Major outage', 'Since 2026-11-27 10:00 UTC'], severity: 'critical', page, link: page.url,
  alertKey: 'lantern:component:3', resolves: false, component: { id: 3, name: 'API', from: 'up', to: 'down' }, details: {},
}
const incident: EventView = {
  kind: 'incident.opened', at: AT, id: 'incident:9:1:incident.opened', title: 'Incident opened: API is experiencing issues',
  lines: ['State: Investigating', 'Affected: API', 'Our monitoring confirmed that API is down.'], severity: 'critical', page, link: `${page.url}/incidents/9`,
  alertKey: 'lantern:incident:9', resolves: false,
  incident: { id: 9, name: 'API is experiencing issues', state: 'investigating', startedAt: AT, createdAt: AT, updatedAt: AT, resolvedAt: null, impact: null, components: [], updates: [], postmortem: null }, details: {},
}
const down: MonitorFacts = { id: 5, name: 'API health', target: 'https://api.example.com/health', state: 'down', reason: 'HTTP 503', responseMs: 40, since: AT }

describe('outageView', () => {
  test('component and incident: the component leads, the reason in the title, the incident one line, its link', () => {
    const view = outageView([component, incident], [down])
    expect(view.title).toBe('API: Major outage — API health: HTTP 503')
    expect(view.lines).toEqual([
      'API: Operational → Major outage',
      'Monitor "API health" (https://api.example.com/health) is down: HTTP 503',
      'Since 2026-11-27 10:00 UTC',
      'Incident opened: API is experiencing issues (Investigating)',
    ])
    expect(view.link).toBe(`${page.url}/incidents/9`)
    expect(view.alertKey).toBe('lantern:component:3')
    expect(view.incident?.id).toBe(9)
  })

  test('a channel that hears incidents only: the incident leads and still names the monitor', () => {
    const view = outageView([incident], [down])
    expect(view.title).toBe('Incident opened: API is experiencing issues — API health: HTTP 503')
    expect(view.lines[1]).toBe('Monitor "API health" (https://api.example.com/health) is down: HTTP 503')
    expect(view.alertKey).toBe('lantern:incident:9')
  })

  test('a single event without monitors is left as it is; a recovery names no reason in its title', () => {
    expect(outageView([component], [])).toBe(component)
    const up = { ...component, title: 'API: Operational again after 4 min', severity: 'ok' as const, lines: ['API: Major outage → Operational', 'Duration: 4 min, since …'] }
    const view = outageView([up], [{ ...down, state: 'up', reason: 'HTTP 200' }])
    expect(view.title).toBe('API: Operational again after 4 min')
    expect(view.lines[1]).toBe('Monitor "API health" (https://api.example.com/health) is up again (40 ms)')
  })

  test('monitor lines: push monitors have no target, a missing reason is left out, a long reason is cut in the title only', () => {
    expect(monitorLine({ ...down, target: null, reason: null })).toBe('Monitor "API health" (push) is down')
    const long = 'x'.repeat(300)
    const view = outageView([component], [{ ...down, reason: long }])
    expect(view.title.length).toBeLessThan(200)
    expect(view.lines[1]).toContain(long)
  })
})
