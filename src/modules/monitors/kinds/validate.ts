/**
 * The field checks every kind's validate uses, and the checks every spec shares (timeout, degraded
 * threshold). Shape is the route schema's job; every problem here comes back with its field, so a
 * bad monitor is a 400 that names what to fix. Pure.
 */
import type { AddressGuard } from '../../../lib/address-guard.ts'
import { DEFAULTS } from './spec.ts'

export interface SpecProblem {
  field: string
  message: string
  /** For conditions: which one and the 0-based offset of the fault. */
  index?: number
  position?: number
}

export const MAX_REQUEST_BODY = 64 * 1024
export const MAX_HEADERS = 32
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/
export const DNS_NAME = /^(?=.{1,253}\.?$)(?:(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.)*(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\.?$/
export const RESOLVER_FORMAT = 'must be an IP address with an optional port, e.g. 9.9.9.9 or [2620:fe::fe]:53'

/** A list of problems and the checks that add to it. */
export function fieldChecks(guard: AddressGuard) {
  const problems: SpecProblem[] = []
  const problem = (field: string, message: string) => problems.push({ field, message })
  /** A literal address or metadata name the guard refuses. */
  const host = (field: string, value: string) => {
    const refusal = guard.refusesLiteral(value)
    if (refusal) problem(field, refusal)
  }
  const port = (field: string, value: number | undefined) => {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 65535)) problem(field, 'port must be from 1 to 65535')
  }
  return { problems, problem, host, port }
}

/** What every spec is checked for before its kind's own checks. */
export function commonProblems(spec: { timeoutMs: number; degradedAfterMs?: number | null }): SpecProblem[] {
  const problems: SpecProblem[] = []
  if (!Number.isInteger(spec.timeoutMs) || spec.timeoutMs < 100 || spec.timeoutMs > DEFAULTS.maxTimeoutMs) {
    problems.push({ field: 'timeoutMs', message: `timeout must be from 100 to ${DEFAULTS.maxTimeoutMs} ms` })
  }
  if (spec.degradedAfterMs != null && (!Number.isInteger(spec.degradedAfterMs) || spec.degradedAfterMs < 1 || spec.degradedAfterMs >= spec.timeoutMs)) {
    problems.push({ field: 'degradedAfterMs', message: 'the degraded threshold must be a whole number of ms below the timeout' })
  }
  return problems
}

/** The days-left thresholds of tls and ssl checks: 0 to 365, the failing one not above the warning one. */
export function daysProblems(
  check: ReturnType<typeof fieldChecks>,
  warnField: string,
  warn: number | undefined,
  fail: number | undefined,
  aboveMessage: string,
): void {
  for (const [field, value] of [[warnField, warn], ['failBelowDays', fail]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > 365)) check.problem(field, 'must be 0 to 365 days')
  }
  if ((fail ?? DEFAULTS.tlsFailBelowDays) > (warn ?? DEFAULTS.tlsDegradedBelowDays)) check.problem('failBelowDays', aboveMessage)
}
