/**
 * Two-factor sign-in with an authenticator app (TOTP, src/lib/totp.ts) and ten single-use recovery
 * codes. Enrolment: a new secret shown as a QR code (SVG, drawn on the server) and as text, then
 * confirmed with a code; only then is it required, and the recovery codes are shown once (stored as
 * SHA-256). Sign-in: a right password with two-factor on starts a challenge (10 minutes) instead of
 * a session; a code of the app (never one used before) or an unused recovery code ends it with a
 * session (or a passkey does: modules/passkeys). Guesses of codes are counted like passwords, in the
 * database across servers. API keys are not subject to two-factor.
 */
import type { Clock } from '../../lib/clock.ts'
import { base32Encode, matchTotp, newTotpSecret, otpauthUri } from '../../lib/totp.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, conflict, HttpError, notFound } from '../../lib/errors.ts'
import type { AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import { GuessThrottle } from '../../lib/guess-throttle.ts'
import { LOGIN_ATTEMPTS_PER_CLIENT, LOGIN_ATTEMPTS_PER_EMAIL, LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT, LOGIN_EMAIL_WINDOW_MS, LOGIN_WINDOW_MS, TooManyAttempts, type AccountsService, type User } from '../accounts/service.ts'
import type { TwoFactorRepo } from './repo.ts'

export const CHALLENGE_TTL_MS = 10 * 60_000
export const RECOVERY_CODE_COUNT = 10
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/
const RECOVERY_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/

export interface Enrolment {
  secret: string
  uri: string
  /** The QR code of `uri`, an SVG document drawn on the server. */
  qrSvg: string
}

export interface TwoFactorDeps {
  repo: TwoFactorRepo
  accounts: AccountsService
  clock: Clock
  attemptBudgets: AttemptBudgetStore
  issuer: string
}

/** A wrong code: the challenge stays, the guess is counted. */
export const wrongCode = (): HttpError => new HttpError(401, 'code is wrong or was used already')
/** A challenge that is over (expired, used, unknown): sign in again. */
export const deadChallenge = (): HttpError => new HttpError(410, 'this sign-in has expired: log in again')

const recoveryHash = (code: string) => sha256Hex(code.trim().toLowerCase().replace('-', ''))

function newRecoveryCode(): string {
  const text = base32Encode(crypto.getRandomValues(new Uint8Array(7))).toLowerCase().slice(0, 10)
  return `${text.slice(0, 5)}-${text.slice(5)}`
}

/**
 * The budgets of second-factor guesses, keyed `user:<id>`, with the login's limits. Every throttle
 * made here shares its counts in the store (same name, same keys): a wrong code and a failed
 * passkey (modules/passkeys) spend the same budget, on every server.
 */
export function secondFactorGuesses(store: AttemptBudgetStore, clock: Clock): GuessThrottle {
  return new GuessThrottle({
    name: 'two-factor',
    store,
    clock,
    perTargetAndClient: { limit: LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT, windowMs: LOGIN_WINDOW_MS },
    perClient: { limit: LOGIN_ATTEMPTS_PER_CLIENT, windowMs: LOGIN_WINDOW_MS },
    perTarget: { limit: LOGIN_ATTEMPTS_PER_EMAIL, windowMs: LOGIN_EMAIL_WINDOW_MS },
    knownClientMs: 30 * 24 * 3600_000,
  })
}

export class TwoFactorService {
  private readonly guesses: GuessThrottle

  constructor(private readonly deps: TwoFactorDeps) {
    this.guesses = secondFactorGuesses(deps.attemptBudgets, deps.clock)
  }

  async status(userId: number): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const factor = await this.deps.repo.findFactor(userId)
    const enabled = factor?.confirmed_at != null
    return { enabled, recoveryCodesLeft: enabled ? await this.deps.repo.unusedRecoveryCodes(userId) : 0 }
  }

  async isEnabled(userId: number): Promise<boolean> {
    return (await this.deps.repo.findFactor(userId))?.confirmed_at != null
  }

  /** A new secret to scan (replacing an unconfirmed one); 409 while two-factor is on. */
  async beginEnrolment(user: Pick<User, 'id' | 'email'>): Promise<Enrolment> {
    const secret = newTotpSecret()
    if (!(await this.deps.repo.replaceUnconfirmed(user.id, secret, this.deps.clock.now()))) throw conflict('two-factor is on already: turn it off first')
    return this.enrolment(user, secret)
  }

  /** The unconfirmed secret being enrolled, to show again; undefined when none. */
  async pendingEnrolment(user: Pick<User, 'id' | 'email'>): Promise<Enrolment | undefined> {
    const factor = await this.deps.repo.findFactor(user.id)
    return factor && factor.confirmed_at === null ? this.enrolment(user, factor.secret) : undefined
  }

  private async enrolment(user: Pick<User, 'id' | 'email'>, secret: string): Promise<Enrolment> {
    const uri = otpauthUri(secret, user.email, this.deps.issuer)
    // Loaded on the first enrolment, not at start (the QR writer and its PNG encoder are 60 files).
    const { default: QRCode } = await import('qrcode')
    const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' })
    return { secret, uri, qrSvg }
  }

  /** Confirms the enrolment with a code of the app; returns the ten recovery codes (shown this once). */
  async confirmEnrolment(user: Pick<User, 'id' | 'email'>, code: string, client: string): Promise<string[]> {
    const factor = await this.deps.repo.findFactor(user.id)
    if (!factor || factor.confirmed_at !== null) throw notFound('no enrolment is waiting: start again')
    const attempt = await this.guesses.admit(`user:${user.id}`, client)
    if (!attempt.ok) throw new TooManyAttempts(Math.ceil(attempt.retryAfterMs / 1000))
    const step = await matchTotp(factor.secret, code, this.deps.clock.now(), factor.last_step)
    if (step === undefined) throw badRequest('code is wrong: type the 6 digits the app shows now')
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
    if (!(await this.deps.repo.confirm(user.id, step, await Promise.all(codes.map(recoveryHash)), this.deps.clock.now()))) {
      throw badRequest('code is wrong: type the 6 digits the app shows now')
    }
    await attempt.succeeded()
    return codes
  }

  /** Turns two-factor off after the password is confirmed (counted like a login guess). */
  async disable(user: Pick<User, 'id' | 'email'>, password: string, client: string): Promise<void> {
    await this.deps.accounts.confirmPassword(user.id, password, client)
    await this.deps.repo.removeAll(user.id)
  }

  /** The administrator's way out for a user who lost the phone and the recovery codes (the CLI). */
  turnOffByAdministrator(userId: number): Promise<void> {
    return this.deps.repo.removeAll(userId)
  }

  /** After a right password with two-factor on: the token the browser keeps until the code. */
  async startChallenge(userId: number): Promise<string> {
    const token = randomToken(32)
    const now = this.deps.clock.now()
    await this.deps.repo.insertChallenge(userId, await sha256Hex(token), now, now + CHALLENGE_TTL_MS)
    return token
  }

  /** The user a live challenge signs in (undefined: expired, used or unknown). */
  async challengeUser(token: string): Promise<number | undefined> {
    return (await this.liveChallenge(token))?.user_id
  }

  /**
   * Ends a live challenge whose second factor was proven elsewhere (a passkey): the user to start
   * a session for, once; a dead challenge (expired, used, or ended by a parallel request): 410.
   */
  async endChallenge(token: string): Promise<number> {
    const challenge = await this.liveChallenge(token)
    if (!challenge || !(await this.deps.repo.deleteChallenge(challenge.id))) throw deadChallenge()
    return challenge.user_id
  }

  /** True while `token` is a live challenge. */
  async challengeLive(token: string): Promise<boolean> {
    return (await this.liveChallenge(token)) !== undefined
  }

  private async liveChallenge(token: string) {
    if (!TOKEN_PATTERN.test(token)) return undefined
    const hash = await sha256Hex(token)
    const row = await this.deps.repo.findChallenge(hash, this.deps.clock.now())
    return row && constantTimeEqual(hash, row.token_hash) ? row : undefined
  }

  /**
   * Ends a challenge with a code of the app or an unused recovery code: the user to start a session
   * for. Wrong or replayed: 401 (counted); too many guesses: 429; a dead challenge: 410.
   */
  async completeChallenge(token: string, code: string, client: string): Promise<{ userId: number; usedRecoveryCode: boolean }> {
    const challenge = await this.liveChallenge(token)
    if (!challenge) throw deadChallenge()
    const userId = challenge.user_id
    const attempt = await this.guesses.admit(`user:${userId}`, client)
    if (!attempt.ok) throw new TooManyAttempts(Math.ceil(attempt.retryAfterMs / 1000))
    const typed = code.trim().toLowerCase()
    let ok = false
    let usedRecoveryCode = false
    if (RECOVERY_PATTERN.test(typed)) {
      ok = await this.deps.repo.useRecoveryCode(userId, await recoveryHash(typed), this.deps.clock.now())
      usedRecoveryCode = ok
    } else {
      const factor = await this.deps.repo.findFactor(userId)
      const step = factor?.confirmed_at != null ? await matchTotp(factor.secret, typed, this.deps.clock.now(), factor.last_step) : undefined
      ok = step !== undefined && (await this.deps.repo.useStep(userId, step))
    }
    if (!ok) throw wrongCode()
    await attempt.succeeded()
    if (!(await this.deps.repo.deleteChallenge(challenge.id))) throw deadChallenge()
    return { userId, usedRecoveryCode }
  }
}
