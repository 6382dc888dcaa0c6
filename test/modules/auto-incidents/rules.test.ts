/** The automation's decision table and texts, as pure functions. */
import { describe, expect, test } from 'bun:test'
import { decide, formatDuration, REOPEN_WINDOW_MS, type AutomationFacts } from '../../../src/modules/auto-incidents/rules.ts'

const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)
const base: AutomationFacts = { status: 'down', now: NOW, active: true, autoResolve: true, latest: null, maintenance: false, personIncident: false, flapping: false }
const open = { id: 7, open: true, acknowledged: false, autoResolved: false, resolvedAt: null, downSince: NOW - 60_000 }
const resolvedAt = (ago: number) => ({ id: 7, open: false, acknowledged: false, autoResolved: true, resolvedAt: NOW - ago, downSince: NOW - ago - 60_000 })

describe('decide', () => {
  test('down opens, unless inactive, already open or suppressed (maintenance first, then a person, then flapping)', () => {
    expect(decide(base)).toEqual({ action: 'open' })
    expect(decide({ ...base, active: false })).toEqual({ action: 'none' })
    expect(decide({ ...base, latest: open })).toEqual({ action: 'none' })
    expect(decide({ ...base, maintenance: true, personIncident: true, flapping: true })).toEqual({ action: 'none', suppressedBy: 'maintenance' })
    expect(decide({ ...base, personIncident: true, flapping: true })).toEqual({ action: 'none', suppressedBy: 'person_incident' })
    expect(decide({ ...base, flapping: true })).toEqual({ action: 'none', suppressedBy: 'flapping' })
  })

  test('the reopen window: up to and including 10 minutes after an automatic resolve; a person\'s resolve never reopens', () => {
    expect(decide({ ...base, latest: resolvedAt(REOPEN_WINDOW_MS) })).toEqual({ action: 'reopen', incidentId: 7 })
    expect(decide({ ...base, latest: resolvedAt(REOPEN_WINDOW_MS + 1) })).toEqual({ action: 'open' })
    expect(decide({ ...base, latest: { ...resolvedAt(1000), autoResolved: false } })).toEqual({ action: 'open' })
    // Suppression also holds a reopening back.
    expect(decide({ ...base, maintenance: true, latest: resolvedAt(1000) })).toEqual({ action: 'none', suppressedBy: 'maintenance' })
  })

  test('up resolves an open automatic incident; taken over or Auto Resolve off, it only notes the recovery; degraded does nothing', () => {
    const up = { ...base, status: 'up' as const, latest: open }
    expect(decide(up)).toEqual({ action: 'resolve', incidentId: 7, downSince: NOW - 60_000 })
    expect(decide({ ...up, latest: { ...open, acknowledged: true } })).toEqual({ action: 'note_recovery', incidentId: 7, downSince: NOW - 60_000 })
    expect(decide({ ...up, autoResolve: false })).toEqual({ action: 'note_recovery', incidentId: 7, downSince: NOW - 60_000 })
    expect(decide({ ...up, latest: null })).toEqual({ action: 'none' })
    expect(decide({ ...base, status: 'degraded', latest: open })).toEqual({ action: 'none' })
  })
})

test('formatDuration', () => {
  expect(formatDuration(0)).toBe('0 s')
  expect(formatDuration(45_000)).toBe('45 s')
  expect(formatDuration(120_000)).toBe('2 min')
  expect(formatDuration((43 * 60 + 12) * 1000)).toBe('43 min 12 s')
  expect(formatDuration((2 * 3600 + 5 * 60) * 1000)).toBe('2 h 5 min')
  expect(formatDuration((3 * 86_400 + 4 * 3600) * 1000)).toBe('3 d 4 h')
})
