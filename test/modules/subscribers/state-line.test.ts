/** The first line of a subscriber's incident mail: the state's word once, then the message. */
import { describe, expect, test } from 'bun:test'
import { INCIDENT_STATES } from '../../../src/modules/incidents/states.ts'
import { stateLine } from '../../../src/modules/subscribers/events.ts'

const LABELS = { investigating: 'Investigating', identified: 'Identified', monitoring: 'Monitoring', resolved: 'Resolved' } as const

describe('stateLine', () => {
  for (const state of INCIDENT_STATES) {
    const label = LABELS[state]
    test(`${state}: the word is said once, whatever the message begins with`, () => {
      expect(stateLine(state, 'All good now.')).toBe(`${label}: All good now.`)
      for (const written of [`${label}: All good now.`, `${label.toLowerCase()} - All good now.`, `${label.toUpperCase()} — All good now.`, `${label}:All good now.`, `${label}. All good now.`]) {
        expect(stateLine(state, written)).toBe(`${label}: All good now.`)
      }
      // Only the word alone, or no message: the word.
      expect(stateLine(state, label)).toBe(label)
      expect(stateLine(state, '  ')).toBe(label)
      // A sentence that merely starts with the word keeps it.
      expect(stateLine(state, `${label} the cause took an hour.`)).toBe(`${label}: ${label} the cause took an hour.`)
    })
  }

  test('the automatic resolve reads once "Resolved"', () => {
    expect(stateLine('resolved', 'API recovered at 2026-11-01 12:08 UTC after 5 min.')).toBe('Resolved: API recovered at 2026-11-01 12:08 UTC after 5 min.')
    // What the automation wrote before: the duplicate goes.
    expect(stateLine('resolved', 'Resolved: API recovered at 2026-11-01 12:08 UTC after 5 min.')).toBe('Resolved: API recovered at 2026-11-01 12:08 UTC after 5 min.')
  })
})
