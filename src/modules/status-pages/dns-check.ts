/**
 * "Does this custom domain reach this instance?": a CNAME to the page's own host, the service host
 * or any host under STATUS_DOMAIN, or A/AAAA addresses shared with those hosts. Pure logic over an
 * injected resolver (production: node:dns in src/http/edge/dns-resolver.ts; tests pass a function).
 * Nothing is fetched from the owner's address.
 */
import { isWithinDomain } from './domain.ts'

export interface DnsResolver {
  /** CNAME targets of `host` ([] when there is none). */
  cname(host: string): Promise<string[]>
  /** A and AAAA addresses of `host`, following CNAMEs ([] when it does not resolve). */
  addresses(host: string): Promise<string[]>
}

export type DnsCheck =
  | { state: 'here'; via: string }
  | { state: 'elsewhere'; found: string[] }
  | { state: 'missing' }

export interface InstanceHosts {
  /** `<slug>.<STATUS_DOMAIN>` without port. */
  pageHost: string
  serviceHost: string
  /** STATUS_DOMAIN without port. */
  statusDomain: string
}

const lookup = async (query: () => Promise<string[]>): Promise<string[]> => {
  try {
    return await query()
  } catch {
    return []
  }
}
const bare = (host: string) => host.toLowerCase().replace(/\.$/, '')

export async function checkDomainDns(resolver: DnsResolver, domain: string, hosts: InstanceHosts): Promise<DnsCheck> {
  const targets = (await lookup(() => resolver.cname(domain))).map(bare)
  const named = targets.find((target) => target === hosts.pageHost || target === hosts.serviceHost || isWithinDomain(target, hosts.statusDomain))
  if (named) return { state: 'here', via: `CNAME ${named}` }
  const found = await lookup(() => resolver.addresses(domain))
  if (found.length === 0) return targets.length > 0 ? { state: 'elsewhere', found: targets } : { state: 'missing' }
  const own = new Set([...(await lookup(() => resolver.addresses(hosts.serviceHost))), ...(await lookup(() => resolver.addresses(hosts.pageHost)))])
  const shared = found.find((address) => own.has(address))
  return shared ? { state: 'here', via: `address ${shared}` } : { state: 'elsewhere', found: [...targets, ...found] }
}
