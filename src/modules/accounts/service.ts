/**
 * Users and API keys. Passwords are argon2id hashes; API keys are `lnt_<public id>_<secret>` where
 * only a SHA-256 of the secret is stored. The secret is 32 random bytes, so a fast hash is enough
 * (no dictionary to guess from) and keeps every authenticated request cheap.
 */
import { badRequest, conflict, HttpError, notFound, unauthorized } from '../../lib/errors.ts'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import type { PasswordHasher } from '../../lib/password.ts'
import { clientBudgetKey } from '../../lib/address-prefix.ts'
import { AttemptBudget, type AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import type { GuessThrottle } from '../../lib/guess-throttle.ts'
import { createLoginThrottle } from './login-throttle.ts'
import { parseText, requireWellFormed } from '../../lib/text.ts'
import { isPlan, PLANS, type Plan } from '../plans/matrix.ts'
import { isRole, lowerRole, roleAtMost, roleLabel, ROLES, type Role } from '../plans/roles.ts'
import type { AccountsRepo } from './repo.ts'
import { summarizeUserAgent } from './user-agent.ts'

export interface User {
  id: number
  email: string
  plan: Plan
  isAdmin: boolean
  createdAt: number
}

/**
 * Who acts in a request to an owner route: a team (what `owner_id` holds, and its plan) seen
 * through the member acting for it. Services take it as `owner` and scope everything by `id`.
 */
export interface Owner {
  /** The team's id: what pages, monitors, channels and templates name as `owner_id`. */
  id: number
  /** The team's plan. */
  plan: Plan
  teamName: string
  /** The member's role, or for an API key the lower of the key's and the member's. */
  role: Role
  /** Members must have two-factor on before anything else (sessions only; API keys are exempt). */
  teamRequiresTwoFactor: boolean
  /** The person acting. */
  userId: number
  email: string
  /** The person administers this Lantern (the first account, or `user create --admin`). */
  isAdmin: boolean
  /** `cli`: a command on the server (`--email`), acting in the user's personal team. */
  via: 'session' | 'api_key' | 'cli'
  /** The API key of the request, or the session's row id. */
  keyId: number | null
  keyName: string | null
  sessionId: number | null
}

export interface ApiKeyInfo {
  id: number
  /** `lnt_` and the public id: the start of the key, enough to recognise it; never the secret. */
  prefix: string
  name: string
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
  state: 'active' | 'revoked'
  role: Role
  teamId: number | null
}

/** A login session as the account screen and the API show it: the row id, never the token or its hash. */
export interface SessionInfo {
  id: number
  createdAt: number
  /** Last authenticated request, recorded at most once a minute. */
  lastSeenAt: number | null
  expiresAt: number
  /** "Chrome on Linux"; null for sessions from before this was recorded. */
  client: string | null
  /** True for the session of the request that asked (its cookie). */
  current: boolean
}

export interface AccountUsage {
  pages: number
  components: number
  mostComponentsOnOnePage: number
  activeApiKeys: number
  /** Components opted in to automatic incidents, over all pages (paused ones too: the plan counts them). */
  autoIncidentComponents: number
  /** Subscribers counting towards the per-page limit on the page with the most. */
  mostSubscribersOnOnePage: number
}

const KEY_PREFIX = 'lnt_'
const PUBLIC_ID_LENGTH = 12 // 9 random bytes, base64url
/** `lnt_`, the public id (9 random bytes, base64url), `_`, the secret (32 random bytes, base64url). */
const KEY_PATTERN = /^lnt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/
/** What `key list` shows and `key revoke --prefix` takes: `lnt_` and the public id. */
const KEY_PREFIX_PATTERN = /^lnt_[A-Za-z0-9_-]{12}$/
/** Writing last_used_at on every request would turn reads into writes; once a minute is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000

/** Login sessions last this long; a password change or logout ends them sooner. */
export const SESSION_TTL_MS = 14 * 24 * 3600_000
const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/
export {
  LOGIN_ATTEMPTS_PER_CLIENT,
  LOGIN_ATTEMPTS_PER_EMAIL,
  LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT,
  LOGIN_EMAIL_WINDOW_MS,
  LOGIN_WINDOW_MS,
} from './login-throttle.ts'

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * The stored "hash" of an account made by single sign-on: no password matches it (it is no hash
 * any algorithm reads), so the account signs in only through its provider until a password is set
 * by a reset link (or `lantern user set-password`).
 */
export const NO_PASSWORD = '!sso-no-password'

export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase()
  if (email.length === 0) throw badRequest('email is required')
  if (email.length > 254 || !EMAIL_PATTERN.test(email) || !email.isWellFormed()) throw badRequest('email is not a valid address')
  return email
}

