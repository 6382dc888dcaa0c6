import { expect, test } from 'bun:test'
import { parseRfc3339, toIso } from '../../src/lib/time.ts'

test('parses RFC 3339 date-times with an offset', () => {
  expect(parseRfc3339('2026-01-01T00:00:00Z')).toBe(Date.UTC(2026, 0, 1))
  expect(parseRfc3339('2026-01-01T02:00:00+02:00')).toBe(Date.UTC(2026, 0, 1))
  expect(parseRfc3339('2024-02-29T23:59:59.999z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999))
  expect(toIso(Date.UTC(2026, 0, 1))).toBe('2026-01-01T00:00:00.000Z')
})

test('refuses what is not a real instant', () => {
  for (const bad of ['', '2026-01-01', '2026-01-01T00:00:00', '2026-02-30T00:00:00Z', '2025-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:60:00Z', '2026-01-01T00:00:00+25:00', ' 2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z\n']) {
    expect(parseRfc3339(bad)).toBeUndefined()
  }
})
