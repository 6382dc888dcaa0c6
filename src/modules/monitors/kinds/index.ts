/**
 * The check kinds: the face of monitors/kinds/. Other code (the monitors API, run/, probes,
 * lookup tools, email-auth, metrics, the web app) imports kinds through this file only.
 *
 * A new kind touches:
 *   1. kinds/<kind>.ts: its run (one attempt, the network edge), validate (field-named problems),
 *      toSpec (stored definition → spec) and the record `<kind>Kind`; its spec type in spec.ts
 *      (MonitorSpec) when it is not an http request.
 *   2. this file: the KINDS table below (and re-exports other modules need).
 *   3. tables.ts: StoredMonitorType; definition.ts: MONITOR_TYPES, its options (MonitorOptions,
 *      OPTION_FIELDS, API_FIELD for 400s), what mergeDefinition requires of it, hostKey and
 *      connectedHost (the per-host cap and the guard's host), defaultIntervalSeconds.
 *   4. model.ts (the API's schemas for its options), index.ts (the routes: the create route's description),
 *      src/cli.ts (the types its help lists).
 *   5. the web app's monitor screens (views/monitors.ts: the type's label, hint, options and target
 *      placeholder).
 *   6. src/content/docs/monitors.md, and tests in test/modules/monitors/.
 *
 * ── Running a check ─────────────────────────────────────────────────────────────────────────────
 *   runCheck(spec: MonitorSpec, deps: CheckDeps): Promise<CheckResult>       one attempt, never throws
 *   CheckResult = { outcome: 'ok'|'degraded'|'fail'|'misconfigured', responseTimeMs: number|null,
 *                   statusCode?, message (≤ 512 chars, never the body), details?, report? }
 *   MonitorSpec = HttpSpec | TcpSpec | DnsSpec | TlsSpec | SslSpec | DnsblSpec | EmailAuthSpec | DomainExpirySpec | PingSpec |
 *   RedisSpec | PostgresSpec | WebSocketSpec | SmtpSpec. The API's
 *   "keyword" and "json" types are HttpSpec with `keyword` or `conditions` set; ssl and dnsbl results
 *   carry a `report`.
 *   CheckDeps   = { guard: AddressGuard, clock: Clock, elapsed?, trustedCa?, dnsServers?, userAgent? }
 *   createCheckDeps({ env, clock }) builds production deps: the system resolver, MONITOR_PRIVATE_TARGETS
 *   (readPrivateTargets: false | true | list of networks; it throws on a bad value, so read it at
 *   start-up) and the system's DNS servers. Tests build deps with createAddressGuard({ resolve, allowPrivate }).
 *   Retries, state and scheduling are run/'s (run/index.ts).
 *
 * ── Validating input (API → 400) ────────────────────────────────────────────────────────────────
 *   validateSpec(spec, guard): SpecProblem[]        field-level problems, conditions with positions
 *   parseConditions(texts), parseAcceptedStatus("200-299,301"), guard.refusesLiteral(host)
 *
 * Safety: every outbound connection goes through deps.guard (src/lib/address-guard.ts): the name is
 * resolved once, every address checked, the socket opened to the checked address, and each redirect
 * hop checked again. Bodies are read up to 1 MiB for keyword/JSON checks and never leave the engine.
 */
import { createAddressGuard, readPrivateTargets, type AddressGuard } from '../../../lib/address-guard.ts'
import type { Clock } from '../../../lib/clock.ts'
import type { MonitorDefinition } from '../definition.ts'
import type { StoredMonitorType } from '../tables.ts'
import { dnsKind } from './dns.ts'
import { dnsblKind } from './dnsbl.ts'
import { domainExpiryKind } from './domain-expiry.ts'
import { bootstrapLoader, DEFAULT_RDAP_BOOTSTRAP_PATH } from './rdap/bootstrap.ts'
import { emailAuthKind } from './email-auth/monitor.ts'
import { FIXES, misconfiguredResult } from './failure.ts'
import { httpKind } from './http.ts'
import { jsonKind } from './json.ts'
import { keywordKind } from './keyword.ts'
import type { MonitorKind } from './kind.ts'
import { pingKind } from './ping.ts'
import { pushKind } from './push.ts'
import type { CheckDeps, CheckResult, MonitorSpec } from './spec.ts'
import { sslKind } from './ssl.ts'
import { systemDnsServers, systemResolve } from '../../../lib/dns/index.ts'
import { tcpKind } from './tcp.ts'
import { tlsKind } from './tls.ts'
import { postgresKind } from './postgres.ts'
import { redisKind } from './redis.ts'
import { smtpKind } from './smtp.ts'
import { webSocketKind } from './websocket.ts'
import { commonProblems, type SpecProblem } from './validate.ts'

