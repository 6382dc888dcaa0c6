import { describe, expect, test } from 'bun:test'
import { meanSeries, minuteStart, rollUp, type CheckResult } from '../../../src/modules/component-checks/rollup.ts'
import { DAY_MS, MINUTE_MS, utcDayStart } from '../../../src/lib/time.ts'

const T0 = Date.UTC(2026, 10, 1, 12, 0, 0)
const check = (offsetMs: number, ok: boolean, responseMs: number | null): CheckResult => ({ at: T0 + offsetMs, ok, responseMs })

describe('rollUp', () => {
  // [case, checks, bucket function, expected buckets]
  const TABLE: Array<[string, CheckResult[], (ms: number) => number, Array<[number, number, number, number, number, number | null]>]> = [
    ['nothing', [], minuteStart, []],
    ['one check', [check(5_000, true, 120)], minuteStart, [[T0, 1, 1, 1, 120, 120]]],
    [
      'two checks in one minute, one without a time',
      [check(1_000, true, 100), check(59_999, false, null)],
      minuteStart,
      [[T0, 2, 1, 1, 100, 100]],
    ],
    [
      'minute boundaries split buckets, out of order input comes out sorted',
      [check(60_000, true, 300), check(0, true, 100), check(59_000, false, 200)],
      minuteStart,
      [
        [T0, 2, 1, 2, 300, 200],
        [T0 + MINUTE_MS, 1, 1, 1, 300, 300],
      ],
    ],
    [
      'days',
      [check(-13 * 3600_000, true, 10), check(0, true, 20), check(11 * 3600_000, false, 30), check(12 * 3600_000, true, 40)],
      utcDayStart,
      [
        [utcDayStart(T0) - DAY_MS, 1, 1, 1, 10, 10],
        [utcDayStart(T0), 2, 1, 2, 50, 30],
        [utcDayStart(T0) + DAY_MS, 1, 1, 1, 40, 40],
      ],
    ],
    ['a failed check with no time', [check(0, false, null)], minuteStart, [[T0, 1, 0, 0, 0, null]]],
  ]
  for (const [name, checks, startOf, expected] of TABLE) {
    test(name, () => {
      expect(rollUp(checks, startOf).map((b) => [b.start, b.checks, b.okChecks, b.timedChecks, b.responseMsSum, b.responseMsMax])).toEqual(expected)
    })
  }
})

describe('meanSeries', () => {
  test('one slot per step, oldest first, null where nothing was timed, buckets outside ignored', () => {
    const buckets = [
      { start: T0, timedChecks: 2, responseMsSum: 300 },
      { start: T0, timedChecks: 1, responseMsSum: 300 }, // another component, same minute
      { start: T0 + 2 * MINUTE_MS, timedChecks: 3, responseMsSum: 100 },
      { start: T0 - MINUTE_MS, timedChecks: 1, responseMsSum: 999 },
      { start: T0 + 3 * MINUTE_MS, timedChecks: 1, responseMsSum: 999 },
      { start: T0 + MINUTE_MS, timedChecks: 0, responseMsSum: 0 },
    ]
    expect(meanSeries(buckets, T0, MINUTE_MS, 3)).toEqual([200, null, 33])
  })
})
