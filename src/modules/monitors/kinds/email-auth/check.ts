/**
 * One email-authentication check of a domain (SPF, DKIM, DMARC at once over one memoized
 * resolver, so a name is asked once), and its shape as a monitor's CheckResult: ok when all pass,
 * degraded on a warning, fail otherwise. Lookups go to the instance's resolvers (or the spec's);
 * they open no connection to the domain, so the address guard has nothing to check here.
 */
import { clipMessage, type CheckDeps, type CheckResult } from '../spec.ts'
import { createDnsResolve, memoizeResolve, parseResolver, type DnsResolve, type ResolverAddress } from '../../../../lib/dns/index.ts'
import { FIXES, misconfiguredResult } from '../failure.ts'
import { checkDkim } from './dkim.ts'
import { checkDmarc } from './dmarc.ts'
import { hasDnsError, messageOf, summaryOf, worst, type EmailAuthReport } from './report.ts'
import { checkSpf, spfRecords } from './spf.ts'

export interface EmailAuthSpec {
  type: 'email_auth'
  domain: string
  /** DKIM selectors to check; none: the `_domainkey` presence test. */
  selectors?: string[]
  timeoutMs: number
  degradedAfterMs?: number | null
  /** "ip" or "ip:port"; absent: the instance's resolvers. */
  resolver?: string | null
}

/** Transient DNS failures are asked again this many times before a part reports `error`. */
export const DNS_RETRIES = 2

export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '')
}

export async function emailAuthReport(domain: string, selectors: readonly string[], resolve: DnsResolve, timeoutMs: number): Promise<EmailAuthReport> {
  const name = normalizeDomain(domain)
  const ask = memoizeResolve(resolve)
  const [spf, dmarc] = await Promise.all([checkSpf(name, ask, timeoutMs), checkDmarc(name, ask)])
  const sendsNoMail = async () => {
    const records = await spfRecords(name, ask).catch(() => null)
    return records?.length === 1 && /^v=spf1\s+-all\s*$/i.test(records[0]!.trim()) && dmarc.policy === 'reject'
  }
  const dkim = await checkDkim(name, selectors, ask, sendsNoMail)
  return { domain: name, spf, dkim, dmarc }
}

/** The resolvers a check asks: the spec's own, else the instance's. */
export function resolversOf(resolver: string | null | undefined, dnsServers: readonly string[] | undefined): ResolverAddress[] {
  if (resolver) {
    const own = parseResolver(resolver)
    return own ? [own] : []
  }
  return (dnsServers ?? []).map(parseResolver).filter((server): server is ResolverAddress => server !== undefined)
}

/** A resolver bounded by the check's deadline: three tries fit inside it. */
export function boundedResolve(servers: readonly ResolverAddress[], timeoutMs: number, signal: AbortSignal): DnsResolve {
  return createDnsResolve({ servers, tryTimeoutMs: Math.max(100, Math.floor(timeoutMs / (DNS_RETRIES + 2))), retries: DNS_RETRIES, signal })
}

export async function runEmailAuthCheck(spec: EmailAuthSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const servers = resolversOf(spec.resolver, deps.dnsServers)
  if (servers.length === 0) {
    return spec.resolver ? misconfiguredResult(`resolver "${spec.resolver}" must be an IP address with an optional port`, FIXES.editSettings) : misconfiguredResult('no DNS resolver configured', FIXES.instanceResolvers)
  }
  if (spec.resolver) {
    const refusal = deps.guard.refusesLiteral(servers[0]!.address)
    if (refusal) return misconfiguredResult(`resolver ${refusal}`, FIXES.editSettings)
  }
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  const report = await emailAuthReport(spec.domain, spec.selectors ?? [], boundedResolve(servers, spec.timeoutMs, signal), spec.timeoutMs)
  const responseTimeMs = Math.round(elapsed() - started)
  const status = worst([report.spf.status, report.dkim.status, report.dmarc.status])
  const slow = status === 'pass' && spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
  const outcome = status === 'pass' ? (slow ? 'degraded' : 'ok') : status === 'warning' ? 'degraded' : 'fail'
  return {
    outcome,
    responseTimeMs,
    message: clipMessage(messageOf(report)),
    details: { spf: report.spf.status, dkim: report.dkim.status, dmarc: report.dmarc.status, summary: summaryOf(report), dns_error: hasDnsError(report), report: JSON.stringify(report) },
  }
}
