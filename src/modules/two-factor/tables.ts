import type { Generated } from 'kysely'

/** A user's authenticator app: the base32 secret, confirmed once a code was typed. */
export interface TotpFactorsTable {
  user_id: number
  secret: string
  created_at: number
  confirmed_at: number | null
  /** The last 30-second step accepted: a code of it or an earlier step is refused (no replay). */
  last_step: Generated<number>
}

/** Single-use recovery codes, as SHA-256. */
export interface RecoveryCodesTable {
  id: Generated<number>
  user_id: number
  code_hash: string
  used_at: number | null
}

/** A sign-in waiting for its second factor (the password was right); the token is in the browser. */
export interface TwoFactorChallengesTable {
  id: Generated<number>
  user_id: number
  token_hash: string
  created_at: number
  expires_at: number
}