function parsePlan(raw: string): Plan {
  if (!isPlan(raw)) throw badRequest(`plan must be one of ${PLANS.join(', ')}`)
  return raw
}

function toUser(row: { id: number; email: string; plan: Plan; is_admin: number; created_at: number }): User {
  return { id: row.id, email: row.email, plan: row.plan, isAdmin: row.is_admin === 1, createdAt: row.created_at }
}

export interface AccountsServiceDeps {
  repo: AccountsRepo
  clock: Clock
  changes: ChangeFeed
  passwords: PasswordHasher
  defaultPlan: Plan
  /** The service origin (BASE_URL): cookie-authenticated writes must come from it (see auth.ts). */
  serviceOrigin: string
  /** Where the password-guess budgets are counted (the database, shared by every server). */
  attemptBudgets: AttemptBudgetStore
}

export class AccountsService {
  private readonly logins: GuessThrottle
  private readonly signupsPerClient: AttemptBudget

  readonly serviceOrigin: string
  /** Where successful writes to owner routes are recorded (the audit module; wired in services.ts). */
  audit: import('./auth.ts').AuditSink | undefined
  /** Whether a user has a second factor (the two-factor module; wired in services.ts). */
  private secondFactor: ((userId: number) => Promise<boolean>) | undefined

  /** Wires what lives in modules that depend on this one (no import cycle). */
  connect(parts: { audit: import('./auth.ts').AuditSink; hasSecondFactor: (userId: number) => Promise<boolean> }): void {
    this.audit = parts.audit
    this.secondFactor = parts.hasSecondFactor
  }

  hasSecondFactor(userId: number): Promise<boolean> {
    return this.secondFactor ? this.secondFactor(userId) : Promise.resolve(false)
  }

  constructor(private readonly deps: AccountsServiceDeps) {
    this.serviceOrigin = deps.serviceOrigin
    const { clock, attemptBudgets } = deps
    this.logins = createLoginThrottle(attemptBudgets, clock)
    this.signupsPerClient = new AttemptBudget({ name: 'signup', budget: { limit: 10, windowMs: 60 * 60_000 }, store: attemptBudgets, clock })
  }

  async createUser(input: { email: string; password: string; plan?: string; isAdmin?: boolean }): Promise<User> {
    const email = normalizeEmail(input.email)
    checkPassword(input.password)
    const plan = input.plan === undefined ? this.deps.defaultPlan : parsePlan(input.plan)
    if (await this.deps.repo.findUserByEmail(email)) throw badRequest('a user with this email already exists')
    const row = await this.deps.repo.insertUser({
      email,
      passwordHash: await this.deps.passwords.hash(input.password),
      plan,
      isAdmin: input.isAdmin ?? false,
      now: this.deps.clock.now(),
    })
    return toUser(row)
  }

  /**
   * A new account without a password (single sign-on made it), with its personal team as every
   * account has, on the instance's default plan. An address taken already is 409.
   */
  async createPasswordlessUser(rawEmail: string): Promise<User> {
    const email = normalizeEmail(rawEmail)
    if (await this.deps.repo.findUserByEmail(email)) throw conflict('a user with this email already exists')
    const row = await this.deps.repo.insertUser({ email, passwordHash: NO_PASSWORD, plan: this.deps.defaultPlan, isAdmin: false, now: this.deps.clock.now() })
    return toUser(row)
  }

  /** The account with this address (already normalized), or undefined. */
  async userWithEmail(email: string): Promise<User | undefined> {
    const row = await this.deps.repo.findUserByEmail(email)
    return row ? toUser(row) : undefined
  }

  /** The account with this id, or undefined. */
  async userWithId(id: number): Promise<User | undefined> {
    const row = await this.deps.repo.findUserById(id)
    return row ? toUser(row) : undefined
  }

  async findUserByEmail(rawEmail: string): Promise<User> {
    const row = await this.deps.repo.findUserByEmail(normalizeEmail(rawEmail))
    if (!row) throw notFound('no user with this email')
    return toUser(row)
  }

