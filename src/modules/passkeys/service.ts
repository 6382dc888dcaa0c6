/**
 * Passkeys (WebAuthn credentials), as a second factor after the password and as a password-free
 * sign-in. The ceremonies' cryptography (attestation on adding, the assertion's signature, origin,
 * relying-party id, flags and counter) is @simplewebauthn/server's, loaded on the first ceremony
 * (webAuthn below); this service keeps the rules:
 *
 * - every ceremony has its own random challenge, stored in the database (so a ceremony begun on one
 *   server ends on another), valid 5 minutes and spent by its first answer, right or wrong;
 * - a password-free sign-in's challenge is bound to the browser that asked for it: the options
 *   come with a random value for that browser's cookie, the challenge keeps only its hash, and an
 *   answer is taken only with that cookie (an answer carried to another browser signs no one in).
 *   Asking for these options is throttled per client address (they write a row each);
 * - the relying party is the service host (BASE_URL): its host name is the rp id, its origin the
 *   only origin accepted;
 * - adding asks for a discoverable credential (the password-free sign-in finds the account from the
 *   passkey alone); signing in without a password requires user verification (the device's PIN or
 *   biometrics: the passkey is then both factors), the second step after the password does not;
 * - a failed assertion is counted in the two-factor budgets (two-factor/service.ts
 *   secondFactorGuesses), the same as a wrong code;
 * - a passkey is a second factor. Removing the last one is allowed even where a team requires
 *   two-factor, as turning the app off is: the member is then sent to enrol (accounts/auth.ts
 *   lacksRequiredTwoFactor), and replacing a lost or old device starts with removing it.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server'
import { isUniqueViolationOn } from '../../db/errors.ts'
import { clientBudgetKey } from '../../lib/address-prefix.ts'
import { AttemptBudget, type AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import type { Clock } from '../../lib/clock.ts'
import { base64url, constantTimeEqual, fromBase64url, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, conflict, HttpError, notFound } from '../../lib/errors.ts'
import type { GuessThrottle } from '../../lib/guess-throttle.ts'
import { parseText } from '../../lib/text.ts'
import { TooManyAttempts } from '../accounts/service.ts'
import { secondFactorGuesses } from '../two-factor/service.ts'
import type { ChallengePurpose, PasskeysRepo } from './repo.ts'
import { CEREMONY_TTL_MS, PASSKEY_NAME_MAX, PASSKEYS_PER_USER, type Passkey } from './types.ts'

export interface PasskeysDeps {
  repo: PasskeysRepo
  clock: Clock
  attemptBudgets: AttemptBudgetStore
  /** The service's public base URL (BASE_URL): the relying party. */
  baseUrl: string
}

/** A passkey that did not prove anything: unknown here, not the user's, a bad signature, an old challenge. */
export const passkeyRefused = (): HttpError => new HttpError(401, 'the passkey was not accepted: try again, or use another way to sign in')

const TIMEOUT_MS = 60_000

type WebAuthn = typeof import('@simplewebauthn/server')
let webAuthnModule: Promise<WebAuthn> | undefined
/**
 * @simplewebauthn/server, loaded on the first ceremony and kept: with its ASN.1 (@peculiar/*) and
 * CBOR libraries it is 300 modules and some MiB of an idle server (test/bench/README.md), and most
 * servers never see a passkey.
 */
const webAuthn = (): Promise<WebAuthn> => (webAuthnModule ??= import('@simplewebauthn/server'))

/** COSE algorithm ids (IANA's registry), named here so that naming them loads nothing. */
const COSE_EDDSA = -8
const COSE_ES256 = -7
const COSE_RS256 = -257

/**
 * Password-free sign-ins begun per client address (IPv4, or IPv6 /64) and window: far above what a
 * person clicks, low enough that one client cannot fill the challenge table. In the database's
 * attempt budgets, so the figure holds across servers and workers.
 */
