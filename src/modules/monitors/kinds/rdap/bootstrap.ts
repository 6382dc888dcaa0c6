/**
 * IANA's RDAP bootstrap data for DNS (RFC 9224): which RDAP service answers for which TLD. A copy
 * ships with the program (dns.json here); `lantern rdap-refresh` fetches IANA's current file from its
 * fixed address and stores it at RDAP_BOOTSTRAP_PATH, which checks then prefer. Parsing and lookup are
 * pure; reading and writing the file is the edge (node:fs).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import shipped from './dns.json' with { type: 'json' }

/** IANA's fixed address (not a user's: it is fetched directly, never through the address guard). */
export const IANA_RDAP_DNS_URL = 'https://data.iana.org/rdap/dns.json'
export const DEFAULT_RDAP_BOOTSTRAP_PATH = 'db/rdap-dns.json'
const MAX_BOOTSTRAP_BYTES = 4 * 1024 * 1024

export interface RdapBootstrap {
  publication: string
  /** Lower-case TLD (or longer suffix) → base URLs, https first. */
  services: Map<string, string[]>
}

/** Checks the bootstrap JSON's shape (RFC 9224 section 4); throws an Error naming what is wrong. */
export function parseBootstrap(value: unknown): RdapBootstrap {
  const data = value as { publication?: unknown; services?: unknown }
  if (!data || typeof data !== 'object' || !Array.isArray(data.services)) throw new Error('not an RDAP bootstrap file: no services list')
  if (typeof data.publication !== 'string' || Number.isNaN(Date.parse(data.publication))) throw new Error('not an RDAP bootstrap file: no publication date')
  const services = new Map<string, string[]>()
  for (const entry of data.services) {
    if (!Array.isArray(entry) || entry.length !== 2 || !Array.isArray(entry[0]) || !Array.isArray(entry[1])) throw new Error('not an RDAP bootstrap file: a service is not [[names], [urls]]')
    const urls = (entry[1] as unknown[]).filter((u): u is string => typeof u === 'string' && /^https?:\/\//.test(u))
    // RFC 9224: prefer https where a service lists both.
    urls.sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')))
    for (const name of entry[0] as unknown[]) if (typeof name === 'string' && urls.length) services.set(name.toLowerCase().replace(/\.$/, ''), urls)
  }
  if (services.size === 0) throw new Error('not an RDAP bootstrap file: no services')
  return { publication: data.publication, services }
}

export const SHIPPED_BOOTSTRAP: RdapBootstrap = parseBootstrap(shipped)

/** The base URL for a domain: the longest listed suffix of its labels; null when none has an RDAP service. */
export function rdapBaseFor(bootstrap: RdapBootstrap, domain: string): string | null {
  const labels = domain.toLowerCase().split('.')
  for (let i = 1; i < labels.length; i++) {
    const urls = bootstrap.services.get(labels.slice(i).join('.'))
    if (urls) return urls[0]!
  }
  return null
}

/** The domain query URL (RFC 9082): base + "domain/" + name. */
export function rdapDomainUrl(base: string, domain: string): URL {
  return new URL(`domain/${encodeURIComponent(domain)}`, base.endsWith('/') ? base : `${base}/`)
}

/** A stored bootstrap file, else the shipped one; a file that cannot be read or parsed falls back too. */
export async function loadBootstrap(path: string): Promise<RdapBootstrap> {
  try {
    return parseBootstrap(JSON.parse(await readFile(path, 'utf8')))
  } catch {
    return SHIPPED_BOOTSTRAP
  }
}

/**
 * A loader for checks: reads the stored file at most once an hour (so a refresh is picked up without
 * a restart) and answers the last good copy in between.
 */
export function bootstrapLoader(path: string, now: () => number): () => Promise<RdapBootstrap> {
  let cached: { at: number; value: RdapBootstrap } | undefined
  return async () => {
    if (cached && now() - cached.at < 3_600_000) return cached.value
    cached = { at: now(), value: await loadBootstrap(path) }
    return cached.value
  }
}

/** Fetches IANA's file (or `url` in tests), checks it, and writes it to `path` whole (temp file, then rename). */
export async function refreshBootstrap(path: string, options: { url?: string; fetch?: typeof fetch } = {}): Promise<RdapBootstrap> {
  const response = await (options.fetch ?? fetch)(options.url ?? IANA_RDAP_DNS_URL, { signal: AbortSignal.timeout(30_000), redirect: 'follow' })
  if (!response.ok) throw new Error(`${options.url ?? IANA_RDAP_DNS_URL} answered HTTP ${response.status}`)
  const text = await response.text()
  if (text.length > MAX_BOOTSTRAP_BYTES) throw new Error('the bootstrap file is larger than 4 MiB')
  const bootstrap = parseBootstrap(JSON.parse(text))
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${crypto.randomUUID()}.tmp`
  await writeFile(temporary, text)
  await rename(temporary, path)
  return bootstrap
}
