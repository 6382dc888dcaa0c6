/**
 * Who may read a private page.
 *
 * - Visitors: a shared password (at least 8 characters for a new one; shorter ones set when 4 were
 *   enough keep working; argon2id) typed into the gate opens a session of one hour, kept in a
 *   cookie scoped to the host it was opened on. The session is stored (hashed) with its page and
 *   host: a cookie carried to another page or another host is refused. Guesses are counted before
 *   any hash is checked (src/lib/guess-throttle.ts, in the database: across servers): 5 per client (IPv4 address or IPv6 /64) and
 *   page per 15 minutes, and 30 per page per 15 minutes over all clients, so rotating addresses
 *   does not help; clients that opened the page in the last 30 days are exempt from the page's
 *   budget, and anyone else waits at most 15 minutes after the guessing stops.
 * - Embeds and scripts: a read-only access token (`auth_token=lpt_…`), created by the owner.
 *   It lets a badge, the widget or the status JSON of a private page answer; it never opens the
 *   HTML page. `embedTokenGrants(pageId, token)` is the one check for that.
 */
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest } from '../../lib/errors.ts'
import type { PasswordHasher } from '../../lib/password.ts'
import type { AttemptBudgetStore } from '../../lib/attempt-budget.ts'
import { GuessThrottle } from '../../lib/guess-throttle.ts'
import { requireWellFormed } from '../../lib/text.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import type { PublicPage } from '../status-pipeline/service.ts'
import type { PageAccessRepo } from './repo.ts'

export const SESSION_TTL_MS = 60 * 60_000
export const GATE_ATTEMPTS = 5
export const GATE_WINDOW_MS = 15 * 60_000
export const GATE_PAGE_ATTEMPTS = 30
export const GATE_PAGE_WINDOW_MS = 15 * 60_000
const KNOWN_VISITOR_MS = 30 * 24 * 3600_000
/** For passwords set from now on; stored ones that are shorter still open the gate. */
const MIN_PASSWORD_LENGTH = 8
const EMBED_TOKEN_PREFIX = 'lpt_'
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/
const EMBED_TOKEN = /^lpt_[A-Za-z0-9_-]{43}$/

export type GateResult =
  | { kind: 'ok'; token: string; expiresAt: number }
  | { kind: 'wrong' }
  | { kind: 'limited'; retryAfterSeconds: number }
  | { kind: 'no-password' }

