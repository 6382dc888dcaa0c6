import type { Generated } from 'kysely'
import type { Plan } from '../plans/matrix.ts'
import type { Role } from '../plans/roles.ts'

export interface TeamsTable {
  id: Generated<number>
  name: string
  plan: Plan
  /** The account whose personal team this is (it cannot be deleted, left or handed over); null for a shared team. */
  personal_of: number | null
  require_two_factor: number
  /** Users signing in through SSO with an address of this domain join with `sso_role`. */
  sso_domain: string | null
  sso_role: Role | null
  created_at: number
}

export interface TeamMembersTable {
  team_id: number
  user_id: number
  role: Role
  created_at: number
}

export interface TeamInvitationsTable {
  id: Generated<number>
  team_id: number
  email: string
  role: Role
  /** SHA-256 of the link's token: the token itself is only in the mail or the copied link. */
  token_hash: string
  invited_by: number | null
  created_at: number
  expires_at: number
  accepted_at: number | null
  revoked_at: number | null
}