export { splitHostPort, type MonitorKind } from './kind.ts'
export { parseConditions, evaluateConditions, type Condition, type ConditionError } from './conditions.ts'
export { DEFAULTS, defaultTimeoutMs, clipMessage, DNS_RECORD_TYPES, HTTP_METHODS, OUTCOMES, STARTTLS_PORTS } from './spec.ts'
export type {
  CheckDeps, CheckResult, DnsblReport, DomainExpirySpec, PingSpec, DnsblSpec, DnsblStatus, DnsRecordType, DnsSpec, HttpMethod, HttpSpec, MonitorSpec, MonitorType, Outcome,
  SslReport, SslSpec, TcpSpec, TlsSpec, ToolReport, Verdict,
  PostgresSpec, RedisSpec, SmtpSpec, WebSocketSpec,
} from './spec.ts'
export { maskTargetPassword } from './server-target.ts'
export { MAX_QUERY_LENGTH } from './postgres.ts'
export { MAX_WS_MESSAGE } from './websocket.ts'
export { parseAcceptedStatus } from './status-codes.ts'
export type { SpecProblem } from './validate.ts'
export { parseResolver, type ResolverAddress } from './dns.ts'
export { DEFAULT_DNSBL_ZONES, dnsblTargetAddress, MAX_DNSBL_ZONES } from './dnsbl-zones.ts'
export { reportForPlan } from './ssl-report.ts'
export { DEFAULT_PING_COUNT, MAX_PING_COUNT, PING_UNAVAILABLE_FIX, pingSupport } from './ping.ts'
export { bootstrapLoader, DEFAULT_RDAP_BOOTSTRAP_PATH, IANA_RDAP_DNS_URL, parseBootstrap, refreshBootstrap, type RdapBootstrap } from './rdap/bootstrap.ts'
// email_auth's parts, which the lookup tools run one by one and the email-auth reports show.
export { EMAIL_AUTH_DEFAULTS, MAIL_DOMAIN } from './email-auth/monitor.ts'
export { boundedResolve, normalizeDomain, resolversOf, type EmailAuthSpec } from './email-auth/check.ts'
export { checkDkim, MAX_SELECTORS, SELECTOR_PATTERN } from './email-auth/dkim.ts'
export { checkDmarc } from './email-auth/dmarc.ts'
export { checkSpf } from './email-auth/spf.ts'
export { dnsCode, memoizeResolve, type DnsResolve } from '../../../lib/dns/index.ts'
export { LABEL, type AuthStatus, type DkimResult, type DmarcResult, type EmailAuthReport, type PartResult, type SpfResult } from './email-auth/report.ts'

/** Every kind, by the type the API and the database name it. */
export const KINDS: Readonly<Record<StoredMonitorType, MonitorKind>> = {
  http: httpKind,
  keyword: keywordKind,
  json: jsonKind,
  tcp: tcpKind,
  dns: dnsKind,
  tls: tlsKind,
  push: pushKind,
  ssl: sslKind,
  dnsbl: dnsblKind,
  email_auth: emailAuthKind,
  domain_expiry: domainExpiryKind,
  ping: pingKind,
  redis: redisKind,
  postgres: postgresKind,
  websocket: webSocketKind,
  smtp: smtpKind,
}

/** Types a probe runs: what it can see from elsewhere. */
export const PROBE_TYPES: readonly StoredMonitorType[] = Object.values(KINDS).filter((kind) => kind.probeable).map((kind) => kind.type)

/** The engine's spec of a stored definition; null for push monitors (nothing to run, only silence to notice). */
export function toSpec(definition: MonitorDefinition): MonitorSpec | null {
  return KINDS[definition.type].toSpec(definition)
}

/** The kind that runs a spec (keyword and json run as http), or undefined for a type nobody knows. */
function kindOfSpec(spec: MonitorSpec): MonitorKind | undefined {
  const kind = (KINDS as Partial<Record<string, MonitorKind>>)[spec.type]
  return kind && kind.type !== 'push' ? kind : undefined
}

/** One attempt of the check the spec describes. Never throws: every failure is a `fail` result. */
export async function runCheck(spec: MonitorSpec, deps: CheckDeps): Promise<CheckResult> {
  try {
    const kind = kindOfSpec(spec)
    if (!kind) return misconfiguredResult(`unknown monitor type ${JSON.stringify((spec as { type?: unknown }).type)}`.slice(0, 200), FIXES.editSettings)
    return await kind.run(spec, deps)
  } catch (error) {
    // A bug must cost one failed result, never the scheduler loop.
    return { outcome: 'fail', responseTimeMs: null, message: `internal error: ${String((error as Error)?.message ?? error).slice(0, 400)}` }
  }
}

/** A spec's problems for the API: what every spec shares, then its kind's own. */
export function validateSpec(spec: MonitorSpec, guard: AddressGuard): SpecProblem[] {
  const problems = commonProblems(spec)
  const kind = kindOfSpec(spec)
  if (!kind) return [...problems, { field: 'type', message: 'unknown monitor type' }]
  return [...problems, ...kind.validate(spec, guard)]
}

/** The production deps: system resolver, the instance's private-target setting and DNS servers. */
export function createCheckDeps(options: { env: Record<string, string | undefined>; clock: Clock; userAgent?: string }): CheckDeps {
  return {
    guard: createAddressGuard({ resolve: systemResolve, allowPrivate: readPrivateTargets(options.env) }),
    clock: options.clock,
    dnsServers: systemDnsServers(),
    ...(options.env.PING_COMMAND?.trim() ? { pingCommand: options.env.PING_COMMAND.trim() } : {}),
    rdapBootstrap: bootstrapLoader(options.env.RDAP_BOOTSTRAP_PATH?.trim() || DEFAULT_RDAP_BOOTSTRAP_PATH, () => options.clock.now()),
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  }
}
