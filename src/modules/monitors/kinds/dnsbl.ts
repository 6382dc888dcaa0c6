/**
 * DNSBL monitors: the target's addresses (the IP itself, or a domain's MX hosts' and its
 * own A addresses) looked up in each zone through the instance's own resolver (CheckDeps.dnsServers,
 * the DNS monitor's default), never a public one: Spamhaus and others refuse those. dns2's client,
 * like the DNS check. At most DEFAULTS.dnsblConcurrency queries at once, each with its own timeout.
 *
 * Reading an answer (RFC 5782; Spamhaus news 788):
 *   NXDOMAIN, or no A record               → clear
 *   A records in 127.0.0.0/8               → listed, the codes kept (127.0.0.2, …)
 *   any A record in 127.255.255.0/24       → zone error (public resolver, rate limit, bad key): never "listed"
 *   any A record outside 127.0.0.0/8       → zone error (a resolver that rewrites NXDOMAIN)
 *   SERVFAIL, REFUSED, timeout             → zone error
 * Verdict: listed anywhere → fail; otherwise a zone error → warning; otherwise pass.
 */
import { counted } from '../../../lib/words.ts'
import { abortable } from '../../../lib/abortable.ts'
import { firstResolver, queryDns, rcodeName, type DnsPacket, type ResolverAddress } from '../../../lib/dns/index.ts'
import { DEAD_DNSBL_ZONES, defaultZoneNames, dnsblQueryName, dnsblTargetAddress, MAX_DNSBL_ZONES } from './dnsbl-zones.ts'
import { describeFailure, FIXES, misconfiguredResult } from './failure.ts'
import type { AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { clipMessage, DEFAULTS, type CheckDeps, type CheckResult, type DnsblReport, type DnsblSpec, type DnsblStatus, type Verdict } from './spec.ts'
import { DNS_NAME, fieldChecks, type SpecProblem } from './validate.ts'

/** A domain's MX hosts looked at, and addresses per name: bounds the sweep (addresses × zones). */
const MAX_MX_HOSTS = 5
const MAX_ADDRESSES = 10

type Lookup = (name: string, type: 'A' | 'MX') => Promise<DnsPacket>

export async function runDnsblCheck(spec: DnsblSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  const signal = AbortSignal.timeout(spec.timeoutMs)
  const fail = (message: string): CheckResult => ({ outcome: 'fail', responseTimeMs: null, message: clipMessage(message) })
  const resolver = firstResolver(deps.dnsServers)
  if (!resolver) return misconfiguredResult('no DNS resolver configured', FIXES.instanceResolvers)
  const queryTimeoutMs = Math.min(DEFAULTS.dnsblQueryTimeoutMs, spec.timeoutMs)
  const lookup = lookupVia(resolver, queryTimeoutMs)
  const zones = spec.zones?.length ? spec.zones : defaultZoneNames()

  let addresses: DnsblReport['addresses']
  try {
    addresses = await targetAddresses(spec.target, lookup, signal)
  } catch (error) {
    return fail(`${spec.target}: ${describeFailure(error, signal, spec.timeoutMs)}`)
  }
  if (addresses.length === 0) return fail(`${spec.target} has no MX or A addresses to look up`)

  const pairs = addresses.flatMap(({ address }) => zones.map((zone) => ({ address, zone })))
  const results = await mapLimited(pairs, DEFAULTS.dnsblConcurrency, async ({ address, zone }) => {
    try {
      const packet = await abortable(lookup(dnsblQueryName(address, zone), 'A'), signal)
      return { address, zone, ...classifyDnsblAnswer(packet.header.rcode, aRecords(packet)) }
    } catch (error) {
      return { address, zone, status: 'error' as const, codes: [], error: describeFailure(error, signal, queryTimeoutMs) }
    }
  })
  const responseTimeMs = Math.round(elapsed() - started)
  const report = dnsblReport(spec.target, addresses, results)
  const listed = results.filter((r) => r.status === 'listed').length
  const errors = results.filter((r) => r.status === 'error').length
  return {
    outcome: report.verdict === 'pass' ? 'ok' : report.verdict === 'warning' ? 'degraded' : 'fail',
    responseTimeMs,
    message: clipMessage(report.reasons[0] ?? `${spec.target}: not listed on any of ${counted(zones.length, 'zone')} (${counted(addresses.length, 'address', 'addresses')})`),
    details: { listed, errors, zones: zones.length, addresses: addresses.length },
    report,
  }
}

/** How one zone answered for one address. Pure. */
export function classifyDnsblAnswer(rcode: number, addresses: string[]): { status: DnsblStatus; codes: string[]; error: string | null } {
  if (rcodeName(rcode) === 'NXDOMAIN') return { status: 'clear', codes: [], error: null }
  if (rcode !== 0) {
    const name = rcodeName(rcode)
    return { status: 'error', codes: [], error: `the zone answered ${name}` }
  }
  if (addresses.length === 0) return { status: 'clear', codes: [], error: null }
  const errorCode = addresses.find((a) => a.startsWith('127.255.255.'))
  if (errorCode) return { status: 'error', codes: [], error: `the zone answered ${errorCode}, an error code (${zoneErrorMeaning(errorCode)}), not a listing` }
  const foreign = addresses.find((a) => !a.startsWith('127.'))
  if (foreign) return { status: 'error', codes: [], error: `the answer ${foreign} is outside 127.0.0.0/8: the resolver may rewrite NXDOMAIN` }
  return { status: 'listed', codes: [...addresses].sort(), error: null }
}

function zoneErrorMeaning(code: string): string {
  if (code === '127.255.255.254') return 'query through a public or open resolver'
  if (code === '127.255.255.255') return 'too many queries'
  if (code === '127.255.255.252') return 'typo in the zone name'
  if (code === '127.255.255.250') return 'key not valid'
  return 'error range 127.255.255.x'
}

export function dnsblReport(target: string, addresses: DnsblReport['addresses'], results: DnsblReport['results']): DnsblReport {
  const listed = results.filter((r) => r.status === 'listed')
  const errors = results.filter((r) => r.status === 'error')
  const reasons = [
    ...listed.map((r) => `${r.address} is listed on ${r.zone} (${r.codes.join(', ')})`),
    ...errors.map((r) => `${r.zone} gave no answer for ${r.address}: ${r.error}`),
  ]
  const verdict: Verdict = listed.length > 0 ? 'fail' : errors.length > 0 ? 'warning' : 'pass'
  return { kind: 'dnsbl', verdict, reasons, target, addresses, results }
}

/** The IP itself; or a domain's MX hosts' addresses (up to 5 hosts) and its own A addresses. */
async function targetAddresses(target: string, lookup: Lookup, signal: AbortSignal): Promise<DnsblReport['addresses']> {
  const literal = dnsblTargetAddress(target)
  if (literal === undefined) throw new Error('not an IP address')
  if (literal !== 'not-ip') return [{ address: literal, source: 'the target' }]
  const found = new Map<string, string>()
  const mx = await abortable(lookup(target, 'MX'), signal)
  const exchanges = (mx.answers as unknown as Array<{ type: number; exchange?: string; priority?: number }>)
    .filter((record) => record.type === 15 && record.exchange)
    .sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0))
    .map((record) => String(record.exchange).toLowerCase().replace(/\.$/, ''))
    .slice(0, MAX_MX_HOSTS)
  const names = [...exchanges.map((name) => ({ name, source: `MX ${name}` })), { name: target, source: `A ${target}` }]
  const answers = await Promise.all(names.map(async ({ name, source }) => ({ source, addresses: aRecords(await abortable(lookup(name, 'A'), signal)) })))
  for (const { source, addresses } of answers) {
    for (const address of addresses) if (!found.has(address) && found.size < MAX_ADDRESSES) found.set(address, source)
  }
  return [...found].map(([address, source]) => ({ address, source }))
}

