/**
 * Share tokens: read-only links to a page's analytics. A token is `lsh_<public id>_<secret>`; only
 * a SHA-256 of the 32-byte random secret is stored and compared in constant time. A token is
 * `active`, `expired` (from its expiry instant on) or `revoked`.
 */
import type { Selectable } from 'kysely'
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors.ts'
import { requireWellFormed } from '../../lib/text.ts'
import { parseRfc3339 } from '../../lib/time.ts'
import type { Owner } from '../accounts/service.ts'
import { lowestPlanWith, planHas, planLabel } from '../plans/matrix.ts'
import type { AnalyticsRepo } from './repo.ts'
import type { AnalyticsShareTokensTable } from './tables.ts'
import type { CreateTokenInput } from './model.ts'

export type TokenState = 'active' | 'expired' | 'revoked'

export interface ShareToken {
  id: number
  pageId: number
  label: string
  readOnly: boolean
  createdAt: number
  expiresAt: number | null
  revokedAt: number | null
  usageCount: number
  lastUsedAt: number | null
  state: TokenState
}

const PREFIX = 'lsh_'
const TOKEN_PATTERN = /^lsh_([A-Za-z0-9_-]{12})_([A-Za-z0-9_-]{43})$/
const MAX_TOKENS_PER_PAGE = 100

const REFUSALS = {
  invalid: 'invalid share token',
  expired: 'this share link has expired',
  revoked: 'this share link was revoked',
  plan: `Analytics share tokens require ${planLabel(lowestPlanWith('analytics_share_tokens'))} plan or higher`,
} as const

/** Why a presented token does not open the analytics: the shared view words its 403 page by it. */
export class ShareTokenRefused extends HttpError {
  constructor(readonly reason: 'invalid' | 'expired' | 'revoked' | 'plan') {
    super(403, REFUSALS[reason])
  }
}

function tokenState(row: { expires_at: number | null; revoked_at: number | null }, now: number): TokenState {
  if (row.revoked_at !== null) return 'revoked'
  if (row.expires_at !== null && now >= row.expires_at) return 'expired'
  return 'active'
}

function toShareToken(row: Selectable<AnalyticsShareTokensTable>, now: number): ShareToken {
  return {
    id: row.id,
    pageId: row.page_id,
    label: row.label,
    readOnly: row.read_only === 1,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    usageCount: row.usage_count,
    lastUsedAt: row.last_used_at,
    state: tokenState(row, now),
  }
}

/** Longest label, after trimming. */
export const MAX_LABEL = 100

export class ShareTokensService {
  constructor(
    private readonly repo: AnalyticsRepo,
    private readonly clock: Clock,
  ) {}

  /** The owner's page, or 404 (someone else's page looks exactly like a missing one). */
  async ownedPage(owner: Owner, pageId: number) {
    const page = await this.repo.findPage(pageId)
    if (!page || page.owner_id !== owner.id) throw notFound()
    return page
  }

  async list(owner: Owner, pageId: number): Promise<ShareToken[]> {
    await this.ownedPage(owner, pageId)
    const now = this.clock.now()
    return (await this.repo.tokensOfPage(pageId)).map((row) => toShareToken(row, now))
  }

  /** Creates a token; the returned secret is shown this once and never again. */
  async create(owner: Owner, pageId: number, input: CreateTokenInput): Promise<{ token: ShareToken; secret: string }> {
    await this.ownedPage(owner, pageId)
    if (!planHas(owner.plan, 'analytics_share_tokens')) {
      throw forbidden(`Analytics share tokens require ${planLabel(lowestPlanWith('analytics_share_tokens'))} plan or higher`)
    }
    const label = (input.label ?? 'Shared link').trim()
    if (label.length === 0 || label.length > MAX_LABEL) throw badRequest(`label must be 1 to ${MAX_LABEL} characters`)
    if (/[\u0000-\u001f\u007f]/.test(label)) throw badRequest('label must not contain control characters')
    requireWellFormed('label', label)
    const now = this.clock.now()
    let expiresAt: number | null = null
    if (input.expires_at != null && input.expires_at !== '') {
      const parsed = parseRfc3339(input.expires_at)
      if (parsed === undefined) throw badRequest('expires_at must be an RFC 3339 date-time with offset')
      if (parsed <= now) throw badRequest('expires_at must be in the future')
      expiresAt = parsed
    }
    const { n } = await this.repo.countTokensOfPage(pageId)
    if (Number(n) >= MAX_TOKENS_PER_PAGE) throw badRequest(`a page may have at most ${MAX_TOKENS_PER_PAGE} share tokens`)
    const publicId = randomToken(9)
    const secret = randomToken(32)
    const row = await this.repo.insertToken({
      pageId,
      publicId,
      secretHash: await sha256Hex(secret),
      label,
      readOnly: input.read_only ?? true,
      now,
      expiresAt,
    })
    return { token: toShareToken(row, now), secret: `${PREFIX}${publicId}_${secret}` }
  }

  async revoke(owner: Owner, pageId: number, tokenId: number): Promise<ShareToken> {
    await this.ownedPage(owner, pageId)
    const row = await this.repo.revokeToken(pageId, tokenId, this.clock.now())
    if (!row) throw notFound()
    return toShareToken(row, this.clock.now())
  }

  /**
   * The token that opens page `pageId`'s analytics, or a ShareTokenRefused (403). A malformed,
   * unknown or other page's token is `invalid`. `countUse` adds one to its usage count.
   */
  async verify(pageId: number, presented: string, options: { countUse?: boolean } = {}): Promise<ShareToken> {
    const match = TOKEN_PATTERN.exec(presented.trim())
    const row = match ? await this.repo.tokenByPublicId(match[1]!) : undefined
    // Hash even when the id is unknown, so both paths take the same time.
    const hash = await sha256Hex(match?.[2] ?? presented)
    if (!row || !constantTimeEqual(hash, row.secret_hash) || row.page_id !== pageId) throw new ShareTokenRefused('invalid')
    const now = this.clock.now()
    const state = tokenState(row, now)
    if (state !== 'active') throw new ShareTokenRefused(state)
    // Like every plan feature, checked when used: tokens made before a downgrade stop working.
    const plan = await this.repo.ownerPlanOfPage(pageId)
    if (!plan || !planHas(plan, 'analytics_share_tokens')) throw new ShareTokenRefused('plan')
    if (options.countUse) await this.repo.countTokenUse(row.id, now)
    return toShareToken(options.countUse ? { ...row, usage_count: row.usage_count + 1, last_used_at: now } : row, now)
  }
}