export const SIGN_IN_OPTIONS_PER_CLIENT = 30
export const SIGN_IN_OPTIONS_WINDOW_MS = 10 * 60_000

/** Too many password-free sign-ins begun from one client: 429 with the wait. */
export class TooManySignIns extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
    super(429, `too many passkey sign-ins from this address: try again in ${minutes} minute${minutes === 1 ? '' : 's'}`)
  }
}

/** A password-free sign-in's options, and the value the asking browser must keep (its cookie). */
export interface SignInCeremony {
  options: PublicKeyCredentialRequestOptionsJSON
  browserToken: string
}

/**
 * The key types a passkey may have, named here rather than left to the library: its default adds
 * ML-DSA-44 when the runtime's WebCrypto has it, so a Bun upgrade would change what gets stored,
 * and ML-DSA signatures (2.4 kB) exceed what model.ts accepts.
 */
const ALGORITHMS = [COSE_EDDSA, COSE_ES256, COSE_RS256]

/** The user handle of `userId`'s passkeys: names the account, not the person (its id, no email). */
const userHandle = (userId: number): Uint8Array<ArrayBuffer> => new TextEncoder().encode(`lantern-user-${userId}`)

/** The challenge the browser's answer carries (clientDataJSON), to find its ceremony; 400 if unreadable. */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(new TextDecoder().decode(fromBase64url(clientDataJSON)))
    if (typeof data?.challenge === 'string' && /^[A-Za-z0-9_-]{16,200}$/.test(data.challenge)) return data.challenge
  } catch {
    // falls through to the 400
  }
  throw badRequest('the passkey answer is not readable: try again')
}

const passkeyOf = (row: { id: number; name: string; created_at: number; last_used_at: number | null; transports: string }): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  transports: row.transports === '' ? [] : row.transports.split(','),
})

const KNOWN_TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])

export class PasskeysService {
  readonly rpId: string
  readonly origin: string
  private readonly rpName: string
  private readonly guesses: GuessThrottle
  private readonly signInsBegun: AttemptBudget

  constructor(private readonly deps: PasskeysDeps) {
    const url = new URL(deps.baseUrl)
    this.rpId = url.hostname
    this.origin = url.origin
    this.rpName = `Lantern (${url.host})`
    this.guesses = secondFactorGuesses(deps.attemptBudgets, deps.clock)
    this.signInsBegun = new AttemptBudget({
      name: 'passkey-sign-in-options',
      budget: { limit: SIGN_IN_OPTIONS_PER_CLIENT, windowMs: SIGN_IN_OPTIONS_WINDOW_MS },
      store: deps.attemptBudgets,
      clock: deps.clock,
    })
  }

  async list(userId: number): Promise<Passkey[]> {
    return (await this.deps.repo.list(userId)).map(passkeyOf)
  }

  async has(userId: number): Promise<boolean> {
    return (await this.deps.repo.count(userId)) > 0
  }

