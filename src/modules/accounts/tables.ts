import type { Generated } from 'kysely'
import type { Plan } from '../plans/matrix.ts'

export interface UsersTable {
  id: Generated<number>
  email: string
  password_hash: string
  plan: Plan
  is_admin: number
  created_at: number
}

export interface ApiKeysTable {
  id: Generated<number>
  user_id: number
  public_id: string
  secret_hash: string
  name: string
  created_at: number
  last_used_at: number | null
  revoked_at: number | null
}

export interface SessionsTable {
  id: Generated<number>
  user_id: number
  /** SHA-256 of the random session id held in the browser's cookie. */
  token_hash: string
  created_at: number
  expires_at: number
  /** The last authenticated request (recorded at most once a minute); null before the first. */
  last_seen_at: number | null
  /** A short summary of the browser ("Chrome on Linux"), never the raw User-Agent. */
  client: string | null
}

/** The first-run setup token (SHA-256 of it); exists only while there are no users. */
export interface SetupTokensTable {
  id: Generated<number>
  token_hash: string
  created_at: number
}
