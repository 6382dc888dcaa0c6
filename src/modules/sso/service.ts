/**
 * Single sign-on with OpenID Connect: the authorization code flow with PKCE against the one
 * provider the instance is configured with (OIDC_* settings), through `openid-client`, which is
 * loaded on the first sign-in (an instance that never uses it never holds it in memory), as is the
 * provider's discovery document.
 *
 * `begin` keeps the state, nonce and PKCE verifier server-side under the SHA-256 of a random
 * cookie; `complete` takes that row out in one statement (single use), checks the state, has the
 * provider exchange the code (a code used before is refused by it) and verifies the ID token. The
 * account: the one linked to the provider's issuer and subject; otherwise the one with the
 * provider's *verified* address, linked from then on; otherwise a new one without a password
 * (with its personal team). A team that claimed the address's domain gains the person as a member.
 *
 * The provider is trusted for authentication: Lantern asks no second factor of its own after it
 * (a team that requires two-factor still sends a member without it to enrol, as for everyone).
 */
import type * as OidcClient from 'openid-client'
import type { OidcConfig } from '../../config.ts'
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { HttpError } from '../../lib/errors.ts'
import { normalizeEmail, type AccountsService, type User } from '../accounts/service.ts'
import type { AuditService } from '../audit/service.ts'
import type { DomainJoin, TeamsService } from '../teams/service.ts'
import type { SsoRepo } from './repo.ts'

/** A sign-in may take this long at the provider (typing a password, a second factor there). */
export const SSO_LOGIN_TTL_MS = 10 * 60_000
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/
/** The provider's answers (discovery, the token exchange, userinfo) get this long each. */
const PROVIDER_TIMEOUT_SECONDS = 10

/** A sign-in that cannot go on, with what the person reads on the error page. */
export class SsoError extends HttpError {}

export interface SsoSignIn {
  user: User
  /** The session's token, for the cookie. */
  sessionToken: string
  /** Where the browser goes next (a local path). */
  next: string
  /** `linked`: an existing account gained this provider account; `created`: a new account. */
  how: 'signed_in' | 'linked' | 'created'
  /** What the team that claimed the address's domain did, if one did. */
  join: DomainJoin | undefined
}

export interface SsoServiceDeps {
  /** Absent: single sign-on is off and no route of it answers but 404. */
  config: OidcConfig | undefined
  repo: SsoRepo
  accounts: AccountsService
  teams: TeamsService
  audit: AuditService
  clock: Clock
}

interface Provider {
  client: typeof OidcClient
  configuration: OidcClient.Configuration
}

export class SsoService {
  private provider: Promise<Provider> | undefined

  constructor(private readonly deps: SsoServiceDeps) {}

  get available(): boolean {
    return this.deps.config !== undefined
  }

  /** The provider's name as the login button shows it ("Sign in with <name>"). */
  get providerName(): string {
    return this.deps.config?.name ?? ''
  }

  /** The library and the provider's metadata, fetched once; a failure is tried again next time. */
  private connect(config: OidcConfig): Promise<Provider> {
    this.provider ??= (async () => {
      const client = await import('openid-client')
      const configuration = await client.discovery(new URL(config.issuer), config.clientId, config.clientSecret, undefined, {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // Plain http only for an issuer on loopback (config.ts refuses it anywhere else).
        ...(config.allowInsecureRequests ? { execute: [client.allowInsecureRequests] } : {}),
      })
      configuration.timeout = PROVIDER_TIMEOUT_SECONDS
      return { client, configuration }
    })().catch((error: unknown) => {
      this.provider = undefined
      throw new SsoError(502, `${config.name} could not be reached or answered no valid OpenID configuration (${describe(error)}). Try again in a moment, or log in with your password.`)
    })
    return this.provider
  }

  private settings(): OidcConfig {
    const config = this.deps.config
    if (!config) throw new SsoError(404, 'single sign-on is not set up on this Lantern')
    return config
  }

