/**
 * The one-off domain lookup tools: DNS records, MX, SPF, DKIM, DMARC, SSL and
 * DNSBL, each answering a status (pass / warning / fail / missing / error), a one-line summary and
 * the full result. DNS questions go to the instance's own resolvers (never a resolver the user
 * names). SSL opens a connection: it runs the SSL monitor's check, which connects only to an
 * address the guard allowed. DNSBL is the DNSBL monitor's sweep. No new check logic lives here.
 */
import { canonicalHost, isIpLiteral } from '../../lib/address-guard.ts'
import { badRequest } from '../../lib/errors.ts'
import { runCheck } from '../monitors/kinds/index.ts'
import { splitHostPort } from '../monitors/kinds/index.ts'
import { dnsblTargetAddress } from '../monitors/kinds/index.ts'
import { reportForPlan } from '../monitors/kinds/index.ts'
import type { CheckDeps, CheckResult } from '../monitors/kinds/index.ts'
import { boundedResolve, normalizeDomain, resolversOf } from '../monitors/kinds/index.ts'
import { checkDkim, MAX_SELECTORS, SELECTOR_PATTERN } from '../monitors/kinds/index.ts'
import { checkDmarc } from '../monitors/kinds/index.ts'
import { dkimJson, dmarcJson, spfJson } from '../email-auth/json.ts'
import { MAIL_DOMAIN } from '../monitors/kinds/index.ts'
import type { AuthStatus, PartResult } from '../monitors/kinds/index.ts'
import { dnsCode, memoizeResolve, type DnsResolve } from '../monitors/kinds/index.ts'
import { checkSpf } from '../monitors/kinds/index.ts'

export const LOOKUP_TOOLS = ['dns', 'mx', 'spf', 'dkim', 'dmarc', 'ssl', 'dnsbl'] as const
export type LookupTool = (typeof LOOKUP_TOOLS)[number]
export type ToolStatus = AuthStatus

