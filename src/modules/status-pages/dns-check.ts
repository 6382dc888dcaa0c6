/**
 * "Does this custom domain reach this instance?" Decided from DNS alone (nothing is fetched from
 * the owner's address): yes when the domain is a CNAME to the page's own host, the service host
 * or any host under STATUS_DOMAIN, or when its A/AAAA addresses include one of the addresses of
 * the service host or the page's host. Pure logic over an injected resolver (production: node:dns
 * in src/lib/dns/domain-resolver.ts; tests pass a function).
 */
import type { DnsResolver } from '../../lib/dns/index.ts'
import { isWithinDomain } from './domain.ts'

export type { DnsResolver } from '../../lib/dns/index.ts'

export type DnsCheck =
  | { state: 'here'; via: string }
  | { state: 'elsewhere'; found: string[] }
  | { state: 'missing' }
  /** The lookup itself failed (timeout, server failure): nothing is known about the domain. */
  | { state: 'unknown'; error: string }

export interface InstanceHosts {
  /** `<slug>.<STATUS_DOMAIN>` without port. */
  pageHost: string
  serviceHost: string
  /** STATUS_DOMAIN without port. */
  statusDomain: string
}

const bare = (host: string) => host.toLowerCase().replace(/\.$/, '')

/** An address of one of our own hosts that does not resolve (a `localhost` name) is simply none. */
const ownAddresses = (resolver: DnsResolver, host: string) => resolver.addresses(host).catch(() => [] as string[])

export async function checkDomainDns(resolver: DnsResolver, domain: string, hosts: InstanceHosts): Promise<DnsCheck> {
  try {
    const targets = (await resolver.cname(domain)).map(bare)
    const named = targets.find((target) => target === hosts.pageHost || target === hosts.serviceHost || isWithinDomain(target, hosts.statusDomain))
    if (named) return { state: 'here', via: `CNAME ${named}` }
    const found = await resolver.addresses(domain)
    if (found.length === 0) return targets.length > 0 ? { state: 'elsewhere', found: targets } : { state: 'missing' }
    const own = new Set([...(await ownAddresses(resolver, hosts.serviceHost)), ...(await ownAddresses(resolver, hosts.pageHost))])
    const shared = found.find((address) => own.has(address))
    return shared ? { state: 'here', via: `address ${shared}` } : { state: 'elsewhere', found: [...targets, ...found] }
  } catch (error) {
    const code = (error as { code?: unknown })?.code
    return { state: 'unknown', error: typeof code === 'string' ? code : error instanceof Error ? error.message : String(error) }
  }
}

/** What a check found, in the words the owner reads (the screen and the API's `reason`). */
export function describeDnsCheck(domain: string, check: DnsCheck): string {
  switch (check.state) {
    case 'here':
      return `${domain} reaches this instance (${check.via}).`
    case 'missing':
      return `${domain} does not resolve yet (no CNAME, A or AAAA record). DNS changes can take a while to spread.`
    case 'elsewhere':
      return `${domain} points elsewhere: ${check.found.join(', ')}.`
    case 'unknown':
      return `The DNS lookup of ${domain} failed (${check.error}); the domain keeps its last state until the next check.`
  }
}
