/**
 * DNS lookups in node:dns's shape for the email-authentication checks and the lookup tools, over
 * the UDP client of query.ts. Never `node:dns`: Bun's node:dns answers each 255-byte piece of a long TXT record
 * as a record of its own (oven-sh/bun#21370), which breaks every real DKIM key. dns2 keeps one
 * record's pieces together, and each TXT record here is answered as its list of pieces, the
 * `dns.promises.resolve` shape mailauth expects (it joins them per record).
 *
 * Failures carry node:dns's codes (ENOTFOUND = NXDOMAIN, ENODATA = no record of the type,
 * ESERVFAIL, EREFUSED, ETIMEOUT), so mailauth reads them as it reads node:dns's. Transient
 * failures (a timeout, SERVFAIL) are asked again, `retries` times, before they are reported.
 */
import { dnsTypeCode, queryDns, type DnsPacket } from './query.ts'
import type { ResolverAddress } from './servers.ts'

/** The `dns.promises.resolve(name, type)` signature mailauth's `resolver` option takes. */
export type DnsResolve = (name: string, type: string) => Promise<unknown[]>

export interface DnsResolveOptions {
  servers: readonly ResolverAddress[]
  /** One try's deadline. */
  tryTimeoutMs: number
  /** Extra tries after a timeout or SERVFAIL (default 2). */
  retries?: number
  /** Ends every lookup still under way (the check's own deadline). */
  signal?: AbortSignal
}

export const TRANSIENT_CODES: ReadonlySet<string> = new Set(['ETIMEOUT', 'ESERVFAIL'])

export class DnsError extends Error {
  constructor(
    readonly code: string,
    readonly hostname: string,
    readonly rrtype: string,
  ) {
    super(`${rrtype} ${hostname}: ${code}`)
  }
}

const RCODE_CODES: Record<number, string> = { 1: 'EFORMERR', 2: 'ESERVFAIL', 3: 'ENOTFOUND', 4: 'ENOTIMP', 5: 'EREFUSED' }
const hostName = (name: unknown) => String(name ?? '').replace(/\.$/, '')

/** The answers of the asked type, shaped as node:dns shapes them. */
function shape(type: string, records: Array<Record<string, unknown>>): unknown[] {
  switch (type) {
    case 'TXT':
      return records.map((r) => (Array.isArray(r.data) ? (r.data as unknown[]).map(String) : [String(r.data ?? '')]))
    case 'MX':
      return records.map((r) => ({ exchange: hostName(r.exchange), priority: Number(r.priority) }))
    case 'CNAME':
    case 'PTR':
      return records.map((r) => hostName(r.domain))
    case 'NS':
      return records.map((r) => hostName(r.ns))
    case 'A':
    case 'AAAA':
      return records.map((r) => String(r.address))
    default:
      return records
  }
}

/** A resolver over dns2, retrying transient failures; each server in turn takes a retry. */
export function createDnsResolve(options: DnsResolveOptions): DnsResolve {
  const retries = options.retries ?? 2
  const once = async (server: ResolverAddress, name: string, type: string): Promise<unknown[]> => {
    const typeCode = dnsTypeCode(type)
    if (typeCode === undefined) throw new DnsError('ENOTIMP', name, type)
    let packet: DnsPacket
    try {
      packet = await queryDns(server, name, type, { timeoutMs: options.tryTimeoutMs, signal: options.signal })
    } catch (error) {
      if (options.signal?.aborted) throw new DnsError('ETIMEOUT', name, type)
      const message = String((error as Error)?.message ?? error)
      throw new DnsError(/timed? ?out/i.test(message) ? 'ETIMEOUT' : 'ECONNREFUSED', name, type)
    }
    const rcode = packet.header.rcode
    if (rcode !== 0) throw new DnsError(RCODE_CODES[rcode] ?? 'ESERVFAIL', name, type)
    const records = packet.answers.filter((record) => record.type === typeCode) as unknown as Array<Record<string, unknown>>
    if (records.length === 0) throw new DnsError('ENODATA', name, type)
    return shape(type, records)
  }
  return async (name, type) => {
    if (options.servers.length === 0) throw new DnsError('ECONNREFUSED', name, type)
    let last: unknown
    for (let attempt = 0; attempt <= retries; attempt++) {
      try {
        return await once(options.servers[attempt % options.servers.length]!, name, type)
      } catch (error) {
        last = error
        if (!(error instanceof DnsError) || !TRANSIENT_CODES.has(error.code) || options.signal?.aborted) throw error
      }
    }
    throw last
  }
}

/** One question asked once per check: SPF, DKIM and DMARC share answers (and failures). */
export function memoizeResolve(resolve: DnsResolve): DnsResolve {
  const answers = new Map<string, Promise<unknown[]>>()
  return (name, type) => {
    const key = `${type}:${name.toLowerCase()}`
    let answer = answers.get(key)
    if (!answer) {
      answer = resolve(name, type)
      answer.catch(() => undefined)
      answers.set(key, answer)
    }
    // mailauth sorts and annotates what it gets: every caller gets its own copy.
    return answer.then(
      (value) => value.map((item) => (Array.isArray(item) ? [...item] : item && typeof item === 'object' ? { ...item } : item)),
      (error) => {
        throw error instanceof DnsError ? new DnsError(error.code, error.hostname, error.rrtype) : error
      },
    )
  }
}

/** The node:dns code of a failure, if it has one. */
export const dnsCode = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' ? code : undefined
}
