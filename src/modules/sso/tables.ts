import type { Generated } from 'kysely'

/** A provider's account (issuer and subject) linked to a Lantern account. */
export interface SsoIdentitiesTable {
  id: Generated<number>
  issuer: string
  subject: string
  user_id: number
  /** The verified address the link was made by (the account's address at the time). */
  email: string
  created_at: number
  last_sign_in_at: number
}

/** A sign-in gone to the provider and not yet back: single use, found by the SHA-256 of the browser's cookie. */
export interface SsoLoginsTable {
  id: Generated<number>
  token_hash: string
  state: string
  nonce: string
  /** The PKCE code verifier: only its challenge went to the provider. */
  code_verifier: string
  /** Where the browser goes once signed in (a local path). */
  next_path: string
  created_at: number
  expires_at: number
}
