/**
 * ICMP ping: the host is resolved and checked by the address guard, then the system's `ping`
 * (iputils: an unprivileged ICMP socket where `net.ipv4.ping_group_range` allows it, else its
 * CAP_NET_RAW) is given the checked IP, never the name. A few echo requests: the average round trip is
 * the response time; some lost is degraded, all lost is a failure. Where this server cannot send ICMP
 * at all the run is misconfigured with the reason, and the fix suggests a TCP check (edge: Bun.spawn).
 */
import { canonicalHost, isIpLiteral, type AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { misconfiguredResult, thrownResult } from './failure.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { clipMessage, type CheckDeps, type CheckResult, type PingSpec } from './spec.ts'
import { fieldChecks, type SpecProblem } from './validate.ts'

export const DEFAULT_PING_COUNT = 3
export const MAX_PING_COUNT = 10
/** Seconds between echo requests: the shortest iputils allows an unprivileged user. */
const PING_SPACING_S = 0.2
export const PING_UNAVAILABLE_FIX =
  'use a TCP check on a port the host serves (22 for SSH, 443 for a web server) instead, or let this server send ICMP: install iputils-ping, or allow unprivileged ICMP sockets with sysctl net.ipv4.ping_group_range="0 2147483647"'

/** What the system's ping said: its statistics, or why it could not run. */
export type PingOutput =
  | { ran: true; transmitted: number; received: number; avgMs: number | null; minMs: number | null; maxMs: number | null }
  | { ran: false; unavailable: boolean; error: string }

/** Reads iputils ping's summary; an error line when there is none ("unavailable": this server cannot ping at all). */
export function parsePingOutput(stdout: string, stderr: string): PingOutput {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(stdout)
  if (counts) {
    const rtt = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\//.exec(stdout)
    return {
      ran: true,
      transmitted: Number(counts[1]),
      received: Number(counts[2]),
      minMs: rtt ? Number(rtt[1]) : null,
      avgMs: rtt ? Number(rtt[2]) : null,
      maxMs: rtt ? Number(rtt[3]) : null,
    }
  }
  const lines = (stderr.trim() || stdout.trim() || 'no output').split('\n').map((line) => line.replace(/^ping:\s*/, '').trim()).filter(Boolean)
  const unavailable = /operation not permitted|permission denied|lacking privilege|cap_net_raw|not found|no such file/i
  // The line that says why (iputils prints the socket type tried first, then the error, then a hint).
  const error = lines.find((line) => unavailable.test(line)) ?? lines[lines.length - 1]!
  return { ran: false, unavailable: unavailable.test(lines.join(' ')), error: error.slice(0, 200) }
}

/** Runs the system's ping at an IP address (edge). */
async function systemPing(command: string, address: string, count: number, timeoutMs: number): Promise<PingOutput> {
  const deadline = Math.max(1, Math.ceil(timeoutMs / 1000))
  let child: ReturnType<typeof Bun.spawn>
  try {
    child = Bun.spawn([command, address.includes(':') ? '-6' : '-4', '-n', '-q', '-c', String(count), '-i', String(PING_SPACING_S), '-W', String(Math.min(deadline, 5)), '-w', String(deadline), address], {
      stdout: 'pipe',
      stderr: 'pipe',
      stdin: 'ignore',
      timeout: timeoutMs + 1_000,
      env: { LC_ALL: 'C', PATH: '/usr/bin:/bin:/usr/sbin:/sbin' },
    })
  } catch (error) {
    return { ran: false, unavailable: true, error: `cannot run ${command}: ${(error as Error).message}`.slice(0, 200) }
  }
  const [stdout, stderr] = await Promise.all([new Response(child.stdout as ReadableStream).text(), new Response(child.stderr as ReadableStream).text()])
  await child.exited
  return parsePingOutput(stdout, stderr)
}

export async function runPingCheck(spec: PingSpec, deps: CheckDeps): Promise<CheckResult> {
  const signal = AbortSignal.timeout(spec.timeoutMs)
  let address: string
  try {
    address = (await deps.guard.check(spec.host, signal)).address
  } catch (error) {
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate })
  }
  const count = spec.count ?? DEFAULT_PING_COUNT
  const output = await systemPing(deps.pingCommand ?? 'ping', address, count, spec.timeoutMs)
  if (!output.ran) {
    if (output.unavailable) return misconfiguredResult(`this server cannot send ICMP echo requests (${output.error})`, PING_UNAVAILABLE_FIX, { address })
    return { outcome: 'fail', responseTimeMs: null, message: clipMessage(output.error), details: { address } }
  }
  const lost = output.transmitted - output.received
  const lossPercent = output.transmitted > 0 ? Math.round((lost / output.transmitted) * 100) : 100
  const details = { address, transmitted: output.transmitted, received: output.received, lossPercent, minMs: output.minMs, avgMs: output.avgMs, maxMs: output.maxMs }
  if (output.received === 0) return { outcome: 'fail', responseTimeMs: null, message: clipMessage(`no reply from ${address}: ${output.transmitted} of ${output.transmitted} echo requests lost`), details }
  const responseTimeMs = Math.round(output.avgMs ?? 0)
  const rtt = `average round trip ${output.avgMs} ms`
  if (lost > 0) return { outcome: 'degraded', responseTimeMs, message: clipMessage(`${lossPercent}% loss (${lost} of ${output.transmitted} lost), ${rtt}`), details }
  const slow = spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
  return { outcome: slow ? 'degraded' : 'ok', responseTimeMs, message: clipMessage(`${output.received} of ${output.transmitted} replies, ${rtt}${slow ? `, slower than ${spec.degradedAfterMs} ms` : ''}`), details }
}

/** Whether this server can ping at all (cached per command): the form and the API say why not. */
const support = new Map<string, Promise<{ ok: true } | { ok: false; reason: string }>>()
export function pingSupport(command = 'ping'): Promise<{ ok: true } | { ok: false; reason: string }> {
  let known = support.get(command)
  if (!known) {
    known = systemPing(command, '127.0.0.1', 1, 2_000).then((output) =>
      output.ran || !output.unavailable ? { ok: true as const } : { ok: false as const, reason: `this server cannot send ICMP echo requests (${output.error})` },
    )
    support.set(command, known)
  }
  return known
}

function pingSpec(definition: MonitorDefinition): PingSpec {
  const count = definition.options.ping_count
  return { type: 'ping', host: definition.target ?? '', ...commonSpec(definition), ...(count !== undefined ? { count } : {}) }
}

function validatePingSpec(spec: PingSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  // A host, not host:port or a URL: ICMP has no ports.
  const canonical = canonicalHost(spec.host)
  if (!canonical || (!isIpLiteral(canonical) && spec.host.includes(':'))) check.problem('host', 'must be a host name or an IP address (no port), e.g. router.example.com or 192.0.2.1')
  else check.host('host', spec.host)
  if (spec.count !== undefined && (!Number.isInteger(spec.count) || spec.count < 1 || spec.count > MAX_PING_COUNT)) check.problem('count', `must be from 1 to ${MAX_PING_COUNT}`)
  return check.problems
}

/** ping: ICMP echo replies from the host, round trip and loss over a few requests. */
export const pingKind: MonitorKind<PingSpec> = { type: 'ping', toSpec: pingSpec, validate: validatePingSpec, run: runPingCheck, probeable: true }