  /** What `navigator.credentials.create` needs to add a passkey to the account. */
  async registrationOptions(user: { id: number; email: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.deps.repo.list(user.id)
    if (existing.length >= PASSKEYS_PER_USER) throw conflict(`an account has at most ${PASSKEYS_PER_USER} passkeys: remove one first`)
    const options = await (await webAuthn()).generateRegistrationOptions({
      rpName: this.rpName,
      rpID: this.rpId,
      userName: user.email,
      userDisplayName: user.email,
      userID: userHandle(user.id),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      supportedAlgorithmIDs: ALGORITHMS,
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    })
    await this.saveChallenge(options.challenge, 'register', user.id)
    return options
  }

  /** Verifies the browser's answer to `registrationOptions` and keeps the passkey under `rawName`. */
  async register(userId: number, response: RegistrationResponseJSON, rawName: string): Promise<Passkey> {
    const name = parseText('name', rawName, { max: PASSKEY_NAME_MAX })
    const challenge = challengeOf(response.response.clientDataJSON)
    const ceremony = await this.deps.repo.takeChallenge(challenge, 'register', this.deps.clock.now())
    if (!ceremony || ceremony.user_id !== userId) throw badRequest('this request to add a passkey has expired: start again')
    if ((await this.deps.repo.count(userId)) >= PASSKEYS_PER_USER) throw conflict(`an account has at most ${PASSKEYS_PER_USER} passkeys: remove one first`)
    const { verifyRegistrationResponse } = await webAuthn()
    let verified: VerifiedRegistrationResponse
    try {
      verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: this.origin, expectedRPID: this.rpId, requireUserVerification: false, supportedAlgorithmIDs: ALGORITHMS })
    } catch {
      throw badRequest('the passkey could not be verified: try again')
    }
    if (!verified.verified) throw badRequest('the passkey could not be verified: try again')
    const { credential } = verified.registrationInfo
    // The id stored is the attested one; it must be the id the answer claims (which model.ts bounds).
    if (credential.id !== response.id) throw badRequest('the passkey could not be verified: try again')
    if (await this.deps.repo.findByCredential(credential.id)) throw conflict('this passkey is added already')
    const transports = (credential.transports ?? []).filter((transport) => KNOWN_TRANSPORTS.has(transport)).join(',')
    const now = this.deps.clock.now()
    let id: number
    try {
      id = await this.deps.repo.insert({ userId, credentialId: credential.id, publicKey: base64url(credential.publicKey), signCount: credential.counter, transports, name, now })
    } catch (error) {
      // Two answers with the same credential at once: the second loses the race on the unique id.
      if (isUniqueViolationOn(error, 'passkeys', 'credential_id')) throw conflict('this passkey is added already')
      throw error
    }
    return { id, name, createdAt: now, lastUsedAt: null, transports: transports === '' ? [] : transports.split(',') }
  }

  /**
   * What `navigator.credentials.get` needs for a password-free sign-in (any passkey of this site),
   * and the browser's value for its cookie (only its hash is stored). Too many from `client`: 429.
   */
  async signInOptions(client: string): Promise<SignInCeremony> {
    const wait = await this.signInsBegun.take(clientBudgetKey(client))
    if (wait > 0) throw new TooManySignIns(Math.ceil(wait / 1000))
    const options = await (await webAuthn()).generateAuthenticationOptions({ rpID: this.rpId, timeout: TIMEOUT_MS, userVerification: 'required' })
    const browserToken = randomToken(32)
    await this.saveChallenge(options.challenge, 'sign-in', null, await sha256Hex(browserToken))
    return { options, browserToken }
  }

  /**
   * A password-free sign-in: the user the passkey names, once its signature, its user verification
   * and its challenge check out, the challenge asked for by this browser (`browserToken`, its
   * cookie). Refused: 401 (counted); too many: 429; unreadable: 400.
   */
  async signIn(response: AuthenticationResponseJSON, client: string, browserToken: string | undefined): Promise<number> {
    const challenge = challengeOf(response.response.clientDataJSON)
    const passkey = await this.deps.repo.findByCredential(response.id)
    const attempt = await this.guesses.admit(passkey ? `user:${passkey.user_id}` : 'passkey:unknown', client)
    if (!attempt.ok) throw new TooManyAttempts(Math.ceil(attempt.retryAfterMs / 1000))
    // Spent whichever browser answers: an answer carried elsewhere also ends the ceremony it was for.
    const ceremony = await this.deps.repo.takeChallenge(challenge, 'sign-in', this.deps.clock.now())
    if (!ceremony || !passkey) throw passkeyRefused()
    if (ceremony.browser_hash === null || !constantTimeEqual(ceremony.browser_hash, await sha256Hex(browserToken ?? ''))) throw passkeyRefused()
    // A discoverable credential carries its user handle: it must name the passkey's own account.
    if (response.response.userHandle !== undefined && response.response.userHandle !== base64url(userHandle(passkey.user_id))) throw passkeyRefused()
    await this.verifyAssertion(passkey, response, challenge, true)
    await attempt.succeeded()
    return passkey.user_id
  }

  /** What `navigator.credentials.get` needs for the second step of a sign-in whose password was right. */
  async secondFactorOptions(userId: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const passkeys = await this.deps.repo.list(userId)
    if (passkeys.length === 0) throw notFound('this account has no passkey')
    const options = await (await webAuthn()).generateAuthenticationOptions({
      rpID: this.rpId,
      timeout: TIMEOUT_MS,
      userVerification: 'preferred',
      allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
    })
    await this.saveChallenge(options.challenge, 'second-factor', userId)
    return options
  }

  /** The second step with a passkey of `userId`: resolves when it proves them; 401 (counted), 429, 400. */
  async verifySecondFactor(userId: number, response: AuthenticationResponseJSON, client: string): Promise<void> {
    const challenge = challengeOf(response.response.clientDataJSON)
    const attempt = await this.guesses.admit(`user:${userId}`, client)
    if (!attempt.ok) throw new TooManyAttempts(Math.ceil(attempt.retryAfterMs / 1000))
    const ceremony = await this.deps.repo.takeChallenge(challenge, 'second-factor', this.deps.clock.now())
    const passkey = await this.deps.repo.findByCredential(response.id)
    if (!ceremony || ceremony.user_id !== userId || !passkey || passkey.user_id !== userId) throw passkeyRefused()
    await this.verifyAssertion(passkey, response, challenge, false)
    await attempt.succeeded()
  }

  private async verifyAssertion(
    passkey: { id: number; credential_id: string; public_key: string; sign_count: number; transports: string },
    response: AuthenticationResponseJSON,
    challenge: string,
    requireUserVerification: boolean,
  ): Promise<void> {
    const { verifyAuthenticationResponse } = await webAuthn()
    let result: VerifiedAuthenticationResponse
    const seen = Number(passkey.sign_count)
    try {
      result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        credential: { id: passkey.credential_id, publicKey: fromBase64url(passkey.public_key), counter: seen, transports: transportsOf(passkey.transports) },
        requireUserVerification,
      })
    } catch {
      throw passkeyRefused()
    }
    if (!result.verified) throw passkeyRefused()
    if (!(await this.deps.repo.markUsed(passkey.id, seen, result.authenticationInfo.newCounter, this.deps.clock.now()))) throw passkeyRefused()
  }

  async rename(userId: number, id: number, rawName: string): Promise<Passkey> {
    const name = parseText('name', rawName, { max: PASSKEY_NAME_MAX })
    if (!(await this.deps.repo.rename(userId, id, name))) throw notFound()
    return passkeyOf((await this.deps.repo.find(userId, id))!)
  }

  /** The passkey, for the removal's confirmation (404 for another user's id). */
  async get(userId: number, id: number): Promise<Passkey> {
    const row = await this.deps.repo.find(userId, id)
    if (!row) throw notFound()
    return passkeyOf(row)
  }

  /** Removes one of the user's passkeys (404 for another user's id). */
  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.deps.repo.remove(userId, id))) throw notFound()
  }

  /** The administrator's way out for a user who lost every device (the CLI's `user reset-two-factor`). */
  removeAllByAdministrator(userId: number): Promise<void> {
    return this.deps.repo.removeAll(userId)
  }

  private async saveChallenge(challenge: string, purpose: ChallengePurpose, userId: number | null, browserHash: string | null = null): Promise<void> {
    const now = this.deps.clock.now()
    await this.deps.repo.insertChallenge(challenge, purpose, userId, now, now + CEREMONY_TTL_MS, browserHash)
  }
}

function transportsOf(stored: string): AuthenticatorTransport[] | undefined {
  return stored === '' ? undefined : (stored.split(',') as AuthenticatorTransport[])
}
