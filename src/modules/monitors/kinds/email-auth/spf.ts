/**
 * The SPF part, with internet.nl's rules: exactly one `v=spf1` record; valid
 * syntax; at most 10 DNS-querying terms across nested includes and redirects; the record must end
 * in `~all` or `-all` (`+all` lets anyone send: fail; `?all`, or no `all` at all, protects nothing:
 * warning).
 *
 * Syntax and lookup counting are mailauth's `spf()` in strict RFC 7208 mode, evaluated for
 * 2001:db8::5f (IPv6 documentation space, RFC 3849), an address no real record lists, so no term
 * matches and every term is walked and counted. The `all` qualifier is read from the record itself (and its redirect target).
 */
import type { SpfResult } from './report.ts'
import { dnsCode, TRANSIENT_CODES, type DnsResolve } from '../../../../lib/dns/index.ts'

export const SPF_LOOKUP_LIMIT = 10
/** Never a real sender: RFC 3849's documentation prefix (an ip4 range can never match it). */
const PROBE_IP = '2001:db8::5f'
const SPF_VERSION = /^v=spf1(?:\s|$)/i

/** The `v=spf1` records at `domain`; null when the domain has no TXT records; throws on DNS errors. */
export async function spfRecords(domain: string, resolve: DnsResolve): Promise<string[] | null> {
  try {
    const txt = (await resolve(domain, 'TXT')) as string[][]
    return txt.map((pieces) => pieces.join('')).filter((record) => SPF_VERSION.test(record.trim()))
  } catch (error) {
    const code = dnsCode(error)
    if (code === 'ENOTFOUND' || code === 'ENODATA') return null
    throw error
  }
}

const terms = (record: string) => record.trim().split(/\s+/).slice(1)

/** The qualifier of the record's `all`, following redirects; '?' when there is none (RFC 7208 §4.7). */
async function allQualifier(record: string, resolve: DnsResolve, hops = 0): Promise<string> {
  const all = terms(record).find((term) => /^[+\-~?]?all$/i.test(term))
  if (all) return /^[+\-~?]/.test(all) ? all[0]! : '+'
  const redirect = terms(record).find((term) => /^redirect=/i.test(term))
  if (!redirect || hops >= SPF_LOOKUP_LIMIT) return '?'
  const target = (await spfRecords(redirect.slice('redirect='.length), resolve).catch(() => null)) ?? []
  return target.length === 1 ? allQualifier(target[0]!, resolve, hops + 1) : '?'
}

export async function checkSpf(domain: string, resolve: DnsResolve, timeoutMs: number): Promise<SpfResult> {
  let records: string[] | null
  try {
    records = await spfRecords(domain, resolve)
  } catch (error) {
    return { status: 'error', reason: `the TXT lookup failed (${dnsCode(error) ?? 'error'}), after retries` }
  }
  if (!records || records.length === 0) return { status: 'missing', reason: `${domain} publishes no v=spf1 record` }
  if (records.length > 1) return { status: 'fail', reason: `${records.length} SPF records; there must be exactly one (RFC 7208 §4.5)`, records }
  const record = records[0]!

  // mailauth is loaded by the first email-authentication check, not at start.
  const { spf } = await import('mailauth/lib/spf/index.js')
  const evaluation = await spf({ sender: `postmaster@${domain}`, ip: PROBE_IP, helo: domain, mta: 'lantern', resolver: resolve as never, strict: true, maxResolveCount: SPF_LOOKUP_LIMIT, maxElapsedTime: timeoutMs })
  const lookups = (evaluation as { lookups?: { count?: number } }).lookups?.count
  const comment = String(evaluation.status.comment ?? '').replace(/^lantern: /, '')
  if (evaluation.status.result === 'permerror') {
    if (/too many dns requests/i.test(comment)) {
      return { status: 'fail', reason: `more than ${SPF_LOOKUP_LIMIT} DNS lookups (includes, a, mx, ptr, exists, redirect); receivers must reject it (RFC 7208 §4.6.4)`, records, lookups: SPF_LOOKUP_LIMIT + 1 }
    }
    const detail = comment.replace(/^permanent error in processing during lookup of \S+: ?/i, '')
    return { status: 'fail', reason: `invalid: ${detail || 'the record does not parse'}`, records, ...(lookups !== undefined ? { lookups } : {}) }
  }
  if (evaluation.status.result === 'temperror') {
    // A DNS failure behind an include: nothing can be said about the record yet.
    const transient = /timeout|servfail|refused|time limit/i.test(comment) || [...TRANSIENT_CODES].some((code) => comment.includes(code))
    return { status: 'error', reason: transient ? 'a nested lookup failed, after retries' : `a nested lookup failed: ${comment.slice(0, 200)}`, records }
  }

  const qualifier = await allQualifier(record, resolve)
  const count = lookups ?? 0
  const counted = `${count} of ${SPF_LOOKUP_LIMIT} DNS lookups`
  if (qualifier === '+') return { status: 'fail', reason: `ends in +all: any server may send as ${domain} (${counted})`, records, lookups: count }
  if (qualifier === '?') return { status: 'warning', reason: `ends in ?all or no all: it protects nothing; end with ~all or -all (${counted})`, records, lookups: count }
  return { status: 'pass', reason: `one valid record ending in ${qualifier}all, ${counted}`, records, lookups: count }
}
