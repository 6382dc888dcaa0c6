/**
 * DNS checks: one query of one record type to one resolver, answers compared with the expected
 * values, through the DNS client of src/lib/dns/ (it names its own resolver and port).
 * A resolver named in the spec goes through the address guard; the instance's own resolvers do not.
 */
import { canonicalHost } from '../../../lib/address-guard.ts'
import { firstResolver, parseResolver, queryDns, rcodeName, type DnsPacket, type ResolverAddress } from '../../../lib/dns/index.ts'
import { explainNetworkError } from '../../../lib/network-errors.ts'
import { describeFailure, FIXES, misconfiguredResult } from './failure.ts'
import type { AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { clipMessage, DNS_RECORD_TYPES, type CheckDeps, type CheckResult, type DnsRecordType, type DnsSpec } from './spec.ts'
import { DNS_NAME, fieldChecks, RESOLVER_FORMAT, type SpecProblem } from './validate.ts'

export { parseResolver, type ResolverAddress } from '../../../lib/dns/index.ts'

export async function runDnsCheck(spec: DnsSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const signal = AbortSignal.timeout(spec.timeoutMs)
  const fail = (message: string): CheckResult => ({ outcome: 'fail', responseTimeMs: null, message: clipMessage(message) })

  let resolver: ResolverAddress | undefined
  if (spec.resolver) {
    resolver = parseResolver(spec.resolver)
    if (!resolver) return misconfiguredResult(`resolver "${spec.resolver}" must be an IP address with an optional port`, FIXES.editSettings)
    const refusal = deps.guard.refusesLiteral(resolver.address)
    if (refusal) return misconfiguredResult(`resolver ${refusal}`, FIXES.editSettings)
  } else {
    resolver = firstResolver(deps.dnsServers)
    if (!resolver) return misconfiguredResult('no DNS resolver configured', FIXES.instanceResolvers)
  }

  const started = elapsed()
  let packet: DnsPacket
  try {
    packet = await queryDns(resolver, spec.name, spec.recordType, { timeoutMs: spec.timeoutMs, signal })
  } catch (error) {
    return fail(`${spec.recordType} ${spec.name}: ${describeFailure(error, signal, spec.timeoutMs)}`)
  }
  const responseTimeMs = Math.round(elapsed() - started)
  const rcode = packet.header.rcode
  if (rcode !== 0) {
    const name = rcodeName(rcode)
    return { outcome: 'fail', responseTimeMs, message: clipMessage(`${spec.recordType} ${spec.name}: ${explainNetworkError({ code: name }) ?? name}`) }
  }
  const answers = answerValues(packet, spec.recordType)
  const shown = answers.map((answer) => answer.display).join(', ')
  const details = { answers: clipMessage(shown) }
  if (answers.length === 0) return { outcome: 'fail', responseTimeMs, message: clipMessage(`${spec.recordType} ${spec.name}: no ${spec.recordType} records`), details }
  const missing = (spec.expected ?? []).filter((value) => !answers.some((answer) => answer.matches(value)))
  if (missing.length > 0) {
    return { outcome: 'fail', responseTimeMs, message: clipMessage(`${spec.recordType} ${spec.name}: expected ${missing.join(', ')}, got ${shown}`), details }
  }
  const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
  const message = `${spec.recordType} ${spec.name}: ${shown}${slow ? `, slower than ${spec.degradedAfterMs} ms` : ''}`
  return { outcome: slow ? 'degraded' : 'ok', responseTimeMs, message: clipMessage(message), details }
}

interface AnswerValue {
  display: string
  matches(expected: string): boolean
}

const TYPE_CODES: Record<DnsRecordType, number> = { A: 1, AAAA: 28, CNAME: 5, MX: 15, TXT: 16 }
const hostName = (name: unknown) => String(name ?? '').toLowerCase().replace(/\.$/, '')

/** The answers of the asked type (a CNAME chain's other records left out), each with its match rule. */
export function answerValues(packet: DnsPacket, type: DnsRecordType): AnswerValue[] {
  const records = packet.answers.filter((record) => record.type === TYPE_CODES[type]) as unknown as Array<Record<string, unknown>>
  return records.map((record): AnswerValue => {
    switch (type) {
      case 'A':
      case 'AAAA': {
        const address = canonicalHost(String(record.address)) ?? String(record.address)
        return { display: address, matches: (expected) => canonicalHost(expected.trim()) === address }
      }
      case 'CNAME': {
        const domain = hostName(record.domain)
        return { display: domain, matches: (expected) => hostName(expected.trim()) === domain }
      }
      case 'MX': {
        const exchange = hostName(record.exchange)
        const priority = Number(record.priority)
        return {
          display: `${priority} ${exchange}`,
          // "mail.example.com" or "10 mail.example.com".
          matches: (expected) => {
            const [first, second] = expected.trim().split(/\s+/)
            return second === undefined ? hostName(first) === exchange : Number(first) === priority && hostName(second) === exchange
          },
        }
      }
      case 'TXT': {
        // One record's 255-byte pieces make one string again (RFC 7208 §3.3).
        const data = record.data
        const text = Array.isArray(data) ? data.join('') : String(data ?? '')
        return { display: JSON.stringify(text), matches: (expected) => expected === text }
      }
    }
  })
}

function dnsSpec(definition: MonitorDefinition): DnsSpec {
  const { options: o } = definition
  return { type: 'dns', name: definition.target ?? '', recordType: o.record_type ?? 'A', ...commonSpec(definition), ...(o.expected ? { expected: o.expected } : {}), ...(o.resolver ? { resolver: o.resolver } : {}) }
}

/** A resolver the spec names: an IP literal the guard allows. */
export function resolverProblems(check: ReturnType<typeof fieldChecks>, resolver: string | null | undefined): void {
  if (!resolver) return
  const parsed = parseResolver(resolver)
  if (!parsed) check.problem('resolver', RESOLVER_FORMAT)
  else check.host('resolver', parsed.address)
}

function validateDnsSpec(spec: DnsSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  if (typeof spec.name !== 'string' || !DNS_NAME.test(spec.name)) check.problem('name', 'must be a DNS name')
  if (!DNS_RECORD_TYPES.includes(spec.recordType)) check.problem('recordType', `must be one of ${DNS_RECORD_TYPES.join(', ')}`)
  if ((spec.expected?.length ?? 0) > 20 || spec.expected?.some((value) => typeof value !== 'string' || value.length > 2048)) {
    check.problem('expected', 'at most 20 values of at most 2048 characters')
  }
  resolverProblems(check, spec.resolver)
  return check.problems
}

/** dns: one query of one record type, its answer compared with the expected values. */
export const dnsKind: MonitorKind<DnsSpec> = { type: 'dns', toSpec: dnsSpec, validate: validateDnsSpec, run: runDnsCheck, probeable: true }
