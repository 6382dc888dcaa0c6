import type { Generated } from 'kysely'

/** A password-reset link mailed to an account: only the SHA-256 of its token is kept. */
export interface PasswordResetsTable {
  id: Generated<number>
  user_id: number
  token_hash: string
  created_at: number
  expires_at: number
  /** When the link was spent (or replaced by a newer link or a reset); null while it is live. */
  used_at: number | null
}