  /**
   * Starts a sign-in: the URL of the provider's login to send the browser to, and the token of the
   * cookie that brings it back to this sign-in (only its hash is kept, with state, nonce and verifier).
   */
  async begin(next: string): Promise<{ token: string; url: string }> {
    const config = this.settings()
    const { client, configuration } = await this.connect(config)
    const codeVerifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const nonce = client.randomNonce()
    const token = randomToken(32)
    const now = this.deps.clock.now()
    await this.deps.repo.deleteLapsedLogins(now)
    await this.deps.repo.insertLogin({ tokenHash: await sha256Hex(token), state, nonce, codeVerifier, next, now, expiresAt: now + SSO_LOGIN_TTL_MS })
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: config.redirectUri,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    })
    return { token, url: url.href }
  }

  /**
   * The browser is back from the provider at `callbackUrl` with the cookie's `token`: the sign-in's
   * checks, the account (linked, found by verified address, or made), the domain's team, the audit
   * rows, and a new session. Every refusal is an SsoError and starts no session.
   */
  async complete(token: string | undefined, callbackUrl: URL, from: { address: string; userAgent: string | null; client: string | null }): Promise<SsoSignIn> {
    const config = this.settings()
    const login = token && TOKEN_PATTERN.test(token) ? await this.deps.repo.takeLogin(await sha256Hex(token)) : undefined
    if (!login || login.expires_at <= this.deps.clock.now()) {
      throw new SsoError(400, 'This sign-in has expired or was finished already (each one works once, for 10 minutes). Start again from the login page.')
    }
    const returnedState = callbackUrl.searchParams.get('state') ?? ''
    if (!constantTimeEqual(returnedState, login.state)) {
      throw new SsoError(400, 'The answer that came back does not belong to the sign-in this browser started (its state does not match), so it was refused. Start again from the login page.')
    }
    if (!callbackUrl.searchParams.has('code') && !callbackUrl.searchParams.has('error')) {
      throw new SsoError(400, 'The answer that came back holds no sign-in code. Start again from the login page.')
    }
    const { client, configuration } = await this.connect(config)
    const claims = await this.verifiedClaims(client, configuration, callbackUrl, login)
    const { issuer } = config
    const now = this.deps.clock.now()
    const identity = await this.deps.repo.findIdentity(issuer, claims.subject)
    let user: User | undefined
    let how: SsoSignIn['how'] = 'signed_in'
    if (identity) {
      user = await this.deps.accounts.userWithId(identity.user_id)
      await this.deps.repo.touchIdentity(identity.id, now)
    }
    if (!user) {
      if (claims.email === undefined) {
        throw new SsoError(400, `${config.name} gave no email address for this account: Lantern needs one (the \`email\` scope) to find or make an account.`)
      }
      if (!claims.emailVerified) {
        throw new SsoError(403, `${config.name} has not verified the address ${claims.email}. Lantern links and makes accounts only by a verified address: verify it there, then sign in again.`)
      }
      const existing = await this.deps.accounts.userWithEmail(claims.email)
      user = existing ?? (await this.createAccount(claims.email))
      how = existing ? 'linked' : 'created'
      try {
        await this.deps.repo.insertIdentity({ issuer, subject: claims.subject, userId: user.id, email: claims.email, now })
      } catch (error) {
        // The same provider account finishing twice at once: the first link stands.
        if (!(await this.deps.repo.findIdentity(issuer, claims.subject))) throw error
      }
    }
    // Only a verified address says which domain's team the person belongs to.
    const join = claims.emailVerified && claims.email !== undefined ? await this.deps.teams.joinByDomain({ id: user.id, email: claims.email }) : undefined
    const personal = await this.deps.accounts.personalTeamOwner(user)
    const audit = { userId: user.id, email: user.email, address: from.address, client: from.client }
    await this.deps.audit.recordSso({ ...audit, teamId: personal.id, action: 'sso.sign_in', objectType: 'sso', objectId: how, fields: [] })
    if (join?.outcome === 'joined') {
      await this.deps.audit.recordSso({ ...audit, teamId: join.teamId, action: 'team.members.sso_join', objectType: '/user/api/v1/team/members/:user_id', objectId: String(user.id), fields: ['role'] })
    }
    const sessionToken = await this.deps.accounts.startSession(user.id, from.userAgent)
    return { user, sessionToken, next: login.next_path, how, join }
  }

  /** The code exchanged and the ID token verified; the address from it, or from userinfo. */
  private async verifiedClaims(
    client: typeof OidcClient,
    configuration: OidcClient.Configuration,
    callbackUrl: URL,
    login: { state: string; nonce: string; code_verifier: string },
  ): Promise<{ subject: string; email: string | undefined; emailVerified: boolean }> {
    const name = this.providerName
    let tokens: Awaited<ReturnType<typeof OidcClient.authorizationCodeGrant>>
    try {
      tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      })
    } catch (error) {
      if (error instanceof client.AuthorizationResponseError) {
        throw new SsoError(403, `${name} did not sign you in (${error.error}${error.error_description ? `: ${error.error_description}` : ''}).`)
      }
      if (error instanceof client.ResponseBodyError && error.error === 'invalid_grant') {
        throw new SsoError(400, `${name} refused the sign-in's code: it was used already or has expired. Start again from the login page.`)
      }
      if (error instanceof client.ResponseBodyError) throw new SsoError(502, `${name} refused the sign-in (${error.error}). Start again, or log in with your password.`)
      throw new SsoError(502, `The answer of ${name} could not be verified (${describe(error)}). Start again, or log in with your password.`)
    }
    const idToken = tokens.claims()
    if (!idToken) throw new SsoError(502, `${name} sent no ID token.`)
    let email: unknown = idToken.email
    let verified: unknown = idToken.email_verified
    if (email === undefined && tokens.access_token) {
      try {
        const info = await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)
        email = info.email
        verified = info.email_verified
      } catch (error) {
        throw new SsoError(502, `${name} did not answer who you are (userinfo: ${describe(error)}). Start again.`)
      }
    }
    let normalized: string | undefined
    if (typeof email === 'string') {
      try {
        normalized = normalizeEmail(email)
      } catch {
        throw new SsoError(400, `${name} gave an address Lantern cannot use as one.`)
      }
    }
    // Only `true` counts: a provider saying "true" as text, or nothing, has not verified it.
    return { subject: idToken.sub, email: normalized, emailVerified: verified === true }
  }

  private async createAccount(email: string): Promise<User> {
    try {
      return await this.deps.accounts.createPasswordlessUser(email)
    } catch (error) {
      // Made meanwhile by another request (the same person in two tabs): use that one.
      const made = error instanceof HttpError && error.status === 409 ? await this.deps.accounts.userWithEmail(email) : undefined
      if (!made) throw error
      return made
    }
  }
}

/** A short, safe reason for the error page: the library's message, never a stack or a token. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 200)
}
