import type { Generated } from 'kysely'
import type { Plan } from '../plans/matrix.ts'
import type { Role } from '../plans/roles.ts'

export interface UsersTable {
  id: Generated<number>
  email: string
  password_hash: string
  /** The plan the account had before teams (the down migration restores it); the plan is the team's. */
  plan: Plan
  is_admin: number
  created_at: number
}

export interface ApiKeysTable {
  id: Generated<number>
  user_id: number
  /** The team the key acts in; its member must still be in it. */
  team_id: number | null
  /** Never above the member's role; the lower of the two counts when the member was demoted. */
  role: Generated<Role>
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
  /** The team this browser acts in; null (or a team it left): the personal team. */
  team_id: Generated<number | null>
  /** A short summary of the browser ("Chrome on Linux"), never the raw User-Agent. */
  client: string | null
}

/** The first-run setup token (SHA-256 of it); exists only while there are no users. */
export interface SetupTokensTable {
  id: Generated<number>
  token_hash: string
  created_at: number
}