  /** Changes the plan of a user's personal team; every page of it is re-evaluated by the caches at once. */
  async setPlan(rawEmail: string, rawPlan: string): Promise<User> {
    const plan = parsePlan(rawPlan)
    const user = await this.findUserByEmail(rawEmail)
    const row = await this.deps.repo.updatePlan(user.id, plan)
    // A plan decides whether badges, snippets and custom domains find the page at all.
    const team = await this.personalOwner(user.id)
    for (const page of await this.deps.repo.listPageIdsOfOwner(team.id)) this.deps.changes.pageChanged(page.id, { lookups: true })
    return toUser(row)
  }

  /**
   * Creates an API key for the member `owner.userId` acting in team `owner.id`, with a role no
   * higher than theirs (default: theirs), and returns it in full: the only time the secret is seen.
   */
  async createApiKey(by: Pick<Owner, 'id' | 'userId' | 'role'> | number, rawName: string | undefined, rawRole?: string): Promise<{ key: string; info: ApiKeyInfo }> {
    // A bare user id (the CLI's `key create --email`): the user's personal team, as its owner.
    const owner = typeof by === 'number' ? await this.personalOwner(by) : by
    const name = (rawName ?? 'default').trim()
    if (name.length === 0 || name.length > 100) throw badRequest('name must be 1 to 100 characters')
    parseText('name', name, { max: 100 })
    const role = rawRole === undefined || rawRole === '' ? owner.role : rawRole
    if (!isRole(role)) throw badRequest(`role must be one of ${ROLES.join(', ')}`)
    if (!roleAtMost(role, owner.role)) throw badRequest(`role cannot be above your own (${roleLabel(owner.role)})`)
    const publicId = randomToken(9)
    const secret = randomToken(32)
    const row = await this.deps.repo.insertApiKey({
      userId: owner.userId,
      teamId: owner.id,
      role,
      publicId,
      secretHash: await sha256Hex(secret),
      name,
      now: this.deps.clock.now(),
    })
    return { key: `${KEY_PREFIX}${publicId}_${secret}`, info: toKeyInfo(row) }
  }

