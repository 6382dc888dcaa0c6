/** The production DNS resolver of the custom-domain check (status-pages/dns-check.ts), on node:dns. */
import { promises as dns } from 'node:dns'
import type { DnsResolver } from '../../modules/status-pages/dns-check.ts'

const quiet = async (query: Promise<string[]>): Promise<string[]> => query.catch(() => [])

export const nodeDnsResolver: DnsResolver = {
  cname: (host) => quiet(dns.resolveCname(host)),
  async addresses(host) {
    const [v4, v6] = await Promise.all([quiet(dns.resolve4(host)), quiet(dns.resolve6(host))])
    return [...v4, ...v6]
  },
}