function aRecords(packet: DnsPacket): string[] {
  return (packet.answers as unknown as Array<{ type: number; address?: string }>).filter((record) => record.type === 1 && record.address).map((record) => String(record.address))
}

function lookupVia(resolver: ResolverAddress, timeoutMs: number): Lookup {
  // Blocklist answers are tiny: no TCP fallback. dns2 gives up (and closes its socket) after `timeout`.
  return (name, type) => queryDns(resolver, name, type, { timeoutMs, tcpFallback: false })
}

/** Runs `work` over `items`, at most `limit` at once, results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

function dnsblSpec(definition: MonitorDefinition): DnsblSpec {
  const { options: o } = definition
  return { type: 'dnsbl', target: definition.target ?? '', ...commonSpec(definition), ...(o.zones?.length ? { zones: o.zones } : {}) }
}

function validateDnsblSpec(spec: DnsblSpec, guard: AddressGuard): SpecProblem[] {
  const { problems, problem } = fieldChecks(guard)
  const address = dnsblTargetAddress(spec.target)
  if (address === undefined || (address === 'not-ip' && (!DNS_NAME.test(spec.target) || !spec.target.includes('.')))) {
    problem('target', 'must be an IP address or a domain name')
  }
  const zones = spec.zones ?? []
  if (zones.length > MAX_DNSBL_ZONES) problem('zones', `at most ${MAX_DNSBL_ZONES} zones`)
  for (const zone of zones) {
    if (typeof zone !== 'string' || !DNS_NAME.test(zone) || !zone.includes('.')) problem('zones', `"${String(zone).slice(0, 100)}" is not a zone name`)
    else if (DEAD_DNSBL_ZONES.includes(zone.toLowerCase().replace(/\.$/, ''))) problem('zones', `${zone} is decommissioned; it would report nothing or everything`)
  }
  return problems
}

/** dnsbl: an address (or a mail domain's addresses) looked up in blocklist zones. Its verdict does not depend on where it is asked from. */
export const dnsblKind: MonitorKind<DnsblSpec> = { type: 'dnsbl', toSpec: dnsblSpec, validate: validateDnsblSpec, run: runDnsblCheck, probeable: false }