function parseGatePassword(raw: string): string {
  if (raw.length < MIN_PASSWORD_LENGTH) throw badRequest(`password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  if (raw.length > 1024) throw badRequest('password must be at most 1024 characters')
  requireWellFormed('password', raw)
  return raw
}

/** A private page an embed URL's slug and `auth_token` open: the same facts as a public page. */
export type GrantedEmbedPage = PublicPage

export interface PageAccessServiceDeps {
  repo: PageAccessRepo
  clock: Clock
  changes: ChangeFeed
  passwords: PasswordHasher
  /** Where the guess budgets are counted (the database, shared by every server). */
  attemptBudgets: AttemptBudgetStore
}

export class PageAccessService {
  private readonly guesses: GuessThrottle

  constructor(private readonly deps: PageAccessServiceDeps) {
    const { clock, attemptBudgets } = deps
    this.guesses = new GuessThrottle({
      name: 'gate',
      store: attemptBudgets,
      clock,
      perTargetAndClient: { limit: GATE_ATTEMPTS, windowMs: GATE_WINDOW_MS },
      perTarget: { limit: GATE_PAGE_ATTEMPTS, windowMs: GATE_PAGE_WINDOW_MS },
      knownClientMs: KNOWN_VISITOR_MS,
    })
  }

  async settings(pageId: number): Promise<{ passwordSet: boolean; embedTokenSet: boolean }> {
    const row = await this.deps.repo.findAccess(pageId)
    return { passwordSet: Boolean(row?.password_hash), embedTokenSet: Boolean(row?.embed_token_hash) }
  }

  /** Sets (or with null removes) the gate password; every open session of the page ends. */
  async setPassword(pageId: number, password: string | null): Promise<void> {
    await this.storePasswordHash(pageId, password === null ? null : await this.hashNewPassword(password))
  }

  /** Checks a new gate password (400 with the rule it breaks) and hashes it, before anything is written. */
  hashNewPassword(password: string): Promise<string> {
    return this.deps.passwords.hash(parseGatePassword(password))
  }

  /** Stores a hash made by `hashNewPassword` (null: no password); every open session of the page ends. */
  async storePasswordHash(pageId: number, hash: string | null): Promise<void> {
    await this.deps.repo.upsertAccess(pageId, { password_hash: hash }, this.deps.clock.now())
    await this.deps.repo.deleteSessionsOfPage(pageId)
    this.deps.changes.pageChanged(pageId)
  }

  /** A new read-only embed token (shown once); the previous one stops working. */
  async rotateEmbedToken(pageId: number): Promise<string> {
    const token = `${EMBED_TOKEN_PREFIX}${randomToken(32)}`
    await this.deps.repo.upsertAccess(pageId, { embed_token_hash: await sha256Hex(token) }, this.deps.clock.now())
    this.deps.changes.pageChanged(pageId)
    return token
  }

  async revokeEmbedToken(pageId: number): Promise<void> {
    await this.deps.repo.upsertAccess(pageId, { embed_token_hash: null }, this.deps.clock.now())
    this.deps.changes.pageChanged(pageId)
  }

  /** True when `token` is the current embed token of the page (for badges, widget, status JSON). */
  async embedTokenGrants(pageId: number, token: string | null | undefined): Promise<boolean> {
    if (!token || !EMBED_TOKEN.test(token)) return false
    const row = await this.deps.repo.findAccess(pageId)
    if (!row?.embed_token_hash) return false
    return constantTimeEqual(await sha256Hex(token), row.embed_token_hash)
  }

  /** One password attempt at the gate of `pageId` on `host` by `client`. */
  async attempt(input: { pageId: number; host: string; client: string; password: string }): Promise<GateResult> {
    const access = await this.deps.repo.findAccess(input.pageId)
    if (!access?.password_hash) return { kind: 'no-password' }
    const guess = await this.guesses.admit(String(input.pageId), input.client)
    if (!guess.ok) return { kind: 'limited', retryAfterSeconds: Math.max(1, Math.ceil(guess.retryAfterMs / 1000)) }
    const ok = input.password.length <= 1024 && (await this.deps.passwords.verify(input.password, access.password_hash))
    if (!ok) return { kind: 'wrong' }
    await guess.succeeded()
    const now = this.deps.clock.now()
    if (this.deps.passwords.needsRehash(access.password_hash)) await this.deps.repo.rehashPassword(input.pageId, access.password_hash, await this.deps.passwords.hash(input.password), now)
    const token = randomToken(32)
    const expiresAt = now + SESSION_TTL_MS
    await this.deps.repo.deleteExpiredSessions(now)
    await this.deps.repo.insertSession({ pageId: input.pageId, host: input.host, tokenHash: await sha256Hex(token), now, expiresAt })
    return { kind: 'ok', token, expiresAt }
  }

  /** True when the session cookie value opens `pageId` on `host` right now. */
  async sessionGrants(token: string | undefined, pageId: number, host: string): Promise<boolean> {
    if (!token || !SESSION_TOKEN.test(token)) return false
    const session = await this.deps.repo.findSession(await sha256Hex(token))
    return session !== undefined && session.page_id === pageId && session.host === host && session.expires_at > this.deps.clock.now()
  }

  /**
   * The private page a slug and its one `auth_token` open, or undefined (a public, blocked or
   * unknown page, or a wrong token: then the public answer applies).
   */
  async grantedEmbedPage(rawSlug: string, tokens: readonly string[]): Promise<GrantedEmbedPage | undefined> {
    const slug = slugForLookup(rawSlug)
    if (slug === undefined || tokens.length !== 1) return undefined
    const row = await this.deps.repo.findPageBySlug(slug)
    if (!row || row.blocked === 1 || row.visibility !== 'private') return undefined
    if (!(await this.embedTokenGrants(row.id, tokens[0]))) return undefined
    return { id: row.id, slug: row.slug, name: row.name, customDomain: row.custom_domain, customDomainState: row.custom_domain_state, plan: row.plan, language: row.language }
  }
}
