/**
 * Users and API keys. Passwords are argon2id hashes; API keys are `lnt_<public id>_<secret>` where
 * only a SHA-256 of the secret is stored. The secret is 32 random bytes, so a fast hash is enough
 * (no dictionary to guess from) and keeps every authenticated request cheap.
 */
import { badRequest, notFound } from '../../lib/errors.ts'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { hashPassword } from '../../lib/password.ts'
import { isPlan, PLANS, type Plan } from '../plans/matrix.ts'
import type { AccountsRepo } from './repo.ts'

export interface User {
  id: number
  email: string
  plan: Plan
  isAdmin: boolean
  createdAt: number
}

export interface ApiKeyInfo {
  id: number
  name: string
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
}

const KEY_PREFIX = 'lnt_'
const PUBLIC_ID_LENGTH = 12 // 9 random bytes, base64url
const SECRET_LENGTH = 43 // 32 random bytes, base64url
const KEY_PATTERN = /^lnt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/
/** Writing last_used_at on every request would turn reads into writes; once a minute is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase()
  if (email.length === 0) throw badRequest('email is required')
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw badRequest('email is not a valid address')
  return email
}

export function parsePlan(raw: string): Plan {
  if (!isPlan(raw)) throw badRequest(`plan must be one of ${PLANS.join(', ')}`)
  return raw
}

function toUser(row: { id: number; email: string; plan: Plan; is_admin: number; created_at: number }): User {
  return { id: row.id, email: row.email, plan: row.plan, isAdmin: row.is_admin === 1, createdAt: row.created_at }
}

export class AccountsService {
  constructor(
    private readonly repo: AccountsRepo,
    private readonly clock: Clock,
    private readonly changes: ChangeFeed,
    private readonly defaultPlan: Plan,
  ) {}

  async createUser(input: { email: string; password: string; plan?: string; isAdmin?: boolean }): Promise<User> {
    const email = normalizeEmail(input.email)
    if (input.password.length < 8) throw badRequest('password must be at least 8 characters')
    if (input.password.length > 1024) throw badRequest('password must be at most 1024 characters')
    const plan = input.plan === undefined ? this.defaultPlan : parsePlan(input.plan)
    if (await this.repo.findUserByEmail(email)) throw badRequest('a user with this email already exists')
    const row = await this.repo.insertUser({
      email,
      passwordHash: await hashPassword(input.password),
      plan,
      isAdmin: input.isAdmin ?? false,
      now: this.clock.now(),
    })
    return toUser(row)
  }

  async findUserByEmail(rawEmail: string): Promise<User> {
    const row = await this.repo.findUserByEmail(normalizeEmail(rawEmail))
    if (!row) throw notFound('no user with this email')
    return toUser(row)
  }

  /** Changes a user's plan; every page of the user is re-evaluated by the caches at once. */
  async setPlan(rawEmail: string, rawPlan: string): Promise<User> {
    const plan = parsePlan(rawPlan)
    const user = await this.findUserByEmail(rawEmail)
    const row = await this.repo.updatePlan(user.id, plan)
    for (const page of await this.repo.listPageIdsOfOwner(user.id)) this.changes.pageChanged(page.id)
    return toUser(row)
  }

  /** Creates an API key and returns it in full; this is the only time the secret is seen. */
  async createApiKey(userId: number, rawName: string | undefined): Promise<{ key: string; info: ApiKeyInfo }> {
    const name = (rawName ?? 'default').trim()
    if (name.length === 0 || name.length > 100) throw badRequest('name must be 1 to 100 characters')
    const publicId = randomToken(9)
    const secret = randomToken(32)
    const row = await this.repo.insertApiKey({
      userId,
      publicId,
      secretHash: await sha256Hex(secret),
      name,
      now: this.clock.now(),
    })
    return { key: `${KEY_PREFIX}${publicId}_${secret}`, info: toKeyInfo(row) }
  }

  /** The user a presented API key belongs to, or undefined for anything malformed, unknown or revoked. */
  async authenticateApiKey(presented: string): Promise<User | undefined> {
    if (!KEY_PATTERN.test(presented)) return undefined
    const publicId = presented.slice(KEY_PREFIX.length, KEY_PREFIX.length + PUBLIC_ID_LENGTH)
    const secret = presented.slice(KEY_PREFIX.length + PUBLIC_ID_LENGTH + 1)
    if (secret.length !== SECRET_LENGTH) return undefined
    const row = await this.repo.findActiveKeyWithUser(publicId)
    // Hash even when the id is unknown, so both paths take the same time.
    const presentedHash = await sha256Hex(secret)
    if (!row || !constantTimeEqual(presentedHash, row.secret_hash)) return undefined
    const now = this.clock.now()
    if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
      await this.repo.touchApiKey(row.key_id, now)
    }
    return toUser(row)
  }

  async listApiKeys(userId: number): Promise<ApiKeyInfo[]> {
    return (await this.repo.listApiKeys(userId)).map(toKeyInfo)
  }

  async revokeApiKey(userId: number, keyId: number): Promise<void> {
    const result = await this.repo.revokeApiKey(userId, keyId, this.clock.now())
    if (result.numUpdatedRows === 0n) throw notFound()
  }
}

function toKeyInfo(row: {
  id: number
  name: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  }
}
