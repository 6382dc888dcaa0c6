/**
 * Recurrence across daylight-saving changes (pure): the local start time holds in Europe/Berlin and
 * America/New_York, a time skipped by spring-forward moves forward by the gap, a time repeated by
 * fall-back takes the first; COUNT counts before exceptions; monthly days a month lacks are skipped.
 */
import { describe, expect, test } from 'bun:test'
import { occurrences, type RecurrenceRule } from '../../../src/modules/maintenances/recurrence.ts'
import { checkRule } from '../../../src/modules/maintenances/series.ts'

const all = { from: 0, to: Date.UTC(2100, 0, 1), limit: 100 }
const base: RecurrenceRule = { timeZone: 'UTC', startsOn: '2027-01-01', startTime: '02:00', durationMinutes: 60, frequency: 'daily', interval: 1, weekdays: [], exceptions: [] }
const starts = (rule: RecurrenceRule, range = all) => occurrences(rule, range).map((o) => `${o.on} ${new Date(o.startAt).toISOString().slice(11, 16)}Z`)

describe('recurrence across daylight-saving changes', () => {
  test('Europe/Berlin, daily at 02:30 over the spring change (28 March 2027) and the autumn one (31 October 2027)', () => {
    const rule = { ...base, timeZone: 'Europe/Berlin', startTime: '02:30' }
    expect(starts({ ...rule, startsOn: '2027-03-27', count: 3 })).toEqual([
      '2027-03-27 01:30Z', // CET, +1
      '2027-03-28 01:30Z', // 02:30 does not exist: 03:30 CEST
      '2027-03-29 00:30Z', // CEST, +2
    ])
    expect(starts({ ...rule, startsOn: '2027-10-30', count: 3 })).toEqual([
      '2027-10-30 00:30Z', // CEST
      '2027-10-31 00:30Z', // 02:30 happens twice: the first (CEST)
      '2027-11-01 01:30Z', // CET
    ])
    const spring = occurrences({ ...rule, startsOn: '2027-03-28', count: 1 }, all)[0]!
    expect(spring.endAt - spring.startAt).toBe(3_600_000)
  })

  test('America/New_York, weekly on Saturday and Sunday at 01:30 over 14 March 2027 and 7 November 2027', () => {
    const rule: RecurrenceRule = { ...base, timeZone: 'America/New_York', startTime: '01:30', frequency: 'weekly', weekdays: ['SA', 'SU'] }
    expect(starts({ ...rule, startsOn: '2027-03-13', untilOn: '2027-03-21' })).toEqual(['2027-03-13 06:30Z', '2027-03-14 06:30Z', '2027-03-20 05:30Z', '2027-03-21 05:30Z'])
    expect(starts({ ...rule, startsOn: '2027-11-06', untilOn: '2027-11-07' })).toEqual(['2027-11-06 05:30Z', '2027-11-07 05:30Z'])
    // 02:15 on 14 March 2027 does not exist in New York: 03:15 EDT.
    expect(starts({ ...rule, startTime: '02:15', weekdays: ['SU'], startsOn: '2027-03-07', count: 2 })).toEqual(['2027-03-07 07:15Z', '2027-03-14 07:15Z'])
  })

  test('the range asks for what an injected clock sees: the occurrence in progress, then the next ones', () => {
    const rule: RecurrenceRule = { ...base, timeZone: 'Europe/Berlin', startsOn: '2027-03-01', startTime: '22:00', durationMinutes: 180 }
    const now = Date.UTC(2027, 2, 28, 21, 30) // 23:30 CEST on 28 March, inside the occurrence of the 28th
    expect(starts(rule, { from: now, to: now + 3 * 86_400_000, limit: 10 })).toEqual(['2027-03-28 20:00Z', '2027-03-29 20:00Z', '2027-03-30 20:00Z', '2027-03-31 20:00Z'])
  })

  test('exceptions, count before exceptions, until, interval and monthly days a month lacks', () => {
    expect(starts({ ...base, count: 4, exceptions: ['2027-01-02'] })).toEqual(['2027-01-01 02:00Z', '2027-01-03 02:00Z', '2027-01-04 02:00Z'])
    expect(starts({ ...base, interval: 3, untilOn: '2027-01-10' })).toEqual(['2027-01-01 02:00Z', '2027-01-04 02:00Z', '2027-01-07 02:00Z', '2027-01-10 02:00Z'])
    expect(starts({ ...base, frequency: 'monthly', startsOn: '2027-01-31', count: 3 }).map((s) => s.slice(0, 10))).toEqual(['2027-01-31', '2027-03-31', '2027-05-31'])
    expect(starts({ ...base, frequency: 'weekly', interval: 2, startsOn: '2027-01-01', count: 3 }).map((s) => s.slice(0, 10))).toEqual(['2027-01-01', '2027-01-15', '2027-01-29'])
  })

  test('rules that cannot work are refused with the field named', () => {
    const bad: Array<[Partial<RecurrenceRule>, RegExp]> = [
      [{ timeZone: 'Mars/Olympus' }, /time_zone/],
      [{ startsOn: '2027-02-30' }, /starts_on/],
      [{ startTime: '24:00' }, /start_time/],
      [{ weekdays: ['MO'] }, /weekdays/],
      [{ monthDay: 3 }, /month_day/],
      [{ untilOn: '2027-01-05', count: 2 }, /until or count/],
      [{ untilOn: '2026-12-31' }, /until/],
      [{ exceptions: ['tomorrow'] }, /exceptions/],
      [{ durationMinutes: 1400 }, /duration_minutes must be at most 1380/],
      [{ frequency: 'weekly', weekdays: ['MO', 'TU'], durationMinutes: 1500 }, /at most 1380/],
    ]
    for (const [change, message] of bad) expect(() => checkRule({ ...base, ...change })).toThrow(message)
    expect(() => checkRule({ ...base, frequency: 'weekly', durationMinutes: 48 * 60 })).not.toThrow()
  })
})