  /**
   * The team and member a presented API key acts for, or undefined for anything malformed,
   * unknown, revoked, or of someone no longer a member of the key's team.
   */
  async authenticateApiKey(presented: string): Promise<Owner | undefined> {
    if (!KEY_PATTERN.test(presented)) return undefined
    const publicId = presented.slice(KEY_PREFIX.length, KEY_PREFIX.length + PUBLIC_ID_LENGTH)
    const secret = presented.slice(KEY_PREFIX.length + PUBLIC_ID_LENGTH + 1)
    const row = await this.deps.repo.findActiveKeyWithUser(publicId)
    // Hash even when the id is unknown, so both paths take the same time.
    const presentedHash = await sha256Hex(secret)
    if (!row || !constantTimeEqual(presentedHash, row.secret_hash)) return undefined
    const now = this.deps.clock.now()
    if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
      await this.deps.repo.touchApiKey(row.key_id, now)
    }
    return {
      id: row.team_id,
      plan: row.team_plan,
      teamName: row.team_name,
      role: lowerRole(row.key_role, row.member_role),
      teamRequiresTwoFactor: row.require_two_factor === 1,
      userId: row.id,
      email: row.email,
      isAdmin: row.is_admin === 1,
      via: 'api_key',
      keyId: row.key_id,
      keyName: row.key_name,
      sessionId: null,
    }
  }

  /** Every key of the user, oldest first, revoked ones included (as `revoked`). */
  async listApiKeys(userId: number): Promise<ApiKeyInfo[]> {
    return (await this.deps.repo.listApiKeys(userId)).map(toKeyInfo)
  }

  /** What the team holds (pages, components, active keys, automation, subscribers), for "plan and usage". */
  usage(teamId: number): Promise<AccountUsage> {
    return this.deps.repo.usageCounts(teamId, this.deps.clock.now())
  }

  /** One of the user's keys; another user's key is unknown (404). */
  async getApiKey(userId: number, keyId: number): Promise<ApiKeyInfo> {
    const row = await this.deps.repo.findApiKey(userId, keyId)
    if (!row) throw notFound()
    return toKeyInfo(row)
  }

  /**
   * Revokes one of the user's keys: every later request with it is 401. Someone else's key is
   * unknown (404); revoking a revoked key changes nothing and returns it as it is.
   */
  async revokeApiKey(userId: number, keyId: number): Promise<ApiKeyInfo> {
    await this.deps.repo.revokeApiKey(userId, keyId, this.deps.clock.now())
    const row = await this.deps.repo.findApiKey(userId, keyId)
    if (!row) throw notFound()
    return toKeyInfo(row)
  }

  /** The same, by the key's prefix (`lnt_` and its public id) as `key list` shows it. */
  async revokeApiKeyByPrefix(userId: number, rawPrefix: string): Promise<ApiKeyInfo> {
    const prefix = rawPrefix.trim()
    if (!KEY_PREFIX_PATTERN.test(prefix)) throw badRequest('prefix must be lnt_ followed by the 12 characters of the key id')
    const row = await this.deps.repo.findApiKeyByPublicId(userId, prefix.slice(KEY_PREFIX.length))
    if (!row) throw notFound('no key with this prefix')
    return this.revokeApiKey(userId, row.id)
  }

  /**
   * Checks an email and password, throttled per email and client address (`clientKey`), per
   * client and per email (see login-throttle.ts; counted in the database, across servers). Success starts a session:
   * the returned token goes into the cookie and only its hash is stored.
   */
  async login(rawEmail: string, password: string, clientKey: string, userAgent?: string | null): Promise<{ user: User; token: string }> {
    const user = await this.checkLogin(rawEmail, password, clientKey)
    return { user, token: await this.startSession(user.id, userAgent) }
  }

  /** The password step of a login, throttled as `login` is, without starting a session (two-factor comes next). */
  async checkLogin(rawEmail: string, password: string, clientKey: string): Promise<User> {
    const email = rawEmail.trim().toLowerCase().slice(0, 320)
    const attempt = await this.logins.admit(email, clientKey)
    if (!attempt.ok) throw new TooManyAttempts(Math.ceil(attempt.retryAfterMs / 1000))
    const row = email.length > 0 && password.length <= 1024 ? await this.deps.repo.findUserByEmail(email) : undefined
    // Verify against a hash of no one's password when the email is unknown (or the account has no
    // password), so every refusal takes the same time.
    const stored = row && row.password_hash !== NO_PASSWORD ? row.password_hash : this.deps.passwords.timingHash
    const ok = await this.deps.passwords.verify(password.slice(0, 1024), stored)
    if (!row || row.password_hash === NO_PASSWORD || !ok) throw unauthorized('wrong email or password')
    await attempt.succeeded()
    if (this.deps.passwords.needsRehash(row.password_hash)) await this.deps.repo.rehashPassword(row.id, row.password_hash, await this.deps.passwords.hash(password.slice(0, 1024)))
    return toUser(row)
  }

  /** Open sign-up: at most 10 attempts per client address an hour, over all servers. */
  async signUp(input: { email: string; password: string }, clientKey: string, userAgent?: string | null): Promise<{ user: User; token: string }> {
    const client = clientBudgetKey(clientKey)
    const wait = await this.signupsPerClient.take(client)
    if (wait > 0) throw new TooManyAttempts(Math.ceil(wait / 1000))
    const user = await this.createUser(input)
    return { user, token: await this.startSession(user.id, userAgent) }
  }

  /** Starts a login session; `userAgent` is kept only as a short summary ("Firefox on Linux"). */
  async startSession(userId: number, userAgent?: string | null): Promise<string> {
    const token = randomToken(32)
    const now = this.deps.clock.now()
    await this.deps.repo.deleteExpiredSessions(now)
    await this.deps.repo.insertSession({
      userId,
      tokenHash: await sha256Hex(token),
      now,
      expiresAt: now + SESSION_TTL_MS,
      client: summarizeUserAgent(userAgent),
    })
    return token
  }

  /** The user's live sessions, newest first; `currentToken` (the asking browser's cookie) marks its own. */
  async listSessions(userId: number, currentToken?: string): Promise<SessionInfo[]> {
    const currentHash = currentToken && SESSION_TOKEN_PATTERN.test(currentToken) ? await sha256Hex(currentToken) : undefined
    const rows = await this.deps.repo.listLiveSessions(userId, this.deps.clock.now())
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
      client: row.client,
      current: currentHash !== undefined && constantTimeEqual(currentHash, row.token_hash),
    }))
  }

  /** Ends one of the user's sessions by its id (as listSessions shows it); another user's id is 404. */
  async endSessionById(userId: number, sessionId: number): Promise<void> {
    if (!(await this.deps.repo.deleteSessionById(userId, sessionId, this.deps.clock.now()))) throw notFound('no such session')
  }

  /** Ends every session of the user except the asking browser's (`currentToken`); returns how many ended. */
  async endOtherSessions(userId: number, currentToken?: string): Promise<number> {
    const keep = currentToken && SESSION_TOKEN_PATTERN.test(currentToken) ? await sha256Hex(currentToken) : undefined
    return this.deps.repo.deleteSessionsExcept(userId, keep)
  }

  /**
   * The team and member of a live session (the team the browser chose, or the personal team), or
   * undefined for a malformed, unknown, ended or expired one.
   */
  async authenticateSession(token: string): Promise<Owner | undefined> {
    if (!SESSION_TOKEN_PATTERN.test(token)) return undefined
    const hash = await sha256Hex(token)
    const now = this.deps.clock.now()
    const row = await this.deps.repo.findLiveSessionWithUser(hash, now)
    if (!row || !constantTimeEqual(hash, row.token_hash)) return undefined
    // "Last seen" for the session list, written at most once a minute so reads stay reads.
    if (row.last_seen_at === null || now - row.last_seen_at >= LAST_USED_RESOLUTION_MS) await this.deps.repo.touchSession(row.session_id, now)
    const team = await this.deps.repo.actingMembership(row.id, row.chosen_team_id)
    if (!team) return undefined
    return {
      id: team.id,
      plan: team.plan,
      teamName: team.name,
      role: team.role,
      teamRequiresTwoFactor: team.require_two_factor === 1,
      userId: row.id,
      email: row.email,
      isAdmin: row.is_admin === 1,
      via: 'session',
      keyId: null,
      keyName: null,
      sessionId: row.session_id,
    }
  }

  /** The browser of `sessionId` acts in `teamId` from its next request on (the caller checked membership). */
  async chooseTeam(sessionId: number, teamId: number): Promise<void> {
    await this.deps.repo.chooseTeam(sessionId, teamId)
  }

  private async personalOwner(userId: number): Promise<Pick<Owner, 'id' | 'userId' | 'role'>> {
    const team = await this.deps.repo.actingMembership(userId, null)
    if (!team) throw notFound('no such user')
    return { id: team.id, userId, role: team.role }
  }

  /**
   * The user acting in their personal team, as its owner: what the CLI's `--email` commands act
   * as (no key, no session), and what a single-user account always was. With `teamId`, in that
   * team instead, with their role there.
   */
  async personalTeamOwner(user: Pick<User, 'id'>, teamId: number | null = null): Promise<Owner> {
    const row = await this.deps.repo.findUserById(user.id)
    const team = row && (await this.deps.repo.actingMembership(row.id, teamId))
    if (!row || !team) throw notFound('no such user')
    // A team the user is not a member of falls back to the personal team there; here it is refused.
    if (teamId !== null && team.id !== teamId) throw notFound(`${row.email} is not a member of team ${teamId}`)
    return {
      id: team.id,
      plan: team.plan,
      teamName: team.name,
      role: team.role,
      teamRequiresTwoFactor: team.require_two_factor === 1,
      userId: row.id,
      email: row.email,
      isAdmin: row.is_admin === 1,
      via: 'cli',
      keyId: null,
      keyName: null,
      sessionId: null,
    }
  }

  /** The account behind an owner (the person acting). */
  async userOf(owner: Pick<Owner, 'userId'>): Promise<User> {
    const row = await this.deps.repo.findUserById(owner.userId)
    if (!row) throw notFound('no such user')
    return toUser(row)
  }

  async endSession(token: string): Promise<void> {
    if (SESSION_TOKEN_PATTERN.test(token)) await this.deps.repo.deleteSession(await sha256Hex(token))
  }

  /**
   * Sets a new password and ends every session of the user; with `current` the current password
   * must match first (the web form, from `current.client`), without it this is the administrator's
   * reset (the CLI).
   */
  async changePassword(userId: number, newPassword: string, current?: { password: string; client: string }): Promise<void> {
    const row = await this.deps.repo.findUserById(userId)
    if (!row) throw notFound('no such user')
    if (current !== undefined) await this.confirmPassword(userId, current.password, current.client, 'current password is wrong')
    checkPassword(newPassword)
    await this.deps.repo.replacePasswordAndEndSessions(userId, await this.deps.passwords.hash(newPassword))
  }

  /**
   * Checks a logged-in user's own password again before a grave action (changing it, handing a
   * page to another account). Guessing it here counts like guessing it at the login.
   */
  async confirmPassword(userId: number, password: string, client: string, wrong = 'password is wrong'): Promise<void> {
    const row = await this.deps.repo.findUserById(userId)
    if (!row) throw notFound('no such user')
    const attempt = await this.logins.admit(row.email, client)
    if (!attempt.ok) throw new TooManyAttempts(Math.ceil(attempt.retryAfterMs / 1000))
    if (!(await this.deps.passwords.verify(password.slice(0, 1024), row.password_hash))) throw badRequest(wrong)
    await attempt.succeeded()
  }

  /**
   * First-run setup: while no user exists, issues a new setup token (the server prints the link at
   * start) and keeps only its hash; any earlier one is replaced. Once a user exists: none, and any
   * stored one is removed.
   */
  async issueSetupToken(): Promise<string | undefined> {
    if (await this.deps.repo.hasUsers()) {
      await this.deps.repo.deleteSetupTokens()
      return undefined
    }
    const token = randomToken(32)
    await this.deps.repo.replaceSetupToken(await sha256Hex(token), this.deps.clock.now())
    return token
  }

  /** True while the database has no users (first-run setup pending): one indexed lookup. */
  async needsSetup(): Promise<boolean> {
    return !(await this.deps.repo.hasUsers())
  }

  /** True while `presented` is the live setup token and no user exists yet (compared in constant time). */
  async setupTokenValid(presented: string): Promise<boolean> {
    return (await this.liveSetupToken(presented)) !== undefined
  }

  /**
   * Creates the first account with the setup token: an administrator on the instance's default
   * plan, logged in at once. The token is spent in the same transaction; a wrong or spent token,
   * or any existing user, is 404 (nothing to set up).
   */
  async completeSetup(presented: string, input: { email: string; password: string }, userAgent?: string | null): Promise<{ user: User; token: string }> {
    const email = normalizeEmail(input.email)
    checkPassword(input.password)
    if (!(await this.liveSetupToken(presented))) throw notFound()
    const passwordHash = await this.deps.passwords.hash(input.password)
    // Looked up again after the slow hash: another request may have used it meanwhile.
    const live = await this.liveSetupToken(presented)
    const row = live && (await this.deps.repo.createFirstUser(live.id, { email, passwordHash, plan: this.deps.defaultPlan, now: this.deps.clock.now() }))
    if (!row) throw notFound()
    const user = toUser(row)
    return { user, token: await this.startSession(user.id, userAgent) }
  }

  private async liveSetupToken(presented: string): Promise<{ id: number } | undefined> {
    if (!SESSION_TOKEN_PATTERN.test(presented)) return undefined
    const presentedHash = await sha256Hex(presented)
    const row = await this.deps.repo.findSetupToken()
    if (!row || !constantTimeEqual(presentedHash, row.token_hash)) return undefined
    if (await this.deps.repo.hasUsers()) return undefined
    return { id: row.id }
  }

  async setPasswordByEmail(rawEmail: string, newPassword: string): Promise<User> {
    const user = await this.findUserByEmail(rawEmail)
    await this.changePassword(user.id, newPassword)
    return user
  }
}

/** The rule every new password meets: 8 to 1024 characters, well-formed text (400 otherwise). */
export function checkPassword(password: string): void {
  if (password.length < 8) throw badRequest('password must be at least 8 characters')
  if (password.length > 1024) throw badRequest('password must be at most 1024 characters')
  requireWellFormed('password', password)
}

/** Thrown when login attempts exceed the limit; `retryAfterSeconds` goes into `Retry-After`. */
export class TooManyAttempts extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'too many login attempts, try again later')
  }
}

function toKeyInfo(row: {
  id: number
  team_id: number | null
  role: Role
  public_id: string
  name: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}): ApiKeyInfo {
  return {
    id: row.id,
    prefix: `${KEY_PREFIX}${row.public_id}`,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    state: row.revoked_at === null ? 'active' : 'revoked',
    role: row.role,
    teamId: row.team_id,
  }
}
