/** How the analytics dashboard writes figures and dates (src/assets/analytics/format.js, pure). */
import { plugin } from 'bun'
import { describe, expect, test } from 'bun:test'
import { formatDateTime } from '../../src/lib/human-time.ts'

interface Format {
  pct(v: number | null): string
  duration(s: number | null): string
  isoDate(ms: number): string
  rangeLabel(range: { key: string; from: string; to: string; days: number }): string
  utcTime(iso: string | null): string
  dayLabel(ms: number): string
}
// Browsers get src/lib/human-time.ts as /static/analytics/human-time.js (the macro in
// web/human-time-build.ts); here format.js's import of it is resolved to that source.
plugin({
  name: 'human-time as served',
  setup(build) {
    build.onResolve({ filter: /^\.\/human-time\.js$/ }, () => ({ path: `${import.meta.dir}/../../src/lib/human-time.ts` }))
  },
})
// A browser script, not part of the typed program: loaded by path.
const FORMAT_PATH: string = '../../src/assets/analytics/format.js'
const format = (await import(FORMAT_PATH)) as Format

describe('pct', () => {
  const TABLE: Array<[number | null, string]> = [
    [100, '100 %'],
    [99.996, '99.996 %'],
    [99.9999, '99.999 %'],
    [50, '50 %'],
    [0, '0 %'],
    [12.5, '12.5 %'],
    [null, '–'],
  ]
  for (const [value, text] of TABLE) test(`${value} → ${text}`, () => expect(format.pct(value)).toBe(text))
})

describe('rangeLabel', () => {
  test('a custom range names its own last day, not the day after', () => {
    // What the report API sends for from=2026-11-01&to=2026-11-10: `to` is the exclusive end.
    expect(format.rangeLabel({ key: 'custom', from: '2026-11-01T00:00:00.000Z', to: '2026-11-11T00:00:00.000Z', days: 10 })).toBe(
      '1 Nov 2026 to 10 Nov 2026 (10 days)',
    )
  })
  test('a custom range ending today ends now: still today', () => {
    expect(format.rangeLabel({ key: 'custom', from: '2026-11-20T00:00:00.000Z', to: '2026-11-23T12:00:00.000Z', days: 4 })).toBe(
      '20 Nov 2026 to 23 Nov 2026 (4 days)',
    )
  })
  test('a one-day range', () => {
    expect(format.rangeLabel({ key: 'custom', from: '2026-11-05T00:00:00.000Z', to: '2026-11-06T00:00:00.000Z', days: 1 })).toBe('5 Nov 2026 (1 day)')
  })
  test('presets', () => {
    expect(format.rangeLabel({ key: '7d', from: '2026-11-17T00:00:00.000Z', to: '2026-11-23T12:00:00.000Z', days: 7 })).toBe('Last 7 days')
  })
})

test("chart axes are ISO days in UTC; dates for people are the server's own format, the zone named", () => {
  expect(format.isoDate(Date.UTC(2026, 10, 23, 23, 59))).toBe('2026-11-23')
  expect(format.isoDate(Date.UTC(2026, 0, 2))).toBe('2026-01-02')
  expect(format.utcTime('2026-11-23T14:05:09.000Z')).toBe('23 Nov 2026, 14:05 UTC')
  expect(format.utcTime('2026-11-23T14:05:09.000Z')).toBe(formatDateTime(Date.UTC(2026, 10, 23, 14, 5, 9)))
  expect(format.dayLabel(Date.UTC(2026, 0, 2, 23))).toBe('2 Jan 2026')
})

test('durations', () => {
  expect(format.duration(42)).toBe('42 s')
  expect(format.duration(3_600 + 120)).toBe('1 h 2 min')
  expect(format.duration(2 * 86_400 + 3_600 + 60)).toBe('2 d 1 h')
})

interface Scales {
  uptimeRange(min: number | null): [number, number]
  uptimeTicks(splits: number[]): string[]
  dayRange(min: number | null, max: number | null): [number, number]
}
const SCALES_PATH: string = '../../src/assets/analytics/scales.js'
const scales = (await import(SCALES_PATH)) as Scales

describe('the axes of the analytics charts', () => {
  test('uptime runs from just under the lowest day to 100 %, never to 150 %; no label above 100 %', () => {
    for (const [min, low] of [[100, 99], [99.95, 99], [97.2, 97], [42.5, 42], [0, 0], [null, 0]] as const) {
      const [from, to] = scales.uptimeRange(min)
      expect({ min, from, top: to > 100 && to < 105 }).toEqual({ min, from: low, top: true })
    }
    expect(scales.uptimeTicks([99, 99.5, 100, 100.5])).toEqual(['99 %', '99.5 %', '100 %', ''])
  })

  test("the day axis has half a day of room on each side, so today's point is drawn whole", () => {
    const today = Date.UTC(2026, 10, 23) / 1000
    expect(scales.dayRange(today - 6 * 86400, today)).toEqual([today - 6.5 * 86400, today + 43200])
    expect(scales.dayRange(today, today)).toEqual([today - 43200, today + 43200])
  })
})
