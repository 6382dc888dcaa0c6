/**
 * Password reset by mail. "Forgot password?" mails a link to the account with the address: single
 * use, valid 30 minutes, only the SHA-256 of its token stored. The answer is the same whether the
 * address has an account or not (nothing is mailed without one). Setting the new password spends
 * the link, ends every session of the account and every other link. With mail off there is no
 * link: an administrator sets a password with `lantern user set-password`.
 *
 * Requests are limited per client (10 an hour, 429) and per address (3 mails an hour; more are
 * answered the same and not sent), counted in the database across servers.
 */
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { HttpError } from '../../lib/errors.ts'
import type { PasswordHasher } from '../../lib/password.ts'
import { clientBudgetKey } from '../../lib/address-prefix.ts'
import { AttemptBudget, type AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import { checkPassword, normalizeEmail, TooManyAttempts } from '../accounts/service.ts'
import type { OutboxWriter } from '../notify/contract.ts'
import { resetMail } from './mails.ts'
import type { PasswordResetsRepo } from './repo.ts'

export const RESET_TTL_MS = 30 * 60_000
/** Spent and lapsed links are kept a day (for nothing but a support question), then swept. */
const KEEP_MS = 24 * 3600_000
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

export const RESET_REQUESTS_PER_CLIENT = 10
export const RESET_MAILS_PER_ADDRESS = 3
const WINDOW_MS = 60 * 60_000

/** A link that cannot be used: never issued, spent, replaced or lapsed (one answer for all). */
export const deadLink = (): HttpError => new HttpError(410, 'this reset link has expired or was already used')

export interface PasswordResetsDeps {
  repo: PasswordResetsRepo
  outbox: OutboxWriter
  passwords: PasswordHasher
  clock: Clock
  attemptBudgets: AttemptBudgetStore
  baseUrl: string
}

export class PasswordResetsService {
  private readonly perClient: AttemptBudget
  private readonly perAddress: AttemptBudget

  constructor(private readonly deps: PasswordResetsDeps) {
    const { clock, attemptBudgets: store } = deps
    this.perClient = new AttemptBudget({ name: 'reset-client', budget: { limit: RESET_REQUESTS_PER_CLIENT, windowMs: WINDOW_MS }, store, clock })
    this.perAddress = new AttemptBudget({ name: 'reset-address', budget: { limit: RESET_MAILS_PER_ADDRESS, windowMs: WINDOW_MS }, store, clock })
  }

  /** False when mail is off: then there are no links and the login screen points to an administrator. */
  get available(): boolean {
    return this.deps.outbox.mailEnabled
  }

  link(token: string): string {
    return `${this.deps.baseUrl}/user/password-reset/${token}`
  }

  /**
   * Asks for a link to `rawEmail` from `client`. Resolves the same way whether or not an account
   * has the address; throws 400 for a malformed address, 429 past the client's budget, 404 with mail off.
   */
  async request(rawEmail: string, client: string): Promise<void> {
    if (!this.available) throw new HttpError(404, 'password reset by mail is off: ask an administrator')
    const email = normalizeEmail(rawEmail)
    const wait = await this.perClient.take(clientBudgetKey(client))
    if (wait > 0) throw new TooManyAttempts(Math.ceil(wait / 1000))
    const user = await this.deps.repo.findUserByEmail(email)
    if (!user) return
    if ((await this.perAddress.take(email)) > 0) return
    const token = randomToken(32)
    const now = this.deps.clock.now()
    const expiresAt = now + RESET_TTL_MS
    await this.deps.repo.db.transaction().execute(async (trx) => {
      await this.deps.repo.replaceLink(trx, { userId: user.id, tokenHash: await sha256Hex(token), now, expiresAt })
      await this.deps.outbox.enqueue(trx, [{ target: `account:${user.id}`, mail: resetMail(user.email, this.link(token), expiresAt) }])
    })
  }

  /** The address of a live link (for the form), or undefined. */
  async check(token: string): Promise<{ email: string } | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined
    const hash = await sha256Hex(token)
    const row = await this.deps.repo.findLive(hash, this.deps.clock.now())
    if (!row || !constantTimeEqual(hash, row.token_hash)) return undefined
    return { email: row.email }
  }

  /**
   * Sets the new password with a live link: the link is spent, every session of the account ends.
   * A bad password is 400 and leaves the link live; a dead link is 410 and changes nothing.
   */
  async complete(token: string, newPassword: string): Promise<{ email: string }> {
    const live = await this.check(token)
    if (!live) throw deadLink()
    checkPassword(newPassword)
    const hash = await this.deps.passwords.hash(newPassword)
    // Spent only now, after the slow hash: a parallel request with the same link finds it spent.
    const done = await this.deps.repo.spendAndSetPassword(await sha256Hex(token), hash, this.deps.clock.now())
    if (!done) throw deadLink()
    return live
  }

  /** Removes links that lapsed more than a day ago, a batch at a time. */
  sweep(): Promise<void> {
    return this.deps.repo.sweep(this.deps.clock.now() - KEEP_MS)
  }
}
