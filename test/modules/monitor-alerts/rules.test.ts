/** Which change alerts, when a reminder is due (pure), and a monitor's alert inside a group's one view. */
import { describe, expect, test } from 'bun:test'
import type { EventView, MonitorFacts } from '../../../src/modules/channels/event-view.ts'
import { outageView } from '../../../src/modules/channels/outage-view.ts'
import { alertKindOf, reminderDue } from '../../../src/modules/monitor-alerts/rules.ts'

describe('alertKindOf', () => {
  test('every state but up alerts on entering it; up only after one of them; pending never', () => {
    expect(alertKindOf('up', 'down')).toBe('monitor.down')
    expect(alertKindOf('pending', 'down')).toBe('monitor.down')
    expect(alertKindOf('degraded', 'down')).toBe('monitor.down')
    expect(alertKindOf('up', 'degraded')).toBe('monitor.degraded')
    expect(alertKindOf('up', 'misconfigured')).toBe('monitor.misconfigured')
    expect(alertKindOf('down', 'up')).toBe('monitor.up')
    expect(alertKindOf('degraded', 'up')).toBe('monitor.up')
    expect(alertKindOf('misconfigured', 'up')).toBe('monitor.up')
    expect(alertKindOf('pending', 'up')).toBeNull()
    expect(alertKindOf('down', 'pending')).toBeNull()
  })
})

describe('reminderDue', () => {
  const base = { remind_every_min: 10, remind_max: 2, reminders_sent: 0, last_alert_at: 0, snoozed_until: null }
  test('due once the interval passed, while reminders are left and no snooze runs', () => {
    expect(reminderDue(base, 599_999)).toBe(false)
    expect(reminderDue(base, 600_000)).toBe(true)
    expect(reminderDue({ ...base, reminders_sent: 2 }, 10_000_000)).toBe(false)
    expect(reminderDue({ ...base, remind_every_min: null }, 10_000_000)).toBe(false)
    expect(reminderDue({ ...base, last_alert_at: null }, 10_000_000)).toBe(false)
    expect(reminderDue({ ...base, snoozed_until: 700_000 }, 650_000)).toBe(false)
    expect(reminderDue({ ...base, snoozed_until: 700_000 }, 700_000)).toBe(true)
  })
})

describe("a monitor's alert in one view", () => {
  const AT = Date.UTC(2026, 10, 27, 10, 0, 0)
  const monitorView: EventView = {
    kind: 'monitor.down', at: AT, id: `monitor:5:${AT}:monitor.down`, title: 'Monitor "API health" is down: HTTP 503',
    lines: ['Target: https://api.example.com/health', 'Reason: HTTP 503', 'Since 2026-11-27 10:00 UTC'], severity: 'critical', page: null,
    link: 'https://lantern.test/user/monitors/5', alertKey: `lantern:monitor:5:${AT}`, resolves: false, details: {}, monitor: { id: 5, url: 'https://lantern.test/user/monitors/5' },
    outage: { key: `monitor:5:${AT}`, since: AT, endedAt: null },
  }
  const component: EventView = {
    kind: 'component.status_changed', at: AT, id: 'component:3:x:down', title: 'API: Major outage', lines: ['API: Operational → Major outage', 'Since 2026-11-27 10:00 UTC'],
    severity: 'critical', page: null, link: 'https://acme.status.test', alertKey: 'lantern:component:3', resolves: false, component: { id: 3, name: 'API', from: 'up', to: 'down' }, details: {},
  }
  const down: MonitorFacts = { id: 5, name: 'API health', target: 'https://api.example.com/health', state: 'down', reason: 'HTTP 503', responseMs: 40, since: AT }

  test('alone, it is the message as it is (it already names the monitor, target and reason)', () => {
    expect(outageView([monitorView], [down])).toBe(monitorView)
  })

  test('with its component, the component leads; the monitor is named once, with a link to its screen', () => {
    const view = outageView([monitorView, component], [down])
    expect(view.title).toBe('API: Major outage — API health: HTTP 503')
    expect(view.lines).toEqual([
      'API: Operational → Major outage',
      'Monitor "API health" (https://api.example.com/health) is down: HTTP 503',
      'Monitor screen: https://lantern.test/user/monitors/5',
      'Since 2026-11-27 10:00 UTC',
    ])
    expect(view.alertKey).toBe('lantern:component:3')
  })
})
