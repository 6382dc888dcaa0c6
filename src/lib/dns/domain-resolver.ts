/** The custom-domain check's resolver (status-pages/dns-check.ts): the system's, on node:dns (edge). */
import { promises as dns } from 'node:dns'

/** What the custom-domain check asks; tests pass their own. */
export interface DnsResolver {
  /** CNAME targets of `host`: [] when it has none or does not exist; throws when the lookup itself failed. */
  cname(host: string): Promise<string[]>
  /** A and AAAA addresses of `host`, following CNAMEs: [] when it has none; throws when the lookup failed. */
  addresses(host: string): Promise<string[]>
}

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
