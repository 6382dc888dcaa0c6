/**
 * Login throttling that stops password guessing without handing strangers a way to lock an owner
 * out (pure, in memory, injected clock). Three budgets, all counted before the password is checked
 * (so parallel requests cannot slip past), per client meaning an IPv4 address or an IPv6 /64:
 *
 * - per email and client: 10 attempts per 15 minutes. The usual guesser stops here, and only
 *   that client is held back: the owner elsewhere logs in as usual. A success clears it.
 * - per client: 30 attempts per 15 minutes over all emails (one client spraying many accounts).
 * - per email, over all clients: 50 attempts per hour (a guesser rotating addresses: at most
 *   1 200 guesses a day against one account). Clients that logged in to the account in the last
 *   30 days are exempt from this one, so rotating strangers cannot lock the owner's usual browser
 *   out; anyone else waits at most one hour after the guessing stops.
 *
 * An attempt that turns out right is given back to the shared budgets, and never resets them: an
 * owner's login must not hand a guesser fresh attempts. The counters are bounded without
 * forgetting live ones (src/lib/rate-limit.ts); the memory of known clients is bounded too, and
 * forgetting one only takes away an exemption.
 */
import { clientBudgetKey } from '../../lib/address-prefix.ts'
import type { Clock } from '../../lib/clock.ts'
import { RateLimiter } from '../../lib/rate-limit.ts'

export const LOGIN_WINDOW_MS = 15 * 60_000
export const LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT = 10
export const LOGIN_ATTEMPTS_PER_CLIENT = 30
export const LOGIN_EMAIL_WINDOW_MS = 60 * 60_000
export const LOGIN_ATTEMPTS_PER_EMAIL = 50
export const KNOWN_CLIENT_MS = 30 * 24 * 3600_000
const MAX_KNOWN_CLIENTS = 50_000

export type Admission = { ok: false; retryAfterMs: number } | { ok: true; succeeded(): void }

export class LoginThrottle {
  private readonly perPair: RateLimiter
  private readonly perClient: RateLimiter
  private readonly perEmail: RateLimiter
  /** `email|client` → when it last logged in; oldest first. */
  private readonly known = new Map<string, number>()

  constructor(private readonly clock: Clock) {
    this.perPair = new RateLimiter({ limit: LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT, windowMs: LOGIN_WINDOW_MS, clock })
    this.perClient = new RateLimiter({ limit: LOGIN_ATTEMPTS_PER_CLIENT, windowMs: LOGIN_WINDOW_MS, clock })
    this.perEmail = new RateLimiter({ limit: LOGIN_ATTEMPTS_PER_EMAIL, windowMs: LOGIN_EMAIL_WINDOW_MS, clock })
  }

  /** One attempt for `email` from `client` (an address): counted now, or refused with the wait. */
  admit(email: string, client: string): Admission {
    const clientKey = clientBudgetKey(client)
    const pair = `${email}|${clientKey}`
    const exempt = this.isKnown(pair)
    const wait = Math.max(
      this.perPair.retryAfterMs(pair),
      this.perClient.retryAfterMs(clientKey),
      exempt ? 0 : this.perEmail.retryAfterMs(email),
    )
    if (wait > 0) return { ok: false, retryAfterMs: wait }
    this.perPair.hit(pair)
    this.perClient.hit(clientKey)
    if (!exempt) this.perEmail.hit(email)
    return {
      ok: true,
      succeeded: () => {
        this.perPair.reset(pair)
        this.perClient.refund(clientKey)
        if (!exempt) this.perEmail.refund(email)
        this.remember(pair)
      },
    }
  }

  private isKnown(pair: string): boolean {
    const at = this.known.get(pair)
    return at !== undefined && this.clock.now() - at < KNOWN_CLIENT_MS
  }

  private remember(pair: string): void {
    this.known.delete(pair)
    this.known.set(pair, this.clock.now())
    if (this.known.size > MAX_KNOWN_CLIENTS) {
      const oldest = this.known.keys().next().value
      if (oldest !== undefined) this.known.delete(oldest)
    }
  }
}
