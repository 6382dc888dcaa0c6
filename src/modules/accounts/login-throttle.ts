/**
 * The numbers of login throttling (the mechanism is src/lib/guess-throttle.ts). A client is an
 * IPv4 address or an IPv6 /64.
 *
 * - per email and client: 10 attempts per 15 minutes; the usual guesser stops here, and only that
 *   client is held back, the owner elsewhere logs in as usual;
 * - per client: 30 attempts per 15 minutes over all emails;
 * - per email over all clients: 50 attempts per hour (a guesser rotating addresses gets at most
 *   1 200 guesses a day at one account); clients that logged in to the account in the last 30 days
 *   are exempt, so rotating strangers cannot lock the owner's usual browser out.
 *
 * The password-change form counts its guesses of the current password in the same budgets. The
 * counts are in the database, so they hold across app servers and workers.
 */
import type { Clock } from '../../lib/clock.ts'
import type { AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import { GuessThrottle } from '../../lib/guess-throttle.ts'

export const LOGIN_WINDOW_MS = 15 * 60_000
export const LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT = 10
export const LOGIN_ATTEMPTS_PER_CLIENT = 30
export const LOGIN_EMAIL_WINDOW_MS = 60 * 60_000
export const LOGIN_ATTEMPTS_PER_EMAIL = 50
const KNOWN_CLIENT_MS = 30 * 24 * 3600_000

export const createLoginThrottle = (store: AttemptBudgetStore, clock: Clock): GuessThrottle =>
  new GuessThrottle({
    name: 'login',
    store,
    clock,
    perTargetAndClient: { limit: LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT, windowMs: LOGIN_WINDOW_MS },
    perClient: { limit: LOGIN_ATTEMPTS_PER_CLIENT, windowMs: LOGIN_WINDOW_MS },
    perTarget: { limit: LOGIN_ATTEMPTS_PER_EMAIL, windowMs: LOGIN_EMAIL_WINDOW_MS },
    knownClientMs: KNOWN_CLIENT_MS,
  })
