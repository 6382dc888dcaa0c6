/**
 * The DMARC part: the policy record (mailauth's `getDmarcRecord`: `_dmarc.<domain>`, else the
 * organizational domain's by the RFC 9989 tree walk), its policy (`p`, or `sp` when inherited;
 * `none` only monitors: warning), aggregate reporting (no `rua`: warning), and for every `rua`/`ruf`
 * address outside the organization the authorisation record `<domain>._report._dmarc.<host>`
 * (RFC 7489 §7.1; without it receivers send no reports there: warning).
 */
import type getDmarcRecord from 'mailauth/lib/dmarc/get-dmarc-record.js'
import { worst, type AuthStatus, type DmarcResult } from './report.ts'
import { dnsCode, type DnsResolve } from '../../../../lib/dns/index.ts'

const DMARC_VERSION = /^v\s*=\s*DMARC1\s*(?:;|$)/i
const POLICIES = new Set(['none', 'quarantine', 'reject'])

const isSameOrSub = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`)

/** The host of a `mailto:` reporting URI (size suffix and case dropped); null for other schemes. */
export function reportHost(uri: string): string | null {
  const match = /^mailto:[^@]+@([^!?\s]+)/i.exec(uri.trim())
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : null
}

async function authorised(domain: string, host: string, resolve: DnsResolve): Promise<boolean | null> {
  try {
    const txt = (await resolve(`${domain}._report._dmarc.${host}`, 'TXT')) as string[][]
    return txt.some((pieces) => DMARC_VERSION.test(pieces.join('').trim()))
  } catch (error) {
    const code = dnsCode(error)
    return code === 'ENOTFOUND' || code === 'ENODATA' ? false : null
  }
}

export async function checkDmarc(domain: string, resolve: DnsResolve): Promise<DmarcResult> {
  // Several records at the name count as none (RFC 9989 §4.10): said plainly here.
  try {
    const own = ((await resolve(`_dmarc.${domain}`, 'TXT')) as string[][]).map((pieces) => pieces.join('')).filter((r) => DMARC_VERSION.test(r.trim()))
    if (own.length > 1) return { status: 'fail', reason: `${own.length} DMARC records at _dmarc.${domain}; receivers ignore them all`, records: own }
  } catch (error) {
    const code = dnsCode(error)
    if (code !== 'ENOTFOUND' && code !== 'ENODATA') return { status: 'error', reason: `the _dmarc lookup failed (${code ?? 'error'}), after retries` }
  }
  let record: Awaited<ReturnType<typeof getDmarcRecord>>
  try {
    // mailauth is loaded by the first email-authentication check, not at start.
    const { default: readDmarcRecord } = await import('mailauth/lib/dmarc/get-dmarc-record.js')
    record = await readDmarcRecord(domain, resolve)
  } catch (error) {
    return { status: 'error', reason: `the DMARC lookup failed (${dnsCode(error) ?? 'error'}), after retries` }
  }
  if (!record) return { status: 'missing', reason: `no DMARC record at _dmarc.${domain} or its organizational domain` }

  const recordDomain = record.recordDomain
  const inherited = record.isOrgRecord
  const policy = inherited && typeof record.sp === 'string' ? record.sp : record.p
  const base = { records: [record.rr], recordDomain, ...(typeof policy === 'string' ? { policy } : {}) }
  const from = inherited ? ` (inherited from ${recordDomain})` : ''
  if (typeof policy !== 'string' || !POLICIES.has(policy)) return { ...base, status: 'fail', reason: `no valid policy: p= must be none, quarantine or reject${from}` }

  const org = (record.orgDomain ?? recordDomain).toLowerCase()
  const uris = (['rua', 'ruf'] as const).flatMap((kind) =>
    typeof record[kind] === 'string' ? (record[kind] as string).split(',').map((uri) => ({ uri: uri.trim(), kind })).filter((u) => u.uri) : [],
  )
  const reporting: NonNullable<DmarcResult['reporting']> = []
  for (const { uri, kind } of uris) {
    const host = reportHost(uri)
    const external = host !== null && !isSameOrSub(host, org)
    reporting.push({ uri, kind, external, authorised: external ? await authorised(recordDomain, host!, resolve) : null })
  }

  const problems: Array<{ status: AuthStatus; reason: string }> = []
  if (policy === 'none') problems.push({ status: 'warning', reason: `p=none only monitors: failing mail is still delivered${from}` })
  if (!uris.some((u) => u.kind === 'rua')) problems.push({ status: 'warning', reason: 'no rua: you receive no aggregate reports' })
  for (const entry of reporting) {
    if (entry.external && entry.authorised === false) {
      problems.push({ status: 'warning', reason: `${entry.kind} ${entry.uri} is not authorised: ${recordDomain}._report._dmarc.${reportHost(entry.uri)} has no v=DMARC1 record, so no reports are sent there` })
    } else if (entry.external && entry.authorised === null) {
      problems.push({ status: 'error', reason: `the authorisation lookup for ${entry.uri} failed, after retries` })
    }
  }
  if (problems.length === 0) {
    const reports = reporting.length ? `, reports to ${reporting.map((r) => r.uri).join(', ')}` : ''
    return { ...base, reporting, status: 'pass', reason: `p=${policy}${from}${reports}` }
  }
  return { ...base, reporting, status: worst(problems.map((p) => p.status)), reason: problems.map((p) => p.reason).join('; ') }
}
