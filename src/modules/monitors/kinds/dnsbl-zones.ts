/**
 * DNSBL zones. The default list holds live, free IP lists
 * that answer ordinary recursive resolvers without a key. Zones that need a key or a registered
 * resolver, or refuse public resolvers, are opt-in: the owner names them in `zones`.
 */
import { canonicalHost, isIpLiteral } from '../../../lib/address-guard.ts'

export interface DnsblZone {
  zone: string
  why: string
}

/** Queried when a monitor names no zones. */
export const DEFAULT_DNSBL_ZONES: readonly DnsblZone[] = [
  { zone: 'bl.spamcop.net', why: 'SpamCop: fed by user spam reports, entries expire within a day of the last report' },
  { zone: 'psbl.surriel.com', why: 'Passive Spam Block List: spam-trap hits, easy self-service removal' },
  { zone: 'z.mailspike.net', why: 'Mailspike: reputation of sending IPs, widely used by filters' },
  { zone: 'dnsbl.dronebl.org', why: 'DroneBL: botnet drones and open proxies (a hijacked host)' },
  { zone: 'all.s5h.net', why: 's5h.net: spam-trap hits, a small but live list' },
  { zone: 'ips.backscatterer.org', why: 'Backscatterer (UCEPROTECT): servers sending bounces to forged senders' },
  { zone: 'bl.0spam.org', why: '0spam: spam-trap network, live as of 2026' },
  { zone: 'rbl.interserver.net', why: 'InterServer RBL: abuse seen on a hosting network' },
  { zone: 'spam.spamrats.com', why: 'SpamRATS: IPs seen sending spam to its traps' },
]

/** Live zones that are NOT queried unless named, and why (shown in the docs and the screen). */
export const OPT_IN_DNSBL_ZONES: readonly DnsblZone[] = [
  {
    zone: 'zen.spamhaus.org',
    why: 'Spamhaus: free only for non-commercial use under its volume limits, and it answers 127.255.255.254 to queries through public or open resolvers; a commercial instance needs a Data Query Service key and names the zone "<key>.zen.dq.spamhaus.net"',
  },
  { zone: 'b.barracudacentral.org', why: 'Barracuda: answers only resolvers registered (free) with Barracuda' },
  { zone: 'dnsbl.abusix.net', why: 'Abusix Mail Intelligence: needs a key ("<key>.combined.mail.abusix.zone")' },
]

/** Gone (they answer nothing, or everything): refused, so a stale copy-pasted list cannot report false listings. */
export const DEAD_DNSBL_ZONES: readonly string[] = [
  'dnsbl.sorbs.net', 'spam.dnsbl.sorbs.net', 'db.wpbl.info', 'ix.dnsbl.manitu.net', 'dnsbl.cyberlogic.net', 'virbl.bit.nl',
]

export const MAX_DNSBL_ZONES = 30

/**
 * The address when the target is an IP literal (a dotted quad, or IPv6 text, brackets allowed),
 * 'not-ip' when it has to be a domain, undefined when it looks like an address but is not one.
 */
export function dnsblTargetAddress(target: string): string | 'not-ip' | undefined {
  const bare = target.replace(/^\[|\]$/g, '')
  if (bare.includes(':') || /^[\d.]+$/.test(bare)) {
    if (!bare.includes(':') && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(bare)) return undefined
    const canonical = canonicalHost(bare)
    return canonical !== undefined && isIpLiteral(canonical) ? canonical.replace(/^\[|\]$/g, '') : undefined
  }
  return 'not-ip'
}

export function defaultZoneNames(): string[] {
  return DEFAULT_DNSBL_ZONES.map((entry) => entry.zone)
}

/** The query name for an address in a zone: reversed IPv4 octets, or the 32 reversed IPv6 nibbles (RFC 5782 §2.1, §2.4). */
export function dnsblQueryName(address: string, zone: string): string {
  if (address.includes(':')) return `${ipv6Nibbles(address).reverse().join('.')}.${zone}`
  return `${address.split('.').reverse().join('.')}.${zone}`
}

function ipv6Nibbles(address: string): string[] {
  const [head = '', tail = ''] = address.split('::')
  const groups = (text: string) => (text ? text.split(':') : [])
  const left = groups(head)
  const right = address.includes('::') ? groups(tail) : []
  const missing = 8 - left.length - right.length
  const full = [...left, ...Array(Math.max(0, missing)).fill('0'), ...right]
  return full.flatMap((group) => group.padStart(4, '0').toLowerCase().split(''))
}
