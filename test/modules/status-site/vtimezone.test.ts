/**
 * VTIMEZONE of the calendar feed, pure: the observances of a zone are the changes the time-zone
 * database knows (Berlin and New York in 2027, Lord Howe's half hour), each starting at the local
 * time on the clock before the change; a zone without changes is one STANDARD observance; the feed
 * defines every TZID it uses, and a real parser (node-ical) reads the zones and still expands the
 * series to the page's occurrences.
 */
import { describe, expect, test } from 'bun:test'
import ical from 'node-ical'
import { renderCalendar } from '../../../src/modules/status-site/calendar.ts'
import { transitions, vtimezone } from '../../../src/modules/status-site/vtimezone.ts'
import type { PublicMaintenanceSeries } from '../../../src/modules/status-site/events.ts'

const observances = (lines: string[]) => lines.join('\n').match(/BEGIN:(STANDARD|DAYLIGHT)\n[^]*?END:\1/g)!.map((block) => block.split('\n').slice(0, -1).join(' '))

describe('vtimezone', () => {
  test('Berlin in 2027: summer time from 28 March 02:00, winter time from 31 October 03:00 (local)', () => {
    const lines = vtimezone('Europe/Berlin', 2027, 2027)
    expect(lines[0]).toBe('BEGIN:VTIMEZONE')
    expect(lines[1]).toBe('TZID:Europe/Berlin')
    expect(lines.at(-1)).toBe('END:VTIMEZONE')
    expect(observances(lines)).toEqual([
      'BEGIN:DAYLIGHT DTSTART:20260329T020000 TZOFFSETFROM:+0100 TZOFFSETTO:+0200',
      'BEGIN:STANDARD DTSTART:20261025T030000 TZOFFSETFROM:+0200 TZOFFSETTO:+0100',
      'BEGIN:DAYLIGHT DTSTART:20270328T020000 TZOFFSETFROM:+0100 TZOFFSETTO:+0200',
      'BEGIN:STANDARD DTSTART:20271031T030000 TZOFFSETFROM:+0200 TZOFFSETTO:+0100',
    ])
  })

  test('New York in 2027 (from 14 March and 7 November, 02:00 local); Lord Howe changes by half an hour', () => {
    expect(observances(vtimezone('America/New_York', 2027, 2027)).slice(2)).toEqual([
      'BEGIN:DAYLIGHT DTSTART:20270314T020000 TZOFFSETFROM:-0500 TZOFFSETTO:-0400',
      'BEGIN:STANDARD DTSTART:20271107T020000 TZOFFSETFROM:-0400 TZOFFSETTO:-0500',
    ])
    const lordHowe = transitions('Australia/Lord_Howe', 2027, 2027)
    expect(lordHowe.map((t) => (t.to - t.from) / 60_000)).toEqual([-30, 30])
    expect(observances(vtimezone('Australia/Lord_Howe', 2027, 2027)).at(-1)).toContain('TZOFFSETFROM:+1030 TZOFFSETTO:+1100')
  })

  test('a zone without changes is one STANDARD observance; the same zone and years give the same lines', () => {
    expect(observances(vtimezone('Asia/Tokyo', 2027, 2030))).toEqual(['BEGIN:STANDARD DTSTART:19700101T000000 TZOFFSETFROM:+0900 TZOFFSETTO:+0900'])
    expect(observances(vtimezone('UTC', 2027, 2027))).toEqual(['BEGIN:STANDARD DTSTART:19700101T000000 TZOFFSETFROM:+0000 TZOFFSETTO:+0000'])
    expect(vtimezone('Europe/Berlin', 2027, 2040)).toEqual(vtimezone('Europe/Berlin', 2027, 2040))
    // 2026 (the change before) to 2040: two changes a year.
    expect(observances(vtimezone('Europe/Berlin', 2027, 2040))).toHaveLength(2 * 15)
  })
})

const series = (id: number, timeZone: string, rule: Partial<PublicMaintenanceSeries['rule']> = {}): PublicMaintenanceSeries =>
  ({
    id,
    title: `Series ${id}`,
    message: '',
    components: [],
    sequence: 0,
    cancelledAt: null,
    createdAt: Date.UTC(2027, 0, 1),
    updatedAt: Date.UTC(2027, 0, 1),
    rule: { timeZone, startsOn: '2027-03-26', startTime: '03:00', durationMinutes: 45, frequency: 'daily', interval: 1, weekdays: [], exceptions: [], count: 6, ...rule },
  }) as unknown as PublicMaintenanceSeries

describe('the feed defines its zones', () => {
  test('one VTIMEZONE per TZID used, over the years of its series; node-ical reads them and expands the series as the page does', () => {
    const body = renderCalendar({
      name: 'Cal',
      url: 'https://cal.status.test',
      pageId: 1,
      maintenances: [],
      cancelled: [],
      series: [series(1, 'Europe/Berlin'), series(2, 'America/New_York', { count: undefined, untilOn: '2029-01-01' }), series(3, 'Europe/Berlin', { startsOn: '2028-01-05' })],
    })
    const used = [...new Set([...body.matchAll(/TZID=([^:;]+)/g)].map((m) => m[1]!))].sort()
    const defined = [...body.matchAll(/^TZID:(.+)$/gm)].map((m) => m[1]!.trim())
    expect(defined).toEqual(used)
    expect(used).toEqual(['America/New_York', 'Europe/Berlin'])
    // Berlin: 2026 to 2028 (series 1 and 3), New York 2026 to 2029.
    const zone = (name: string) => body.slice(body.indexOf(`TZID:${name}`), body.indexOf('END:VTIMEZONE', body.indexOf(`TZID:${name}`)))
    expect(zone('Europe/Berlin').match(/BEGIN:DAYLIGHT/g)).toHaveLength(3)
    expect(zone('America/New_York').match(/BEGIN:DAYLIGHT/g)).toHaveLength(4)
    const parsed = ical.sync.parseICS(body)
    expect(Object.values(parsed).filter((c) => c?.type === 'VTIMEZONE').map((c) => (c as { tzid: string }).tzid).sort()).toEqual(used)
    const berlin = Object.values(parsed).find((c) => c?.type === 'VEVENT' && c.uid.startsWith('maintenance-series-1.'))!
    const starts = ical.expandRecurringEvent(berlin as never, { from: new Date(Date.UTC(2027, 2, 1)), to: new Date(Date.UTC(2027, 4, 1)) }).map((i) => new Date(i.start).toISOString())
    // Two days in winter time (02:00Z), then summer time (01:00Z) from 28 March.
    expect(starts).toEqual(['2027-03-26T02:00:00.000Z', '2027-03-27T02:00:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-29T01:00:00.000Z', '2027-03-30T01:00:00.000Z', '2027-03-31T01:00:00.000Z'])
  })
})
