/**
 * Times in the owner's time zone: forms take `datetime-local` wall-clock times in a named IANA zone
 * (the form says which), the API stores UTC. The zone the owner last chose is remembered in a cookie
 * (`lantern_tz`, Path=/user) so lists show times the same way; with none, UTC. Pure web standards (Intl).
 *
 *   const zone = zoneOf(request)                      // 'Europe/Berlin' or 'UTC'
 *   localToIso('2026-11-23T10:30', zone)              // '2026-11-23T09:30:00.000Z' (undefined if malformed)
 *   toLocalInput(ms, zone)                            // '2026-11-23T10:30' for a datetime-local value
 *   formatInZone(ms, zone)                            // '23 Nov 2026, 10:30 GMT+1'
 */
import type { Config } from '../../config.ts'
import { readCookie } from '../../lib/cookies.ts'
import { formatDateTime } from '../../lib/human-time.ts'

export const ZONE_COOKIE = 'lantern_tz'
export const DEFAULT_ZONE = 'UTC'

let zones: readonly string[] | undefined
/** Every zone this runtime knows, UTC first. */
export function zoneNames(): readonly string[] {
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')]
  return zones
}

export const isZone = (value: string | undefined): value is string => value !== undefined && zoneNames().includes(value)

/** The zone this browser's owner chose last (cookie), if any. */
export function chosenZone(request: Request): string | undefined {
  const raw = readCookie(request.headers.get('cookie'), ZONE_COOKIE)
  let zone: string | undefined
  try {
    zone = raw === undefined ? undefined : decodeURIComponent(raw)
  } catch {
    zone = undefined
  }
  return isZone(zone) ? zone : undefined
}

/** The zone remembered for this browser, else UTC. */
export const zoneOf = (request: Request): string => chosenZone(request) ?? DEFAULT_ZONE

/** The Set-Cookie that remembers `zone` for a year. */
export const zoneCookie = (config: Pick<Config, 'scheme'>, zone: string): string =>
  `${ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/user; SameSite=Lax; Max-Age=31536000${config.scheme === 'https' ? '; Secure' : ''}`

const partsFormat = new Map<string, Intl.DateTimeFormat>()
function wallClock(ms: number, zone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  let format = partsFormat.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    partsFormat.set(zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]))
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  }
}

/** The zone's offset from UTC at the instant `ms`, in ms (east positive). */
function offsetAt(ms: number, zone: string): number {
  const wall = wallClock(ms, zone)
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
  return asUtc - Math.floor(ms / 1000) * 1000
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/

/**
 * A `datetime-local` value read in `zone` as an RFC 3339 UTC string; undefined when it is not one
 * (the API's own check then names the field). A wall time skipped by a DST jump reads as the later offset.
 */
export function localToIso(local: string, zone: string): string | undefined {
  const match = LOCAL.exec(local)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s] = match
  const naive = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0))
  if (Number.isNaN(naive) || new Date(naive).getUTCDate() !== Number(d)) return undefined
  // Two passes settle the offset around a DST change.
  let ms = naive - offsetAt(naive, zone)
  ms = naive - offsetAt(ms, zone)
  return new Date(ms).toISOString()
}

const pad = (n: number) => String(n).padStart(2, '0')

/** An instant as a `datetime-local` value in `zone`. */
export function toLocalInput(ms: number, zone: string): string {
  const w = wallClock(ms, zone)
  return `${String(w.year).padStart(4, '0')}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`
}

/** An instant for people, in `zone`, the zone named (src/lib/human-time.ts). */
export const formatInZone = (ms: number, zone: string): string => formatDateTime(ms, zone)

/** `<option>`s data for a zone select. */
export const zoneOptions = (): Array<{ value: string; label: string }> => zoneNames().map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))