export const TOOL_LABELS: Record<LookupTool, string> = { dns: 'DNS records', mx: 'MX', spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', ssl: 'SSL certificate', dnsbl: 'DNSBL' }

export interface LookupInput {
  tool: LookupTool
  target: string
  /** dkim: the selectors to check. */
  selectors?: string[]
}

export interface ToolOutcome {
  status: ToolStatus
  summary: string
  result: Record<string, unknown>
}

/** One lookup's deadline, whole (every try of every question inside it). */
export const TOOL_TIMEOUT_MS = 10_000
export const DNS_RECORD_TOOL_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT'] as const
const DNS_NAME = /^(?=.{1,253}$)(?:(?!-)[a-z0-9_-]{1,63}(?<!-)\.)*(?!-)[a-z0-9_-]{1,63}(?<!-)$/

/** The target as the tool reads it, or a 400 naming what is wrong (nothing runs, nothing is kept). */
export function normalizeInput(input: LookupInput, guard: CheckDeps['guard']): LookupInput {
  const raw = input.target.trim()
  if (!raw) throw badRequest('target is required')
  const selectors = (input.selectors ?? []).map((s) => s.trim()).filter(Boolean)
  switch (input.tool) {
    case 'dns': {
      const name = normalizeDomain(raw)
      if (!DNS_NAME.test(name)) throw badRequest('target must be a DNS name such as example.com')
      return { tool: 'dns', target: name }
    }
    case 'mx':
    case 'spf':
    case 'dmarc':
    case 'dkim': {
      const domain = normalizeDomain(raw)
      if (!MAIL_DOMAIN.test(domain)) throw badRequest('target must be a domain name such as example.com')
      if (input.tool !== 'dkim') return { tool: input.tool, target: domain }
      if (selectors.length > MAX_SELECTORS) throw badRequest(`selectors can list at most ${MAX_SELECTORS} DKIM selectors`)
      const bad = selectors.find((s) => !SELECTOR_PATTERN.test(s))
      if (bad !== undefined) throw badRequest(`selectors hold "${bad.slice(0, 63)}", which is not a DKIM selector (letters, digits, - and _, dot-separated)`)
      return { tool: 'dkim', target: domain, selectors }
    }
    case 'ssl': {
      const { host, port } = splitHostPort(raw.toLowerCase().replace(/^https:\/\//, '').replace(/\/.*$/, ''))
      const canonical = canonicalHost(host)
      // Every host name, single labels (`localhost`, `intranet`) too: what may be reached is the
      // address guard's decision, made on the addresses the name resolves to.
      if (!canonical || (!isIpLiteral(canonical) && !DNS_NAME.test(canonical.replace(/\.$/, '')))) throw badRequest('target must be a host name or IP address, with an optional :port')
      if (port !== undefined && (port < 1 || port > 65535)) throw badRequest('target must have a port from 1 to 65535')
      // A literal private or reserved address is refused before anything runs; a name is checked
      // again by the guard when the check connects (it resolves once and connects to what it checked).
      const refusal = guard.refusesLiteral(canonical)
      if (refusal) throw badRequest(`target cannot be checked: ${refusal}`)
      return { tool: 'ssl', target: port === undefined ? canonical : `${canonical.includes(':') ? `[${canonical}]` : canonical}:${port}` }
    }
    case 'dnsbl': {
      const target = raw.toLowerCase().replace(/\.$/, '')
      const address = dnsblTargetAddress(target)
      if (address === undefined || (address === 'not-ip' && !MAIL_DOMAIN.test(target))) throw badRequest('target must be an IP address or a domain name')
      return { tool: 'dnsbl', target }
    }
  }
}

const isAbsent = (code: string | undefined) => code === 'ENOTFOUND' || code === 'ENODATA'

async function dnsRecords(name: string, resolve: DnsResolve): Promise<ToolOutcome> {
  const answers = await Promise.all(
    DNS_RECORD_TOOL_TYPES.map(async (type) => {
      try {
        const values = await resolve(name, type)
        return { type, values: values.map((v) => (type === 'TXT' ? (v as string[]).join('') : type === 'MX' ? `${(v as { priority: number }).priority} ${(v as { exchange: string }).exchange}` : String(v))), error: null }
      } catch (error) {
        const code = dnsCode(error)
        return { type, values: [] as string[], error: isAbsent(code) ? null : code ?? 'error' }
      }
    }),
  )
  const records = Object.fromEntries(answers.map((a) => [a.type, a.values]))
  const errors = answers.filter((a) => a.error !== null).map((a) => `${a.type} ${a.error}`)
  const found = answers.filter((a) => a.values.length > 0).map((a) => `${a.values.length} ${a.type}`)
  const status: ToolStatus = found.length > 0 ? (errors.length ? 'warning' : 'pass') : errors.length ? 'error' : 'missing'
  const summary = found.length ? `${name}: ${found.join(', ')}${errors.length ? `; failed: ${errors.join(', ')}` : ''}` : errors.length ? `${name}: lookups failed (${errors.join(', ')}), after retries` : `${name}: no records`
  return { status, summary, result: { name, records, errors } }
}

async function mxRecords(domain: string, resolve: DnsResolve): Promise<ToolOutcome> {
  let mx: Array<{ exchange: string; priority: number }>
  try {
    mx = ((await resolve(domain, 'MX')) as Array<{ exchange: string; priority: number }>).sort((a, b) => a.priority - b.priority)
  } catch (error) {
    const code = dnsCode(error)
    if (isAbsent(code)) return { status: 'missing', summary: `${domain} has no MX records: mail goes to its A record, if any`, result: { domain, hosts: [] } }
    return { status: 'error', summary: `${domain}: the MX lookup failed (${code ?? 'error'}), after retries`, result: { domain, hosts: [] } }
  }
  const hosts = await Promise.all(
    mx.slice(0, 10).map(async ({ exchange, priority }) => {
      const addresses: string[] = []
      for (const type of ['A', 'AAAA'] as const) addresses.push(...((await resolve(exchange, type).catch(() => [])) as string[]))
      return { exchange, priority, addresses }
    }),
  )
  // RFC 7505 null MX: "0 ." says the domain takes no mail.
  if (hosts.length === 1 && (hosts[0]!.exchange === '' || hosts[0]!.exchange === '.')) return { status: 'pass', summary: `${domain} accepts no mail (null MX)`, result: { domain, hosts } }
  const unresolved = hosts.filter((h) => h.addresses.length === 0)
  const status: ToolStatus = unresolved.length === hosts.length ? 'fail' : unresolved.length ? 'warning' : 'pass'
  const list = hosts.map((h) => `${h.priority} ${h.exchange}`).join(', ')
  const summary = unresolved.length ? `${list}; no address for ${unresolved.map((h) => h.exchange).join(', ')}` : list
  return { status, summary, result: { domain, hosts } }
}

const authOutcome = (tool: 'spf' | 'dkim' | 'dmarc', domain: string, part: PartResult, json: unknown): ToolOutcome => ({
  status: part.status,
  summary: `${tool.toUpperCase()} ${part.status}: ${part.reason}`.slice(0, 500),
  result: { domain, [tool]: json },
})

const fromCheck = (result: CheckResult, report: unknown): ToolOutcome => {
  const verdict = (report as { verdict?: string } | undefined)?.verdict
  const status: ToolStatus = verdict === 'pass' || verdict === 'warning' || verdict === 'fail' ? verdict : result.outcome === 'ok' ? 'pass' : result.outcome === 'degraded' ? 'warning' : 'fail'
  return { status, summary: result.message, result: report ? (report as Record<string, unknown>) : { message: result.message } }
}

/** Runs one lookup. `paid` shows the SSL chain and OCSP details (as the SSL monitor does). */
export async function runLookup(input: LookupInput, deps: CheckDeps, paid: boolean): Promise<ToolOutcome> {
  const signal = AbortSignal.timeout(TOOL_TIMEOUT_MS)
  const servers = resolversOf(null, deps.dnsServers)
  const resolve = () => memoizeResolve(boundedResolve(servers, TOOL_TIMEOUT_MS, signal))
  const needsDns = input.tool !== 'ssl' && input.tool !== 'dnsbl'
  if (needsDns && servers.length === 0) return { status: 'error', summary: 'no DNS resolver configured', result: {} }
  switch (input.tool) {
    case 'dns':
      return dnsRecords(input.target, resolve())
    case 'mx':
      return mxRecords(input.target, resolve())
    case 'spf': {
      const spf = await checkSpf(input.target, resolve(), TOOL_TIMEOUT_MS)
      return authOutcome('spf', input.target, spf, spfJson(spf))
    }
    case 'dmarc': {
      const dmarc = await checkDmarc(input.target, resolve())
      return authOutcome('dmarc', input.target, dmarc, dmarcJson(dmarc))
    }
    case 'dkim': {
      // One-off: the "sends no mail" exemption needs SPF and DMARC too; the DKIM verdict stands alone here.
      const dkim = await checkDkim(input.target, input.selectors ?? [], resolve(), async () => false)
      return authOutcome('dkim', input.target, dkim, dkimJson(dkim))
    }
    case 'ssl': {
      const { host, port } = splitHostPort(input.target)
      const result = await runCheck({ type: 'ssl', host, port: port ?? 443, timeoutMs: TOOL_TIMEOUT_MS }, deps)
      return fromCheck(result, result.report ? reportForPlan(result.report, paid) : undefined)
    }
    case 'dnsbl': {
      const result = await runCheck({ type: 'dnsbl', target: input.target, timeoutMs: TOOL_TIMEOUT_MS }, deps)
      return fromCheck(result, result.report)
    }
  }
}
