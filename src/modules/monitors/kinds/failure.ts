/**
 * One wording for why a check attempt threw, shared by every check type and the lookup tools, and the line between a
 * failure of the target (`fail`: it counts as down) and a run the configuration refused
 * (`misconfigured`: the address guard's rules, an invalid host, a setting the engine cannot run;
 * it never counts as down, and the owner is told the reason and the fix).
 */
import { AddressRefused, type PrivateTargets } from '../../../lib/address-guard.ts'
import { clipMessage, type CheckResult } from './spec.ts'
import { explainNetworkError } from '../../../lib/network-errors.ts'

/**
 * A short reason for a thrown error: a timeout, a refusal, a sentence for a known network, DNS or
 * TLS error (src/lib/network-errors.ts), else the error's code and message.
 */
export function describeFailure(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`
  if (error instanceof AddressRefused) return `refused: ${error.message}`
  const explained = explainNetworkError(error)
  if (explained) return explained
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message.replace(/ For more information, pass `verbose: true`.*$/, '') : String(error)
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message
}

/** What the owner can do about a run the configuration refused. */
export const FIXES = {
  privateAddress: 'monitor an address reachable from the internet, or let this instance reach loopback and private addresses with MONITOR_PRIVATE_TARGETS=1 (then restart it)',
  privateOutsideList: 'add its network to MONITOR_PRIVATE_TARGETS (then restart the instance), or monitor another address',
  neverReached: 'monitor another address; monitors never reach this kind of address',
  editTarget: "edit the monitor's target",
  editSettings: "edit the monitor's settings",
  instanceResolvers: "give the instance a DNS resolver (the system's /etc/resolv.conf), or name one in the monitor",
} as const

/** A run the configuration refused: the monitor's state becomes misconfigured, never down. */
export function misconfiguredResult(reason: string, fix: string, details?: CheckResult['details']): CheckResult {
  return { outcome: 'misconfigured', responseTimeMs: null, message: clipMessage(`${reason}. Fix: ${fix}.`), ...(details ? { details } : {}) }
}

/** The fix for a refusal by the address guard's rules, by what the instance allows. */
export function refusalFix(error: AddressRefused, allowPrivate: PrivateTargets): string {
  if (error.kind === 'invalid') return FIXES.editTarget
  if (!error.privateRange) return FIXES.neverReached
  return Array.isArray(allowPrivate) ? FIXES.privateOutsideList : FIXES.privateAddress
}

/** True when the guard refused by its rules (not because the name did not resolve: that is the target's DNS). */
export const isConfigurationRefusal = (error: unknown): error is AddressRefused => error instanceof AddressRefused && error.kind !== 'unresolved'

/**
 * The result of an attempt that threw: misconfigured when the address guard's rules refused it
 * (`context` says where, e.g. a redirect hop), otherwise a failure of the target.
 */
export function thrownResult(
  error: unknown,
  signal: AbortSignal,
  timeoutMs: number,
  options: { allowPrivate: PrivateTargets; context?: string; details?: CheckResult['details'] },
): CheckResult {
  const prefix = options.context ? `${options.context}: ` : ''
  if (!signal.aborted && isConfigurationRefusal(error)) return misconfiguredResult(`${prefix}${error.message}`, refusalFix(error, options.allowPrivate), options.details)
  return { outcome: 'fail', responseTimeMs: null, message: clipMessage(`${prefix}${describeFailure(error, signal, timeoutMs)}`), ...(options.details ? { details: options.details } : {}) }
}
