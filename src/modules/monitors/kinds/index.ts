/**
 * The monitor CHECK ENGINE (issue 13, part 1): what the scheduler, storage, API and screens build on.
 * Everything here is pure logic except the network edges (fetch, node:net, node:tls, dns2).
 *
 * ── Running a check ─────────────────────────────────────────────────────────────────────────────
 *   runCheck(spec: MonitorSpec, deps: CheckDeps): Promise<CheckResult>       one attempt, never throws
 *   runMonitor(spec, deps, policy: RetryPolicy, sleep): Promise<CheckResult & { attempts }>
 *                                          attempts with retries inside one run (only `fail` retried)
 *   runBudgetMs(timeoutMs, policy)         the longest a run can take: the scheduler's hard deadline
 *   CheckResult = { outcome: 'ok'|'degraded'|'fail', responseTimeMs: number|null, statusCode?,
 *                   message (≤ 512 chars, never the body), details? }
 *   MonitorSpec = HttpSpec | TcpSpec | DnsSpec | TlsSpec | SslSpec | DnsblSpec | EmailAuthSpec (spec.ts, email-auth/check.ts; ssl and dnsbl
 *   results carry a `report`, the tool monitors of issue 16). The API's "keyword" and "json"
 *   types are HttpSpec with `keyword` or `conditions` set.
 *   CheckDeps   = { guard: AddressGuard, clock: Clock, elapsed?, trustedCa?, dnsServers?, userAgent? }
 *   createCheckDeps({ env, clock }) builds production deps: the system resolver, MONITOR_PRIVATE_TARGETS
 *   (readPrivateTargets: false | true | list of networks; it throws on a bad value, so read it at
 *   start-up) and the system's DNS servers. Tests build deps with createAddressGuard({ resolve, allowPrivate }).
 *
 * ── Validating input (API → 400) ────────────────────────────────────────────────────────────────
 *   validateSpec(spec, guard): SpecProblem[]        field-level problems, conditions with positions
 *   parseConditions(texts): { ok, conditions } | { ok: false, errors: [{ index, position, message }] }
 *   parseAcceptedStatus("200-299,301"), parsePushQuery(URLSearchParams)
 *   guard.refusesLiteral(host): why a literal address or metadata name is refused, else undefined
 *
 * ── State (pure, clock passed in) ───────────────────────────────────────────────────────────────
 *   initialState(at) → StateSnapshot { state: 'pending'|'up'|'degraded'|'down', since, flapping, history }
 *   nextState(prev, outcome, settings, at) → { next, changed, events, percentChange }
 *   encodeHistory / decodeHistory: the last 21 outcomes as a short string ("oodff") for a column
 *
 * ── Push monitors (pure; the endpoint comes with the scheduler) ─────────────────────────────────
 *   parsePushQuery(query) → PushSignal; pushResult(signal) → CheckResult (status=down is a fail);
 *   pushDeadline(clock) / pushOverdue(clock, now) → a fail result once interval + grace passed in
 *   silence, else null. Feed both kinds of result to nextState like any other check's.
 *
 * ── Defaults and numbers ────────────────────────────────────────────────────────────────────────
 *   DEFAULTS (spec.ts), defaultTimeoutMs(intervalSeconds); rationale in src/content/docs/monitors.md
 *
 * Safety: every outbound connection goes through deps.guard (src/lib/address-guard.ts): the name is
 * resolved once, every address checked, the socket opened to the checked address, and each redirect
 * hop checked again. Bodies are read up to 1 MiB for keyword/JSON checks and never leave the engine.
 */
import { createAddressGuard, readPrivateTargets } from '../../../lib/address-guard.ts'
import type { Clock } from '../../../lib/clock.ts'
import { runDnsCheck } from './dns.ts'
import { FIXES, misconfiguredResult } from './failure.ts'
import { runDnsblCheck } from './dnsbl.ts'
import { runHttpCheck } from './http.ts'
import { runSslCheck } from './ssl.ts'
import { runWithRetries, type RetryPolicy, type Sleep } from '../run/retries.ts'
import type { CheckDeps, CheckResult, MonitorSpec } from './spec.ts'
import { systemDnsServers, systemResolve } from './system-resolver.ts'
import { runTcpCheck } from './tcp.ts'
import { runTlsCheck } from './tls.ts'
import { runEmailAuthCheck } from './email-auth/check.ts'

export { parseConditions, evaluateConditions, type Condition, type ConditionError } from './conditions.ts'
export { parsePushQuery, pushDeadline, pushOverdue, pushResult, type PushClock, type PushSignal } from '../run/push.ts'
export { DEFAULT_RETRY_POLICY, runBudgetMs, type RetryPolicy, type Sleep } from '../run/retries.ts'
export { DEFAULTS, defaultTimeoutMs } from './spec.ts'
export type { CheckDeps, CheckResult, DnsblReport, DnsblSpec, DnsSpec, HttpSpec, MonitorSpec, MonitorType, Outcome, SslReport, SslSpec, TcpSpec, TlsSpec, ToolReport } from './spec.ts'
export {
  DEFAULT_STATE_SETTINGS,
  decodeHistory,
  encodeHistory,
  initialState,
  nextState,
  percentStateChange,
  type MonitorState,
  type StateEvent,
  type StateSettings,
  type StateSnapshot,
  type Transition,
} from '../run/state.ts'
export { parseAcceptedStatus } from './status-codes.ts'
export { validateSpec, type SpecProblem } from './validate.ts'

/** One attempt of the check the spec describes. Never throws: every failure is a `fail` result. */
export async function runCheck(spec: MonitorSpec, deps: CheckDeps): Promise<CheckResult> {
  try {
    switch (spec.type) {
      case 'http':
        return await runHttpCheck(spec, deps)
      case 'tcp':
        return await runTcpCheck(spec, deps)
      case 'dns':
        return await runDnsCheck(spec, deps)
      case 'tls':
        return await runTlsCheck(spec, deps)
      case 'email_auth':
        return await runEmailAuthCheck(spec, deps)
      case 'ssl':
        return await runSslCheck(spec, deps)
      case 'dnsbl':
        return await runDnsblCheck(spec, deps)
      default:
        return misconfiguredResult(`unknown monitor type ${JSON.stringify((spec as { type?: unknown }).type)}`.slice(0, 200), FIXES.editSettings)
    }
  } catch (error) {
    // A bug must cost one failed result, never the scheduler loop.
    return { outcome: 'fail', responseTimeMs: null, message: `internal error: ${String((error as Error)?.message ?? error).slice(0, 400)}` }
  }
}

/** One run: the check with its retries. */
export function runMonitor(spec: MonitorSpec, deps: CheckDeps, policy: RetryPolicy, sleep: Sleep): Promise<CheckResult & { attempts: number }> {
  return runWithRetries(() => runCheck(spec, deps), policy, sleep)
}

/** The production deps: system resolver, the instance's private-target setting and DNS servers. */
export function createCheckDeps(options: { env: Record<string, string | undefined>; clock: Clock; userAgent?: string }): CheckDeps {
  return {
    guard: createAddressGuard({ resolve: systemResolve, allowPrivate: readPrivateTargets(options.env) }),
    clock: options.clock,
    dnsServers: systemDnsServers(),
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  }
}
