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
