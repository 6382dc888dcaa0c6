/**
 * Throttling of password guesses against one target (an account's email, a private page's gate)
 * that stops guessing without handing strangers a way to lock the rightful user out. Pure, in
 * memory, on an injected clock. Clients are IPv4 addresses or IPv6 /64s (address-prefix.ts).
 *
 * - per target and client: a small budget; only that client is held back, and a success clears it;
 * - per client over all targets (optional): one client spraying many targets;
 * - per target over all clients: a slower shared budget for guessers who rotate addresses. Clients
 *   that got in to this target recently are exempt from it, so strangers cannot lock out the
 *   rightful user's usual address; anyone else waits at most one window after the guessing stops.
 *
 * Every attempt is counted before the password is checked, so parallel requests cannot slip past;
 * an attempt that turns out right is given back to the shared budgets, never resets them (a
 * success must not hand a guesser fresh attempts). The counters are bounded without forgetting
 * live ones (rate-limit.ts); the memory of known clients is bounded too, and forgetting one only
 * takes away an exemption.
 */
import { clientBudgetKey } from './address-prefix.ts'
import type { Clock } from './clock.ts'
import { RateLimiter } from './rate-limit.ts'

export interface Budget {
  limit: number
  windowMs: number
}

export interface GuessThrottleOptions {
  clock: Clock
  perTargetAndClient: Budget
  perClient?: Budget
  perTarget: Budget
  /** How long a client that got in stays exempt from the per-target budget. */
  knownClientMs: number
  maxKnownClients?: number
}

export type Admission = { ok: false; retryAfterMs: number } | { ok: true; succeeded(): void }

export class GuessThrottle {
  private readonly perPair: RateLimiter
  private readonly perClient: RateLimiter | undefined
  private readonly perTarget: RateLimiter
  /** `target|client` → when it last got in; oldest first. */
  private readonly known = new Map<string, number>()

  constructor(private readonly options: GuessThrottleOptions) {
    const { clock } = options
    this.perPair = new RateLimiter({ ...options.perTargetAndClient, clock })
    this.perClient = options.perClient ? new RateLimiter({ ...options.perClient, clock }) : undefined
    this.perTarget = new RateLimiter({ ...options.perTarget, clock })
  }

  /** One guess at `target` from `client` (an address): counted now, or refused with the wait. */
  admit(target: string, client: string): Admission {
    const clientKey = clientBudgetKey(client)
    const pair = `${target}|${clientKey}`
    const exempt = this.isKnown(pair)
    const wait = Math.max(
      this.perPair.retryAfterMs(pair),
      this.perClient?.retryAfterMs(clientKey) ?? 0,
      exempt ? 0 : this.perTarget.retryAfterMs(target),
    )
    if (wait > 0) return { ok: false, retryAfterMs: wait }
    this.perPair.hit(pair)
    this.perClient?.hit(clientKey)
    if (!exempt) this.perTarget.hit(target)
    return {
      ok: true,
      succeeded: () => {
        this.perPair.reset(pair)
        this.perClient?.refund(clientKey)
        if (!exempt) this.perTarget.refund(target)
        this.remember(pair)
      },
    }
  }

  private isKnown(pair: string): boolean {
    const at = this.known.get(pair)
    return at !== undefined && this.options.clock.now() - at < this.options.knownClientMs
  }

  private remember(pair: string): void {
    this.known.delete(pair)
    this.known.set(pair, this.options.clock.now())
    if (this.known.size > (this.options.maxKnownClients ?? 50_000)) {
      const oldest = this.known.keys().next().value
      if (oldest !== undefined) this.known.delete(oldest)
    }
  }
}
