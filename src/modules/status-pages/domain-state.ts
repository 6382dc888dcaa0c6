/**
 * How a custom domain's state moves with each DNS check (pure). A domain is `pending` until a
 * check finds it reaching this instance; then `verified`. A verified domain that a later check
 * finds missing or pointing elsewhere is `failing` (public links go back to the default address)
 * until it reaches this instance again. A lookup that failed outright changes nothing.
 */
import type { DnsCheck } from './dns-check.ts'
import type { DomainState } from './tables.ts'

export function nextDomainState(current: DomainState, check: DnsCheck): DomainState {
  if (check.state === 'here') return 'verified'
  if (check.state === 'unknown') return current
  return current === 'pending' ? 'pending' : 'failing'
}
