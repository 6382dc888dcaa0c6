/** The production DNS resolver of the custom-domain check (status-pages/dns-check.ts), on node:dns. */
import { promises as dns } from 'node:dns'
import type { DnsResolver } from '../../modules/status-pages/dns-check.ts'

/** Answers that say the name has no such records: an empty list. Anything else means the lookup failed. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND'])

// A scheduled check must not hang on a dead resolver: 3 s per try, 2 tries.
const resolver = new dns.Resolver({ timeout: 3_000, tries: 2 })

async function records(query: Promise<string[]>): Promise<string[]> {
  try {
    return await query
  } catch (error) {
    if (NO_RECORDS.has((error as { code?: string }).code ?? '')) return []
    throw error
  }
}

export const nodeDnsResolver: DnsResolver = {
  cname: (host) => records(resolver.resolveCname(host)),
  async addresses(host) {
    const [v4, v6] = await Promise.all([records(resolver.resolve4(host)), records(resolver.resolve6(host))])
    return [...v4, ...v6]
  },
}
