/**
 * Throttling of password guesses against one target (an account's email, a private page's gate)
 * that stops guessing without handing strangers a way to lock the rightful user out. The counts
 * live in a store every app server shares (the database: src/modules/attempt-budgets/repo.ts), so two
 * servers, or WORKERS=N, give a guesser the budget of one. Fixed windows on an injected clock.
 * Clients are IPv4 addresses or IPv6 /64s (address-prefix.ts).
 *
 * - per target and client: a small budget; only that client is held back, and a success clears it;
 * - per client over all targets (optional): one client spraying many targets;
 * - per target over all clients: a slower shared budget for guessers who rotate addresses. Clients
 *   that got in to this target recently are exempt from it, so strangers cannot lock out the
 *   rightful user's usual address; anyone else waits at most one window after the guessing stops.
 *
 * Every attempt is counted before the password is checked, in all its budgets at once or in none
 * (a refused attempt uses up nothing), so parallel requests cannot slip past; an attempt that turns
 * out right is given back to the shared budgets, never resets them (a success must not hand a
 * guesser fresh attempts). Keys are stored as SHA-256 hashes: no emails or addresses at rest.
 */
import { clientBudgetKey } from './address-prefix.ts'
import { budgetKey, type AttemptBudgetStore, type Budget, type BudgetCount } from './attempt-budget.ts'
import type { Clock } from './clock.ts'

export interface GuessThrottleOptions {
  /** Keeps this throttle's keys apart from other throttles' in the shared store ('login', 'gate'). */
  name: string
  store: AttemptBudgetStore
  clock: Clock
  perTargetAndClient: Budget
  perClient?: Budget
  perTarget: Budget
  /** How long a client that got in stays exempt from the per-target budget. */
  knownClientMs: number
}

export type Admission = { ok: false; retryAfterMs: number } | { ok: true; succeeded(): Promise<void> }

export class GuessThrottle {
  constructor(private readonly options: GuessThrottleOptions) {}

  /** One guess at `target` from `client` (an address): counted now, or refused with the wait. */
  async admit(target: string, client: string): Promise<Admission> {
    const { store, clock, name } = this.options
    const now = clock.now()
    const clientKey = clientBudgetKey(client)
    const [pair, perClient, perTarget] = await Promise.all([
      budgetKey(name, 'pair', target, clientKey),
      budgetKey(name, 'client', clientKey),
      budgetKey(name, 'target', target),
    ])
    const exempt = await store.isKnown(pair, now)
    const budgets: BudgetCount[] = [{ key: pair, ...this.options.perTargetAndClient }]
    if (this.options.perClient) budgets.push({ key: perClient, ...this.options.perClient })
    if (!exempt) budgets.push({ key: perTarget, ...this.options.perTarget })
    const wait = await store.take(budgets, now)
    if (wait > 0) return { ok: false, retryAfterMs: wait }
    return {
      ok: true,
      succeeded: () =>
        store.succeeded({
          reset: [pair],
          refund: budgets.filter((budget) => budget.key !== pair).map((budget) => budget.key),
          known: pair,
          knownUntil: clock.now() + this.options.knownClientMs,
          now: clock.now(),
        }),
    }
  }
}
