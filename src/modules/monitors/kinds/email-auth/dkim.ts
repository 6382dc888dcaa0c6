/**
 * The DKIM part: each configured selector's key at `<selector>._domainkey.<domain>`, read and
 * checked by mailauth's `getPublicKey` (tag syntax, version, base64, key type; a revoked key has an
 * empty p=). RSA keys under 1024 bits fail, under 2048 warn (RFC 8301 §3.2).
 * Without selectors nothing can be verified; internet.nl's presence test stands in: `_domainkey`
 * NXDOMAIN means no keys at all, NOERROR means some exist. A domain that sends no mail
 * (`v=spf1 -all` and DMARC p=reject) needs none.
 */
import { worst, type DkimResult, type DkimSelectorResult } from './report.ts'
import { dnsCode, type DnsResolve } from '../../../../lib/dns/index.ts'

export const DKIM_FAIL_BELOW_BITS = 1024
export const DKIM_WARN_BELOW_BITS = 2048
export const MAX_SELECTORS = 10
/** A DNS label: letters, digits, hyphens and underscores (selectors may have dots: several labels). */
export const SELECTOR_PATTERN = /^(?!-)[A-Za-z0-9_-]{1,63}(?:\.[A-Za-z0-9_-]{1,63})*$/

export async function checkSelector(domain: string, selector: string, resolve: DnsResolve): Promise<DkimSelectorResult> {
  const name = `${selector}._domainkey.${domain}`
  try {
    // 1 bit as mailauth's floor: the size rules are ours, so a short key is reported, not thrown.
    // mailauth is loaded by the first email-authentication check, not at start.
    const { getPublicKey } = await import('mailauth/lib/tools.js')
    const key = await getPublicKey('DKIM', name, 1, resolve)
    const bits = key.keyType === 'rsa' ? key.modulusLength : undefined
    const base = { selector, keyType: key.keyType, ...(bits !== undefined ? { bits } : {}), records: [key.rr] }
    const testing = key.testing ? ' (t=y: receivers treat it as a test)' : ''
    if (bits !== undefined && bits < DKIM_FAIL_BELOW_BITS) return { ...base, status: 'fail', reason: `${selector}: RSA key of ${bits} bits; under ${DKIM_FAIL_BELOW_BITS} is refused by receivers` }
    if (bits !== undefined && bits < DKIM_WARN_BELOW_BITS) return { ...base, status: 'warning', reason: `${selector}: RSA key of ${bits} bits; use ${DKIM_WARN_BELOW_BITS} or more${testing}` }
    if (key.testing) return { ...base, status: 'warning', reason: `${selector}: valid ${key.keyType} key${bits ? ` of ${bits} bits` : ''}${testing}` }
    return { ...base, status: 'pass', reason: `${selector}: valid ${key.keyType} key${bits ? ` of ${bits} bits` : ''}` }
  } catch (error) {
    const code = dnsCode(error)
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { selector, status: 'missing', reason: `${selector}: no key at ${name}` }
    if (code && /^E[A-Z]+$/.test(code) && !code.startsWith('EINVALID') && code !== 'ESHORTKEY') {
      return { selector, status: 'error', reason: `${selector}: the lookup failed (${code}), after retries` }
    }
    const rr = (error as { rr?: unknown }).rr
    const message = String((error as Error)?.message ?? error)
    const why = /missing key value/i.test(message) ? 'the key is empty (revoked)' : message.slice(0, 200)
    return { selector, status: 'fail', reason: `${selector}: invalid key: ${why}`, ...(typeof rr === 'string' ? { records: [rr] } : {}) }
  }
}

export async function checkDkim(domain: string, selectors: readonly string[], resolve: DnsResolve, sendsNoMail: () => Promise<boolean>): Promise<DkimResult> {
  if (selectors.length > 0) {
    const results = await Promise.all(selectors.map((selector) => checkSelector(domain, selector, resolve)))
    const status = worst(results.map((r) => r.status))
    const reason = status === 'pass' ? results.map((r) => r.reason).join('; ') : results.filter((r) => r.status !== 'pass').map((r) => r.reason).join('; ')
    return { status, reason, selectors: results }
  }
  try {
    await resolve(`_domainkey.${domain}`, 'TXT')
  } catch (error) {
    const code = dnsCode(error)
    if (code === 'ENODATA') return { status: 'warning', reason: `keys exist under _domainkey.${domain}; name their selectors to check them`, selectors: [] }
    if (code !== 'ENOTFOUND') return { status: 'error', reason: `the _domainkey lookup failed (${code ?? 'error'}), after retries`, selectors: [] }
    if (await sendsNoMail()) return { status: 'pass', reason: 'not needed: the domain sends no mail (SPF -all and DMARC p=reject)', selectors: [] }
    return { status: 'missing', reason: `no DKIM keys: _domainkey.${domain} does not exist`, selectors: [] }
  }
  return { status: 'warning', reason: `keys exist under _domainkey.${domain}; name their selectors to check them`, selectors: [] }
}
