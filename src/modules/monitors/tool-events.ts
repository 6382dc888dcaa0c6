/**
 * Which notifications an SSL or DNSBL report causes, given what was announced before (pure).
 *
 * SSL: `certificate.expiring` once per threshold (30, 15, 5 days left) per certificate — when a run
 * crosses several at once (first seen with 10 days left), one event for the nearest and all crossed
 * ones count as announced. `certificate.renewed` when a certificate with a later notAfter than any
 * seen before appears; the thresholds start over. Another certificate that expires no later (two
 * servers behind one name) renews nothing and re-announces nothing.
 * DNSBL: `dnsbl.listed` for each (address, zone) newly listed; `dnsbl.delisted` when a listed pair
 * answers clear again. A zone error keeps the pair as it was: an outage is neither news nor a delisting.
 */
import type { NotifyEvent } from '../notify/contract.ts'
import { DEFAULTS, type DnsblReport, type SslReport } from './kinds/spec.ts'

export interface AnnouncedState {
  certFingerprint: string | null
  certNotAfter: number | null
  expiryNotified: number[]
  listed: string[]
}

export const NOTHING_ANNOUNCED: AnnouncedState = { certFingerprint: null, certNotAfter: null, expiryNotified: [], listed: [] }

export interface MonitorRef {
  monitorId: number
  ownerId: number
  pageId: number | null
  /** The monitor's target as the owner wrote it. */
  target: string
}

export function sslEvents(previous: AnnouncedState, report: SslReport, monitor: MonitorRef, at: number): { state: AnnouncedState; events: NotifyEvent[] } {
  const events: NotifyEvent[] = []
  const notAfter = Date.parse(report.validTo)
  const base = { pageId: monitor.pageId, ownerId: monitor.ownerId, monitorId: monitor.monitorId, host: report.host, daysLeft: report.daysLeft, notAfter, at }
  let notified = previous.expiryNotified
  let latest = previous.certNotAfter
  if (previous.certFingerprint !== null && report.fingerprint256 !== previous.certFingerprint && latest !== null && notAfter > latest) {
    events.push({ kind: 'certificate.renewed', ...base })
    notified = []
  }
  latest = latest === null ? notAfter : Math.max(latest, notAfter)
  const crossed = DEFAULTS.certificateExpiryDays.filter((days) => report.daysLeft <= days)
  const fresh = crossed.filter((days) => !notified.includes(days))
  // Only the certificate with the latest expiry counts down: an older one seen meanwhile is not the one to renew.
  if (fresh.length > 0 && notAfter >= latest) {
    events.push({ kind: 'certificate.expiring', ...base })
    notified = [...new Set([...notified, ...crossed])].sort((a, b) => b - a)
  }
  return { state: { ...previous, certFingerprint: report.fingerprint256, certNotAfter: latest, expiryNotified: notified }, events }
}

export function dnsblEvents(previous: AnnouncedState, report: DnsblReport, monitor: MonitorRef, at: number): { state: AnnouncedState; events: NotifyEvent[] } {
  const key = (address: string, zone: string) => `${address} ${zone}`
  const was = new Set(previous.listed)
  const now = new Set<string>()
  const events: NotifyEvent[] = []
  const shown = (address: string) => (address === monitor.target ? address : `${monitor.target} (${address})`)
  const base = { pageId: monitor.pageId, ownerId: monitor.ownerId, monitorId: monitor.monitorId, at }
  for (const result of report.results) {
    const pair = key(result.address, result.zone)
    if (result.status === 'listed') {
      now.add(pair)
      if (!was.has(pair)) events.push({ kind: 'dnsbl.listed', ...base, target: shown(result.address), zone: result.zone })
    } else if (result.status === 'clear') {
      if (was.has(pair)) events.push({ kind: 'dnsbl.delisted', ...base, target: shown(result.address), zone: result.zone })
    } else if (was.has(pair)) now.add(pair)
  }
  return { state: { ...previous, listed: [...now].sort() }, events }
}
