import { describe, expect, test } from 'bun:test'
import { chosenZone, formatInZone, localToIso, toLocalInput, zoneCookie, zoneOf } from '../../src/web/kit/zones.ts'

const withCookie = (cookie: string) => new Request('http://localhost/user', { headers: { cookie } })

describe('times in the owner zone', () => {
  test('a datetime-local value reads in the named zone, either side of a DST change', () => {
    expect(localToIso('2026-11-23T09:30', 'UTC')).toBe('2026-11-23T09:30:00.000Z')
    expect(localToIso('2026-11-23T09:30', 'Europe/Berlin')).toBe('2026-11-23T08:30:00.000Z')
    expect(localToIso('2026-07-01T09:30', 'Europe/Berlin')).toBe('2026-07-01T07:30:00.000Z')
    expect(localToIso('2026-11-24T09:00', 'America/New_York')).toBe('2026-11-24T14:00:00.000Z')
    expect(localToIso('2026-03-29T03:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z')
    expect(localToIso('2026-06-01T12:00', 'Asia/Kolkata')).toBe('2026-06-01T06:30:00.000Z')
  })

  test('round trip: an instant shown in a zone reads back as the same instant', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
      for (const ms of [Date.UTC(2026, 0, 15, 10, 45), Date.UTC(2026, 6, 15, 23, 15)]) {
        expect({ zone, back: localToIso(toLocalInput(ms, zone), zone) }).toEqual({ zone, back: new Date(ms).toISOString() })
      }
    }
  })

  test('malformed values are not times (the API then names the field)', () => {
    for (const bad of ['', 'tomorrow', '2026-02-30T10:00', '2026-11-23 10:00', '2026-11-23T25:00', '2026-11-23T10:00Z']) {
      expect({ bad, read: localToIso(bad, 'UTC') }).toEqual({ bad, read: undefined })
    }
  })

  test('the remembered zone: only a zone the runtime knows; else UTC', () => {
    expect(zoneOf(withCookie('lantern_tz=Europe%2FBerlin'))).toBe('Europe/Berlin')
    expect(chosenZone(withCookie('other=1'))).toBeUndefined()
    expect(zoneOf(withCookie('lantern_tz=Mars%2FOlympus'))).toBe('UTC')
    expect(zoneOf(withCookie('lantern_tz=%E0%A4%A'))).toBe('UTC')
    expect(zoneCookie({ scheme: 'https' }, 'Europe/Berlin')).toBe('lantern_tz=Europe%2FBerlin; Path=/user; SameSite=Lax; Max-Age=31536000; Secure')
    expect(formatInZone(Date.UTC(2026, 10, 24, 14), 'America/New_York')).toBe('24 Nov 2026, 09:00 EST')
  })
})
