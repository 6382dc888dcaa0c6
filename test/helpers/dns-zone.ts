/**
 * A DNS zone in memory for the custom-domain check (status-pages/dns-check.ts): tests set what
 * names resolve to, and may make lookups of a name fail outright (a resolver timeout).
 */
import type { DnsResolver } from '../../src/modules/status-pages/dns-check.ts'

export interface TestZone extends DnsResolver {
  /** name → CNAME targets */
  cnames: Map<string, string[]>
  /** name → A/AAAA addresses (already following CNAMEs) */
  hosts: Map<string, string[]>
  /** Names whose lookups throw ETIMEOUT, as a dead resolver would. */
  timeouts: Set<string>
  /** Every name asked about, in order. */
  asked: string[]
}

export function testZone(): TestZone {
  const zone: TestZone = {
    cnames: new Map(),
    hosts: new Map(),
    timeouts: new Set(),
    asked: [],
    async cname(host) {
      zone.asked.push(host)
      if (zone.timeouts.has(host)) throw Object.assign(new Error(`queryCname ETIMEOUT ${host}`), { code: 'ETIMEOUT' })
      return zone.cnames.get(host) ?? []
    },
    async addresses(host) {
      zone.asked.push(host)
      if (zone.timeouts.has(host)) throw Object.assign(new Error(`queryA ETIMEOUT ${host}`), { code: 'ETIMEOUT' })
      return zone.hosts.get(host) ?? []
    },
  }
  return zone
}
