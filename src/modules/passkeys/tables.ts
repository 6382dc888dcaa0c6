import type { Generated } from 'kysely'

/** A user's passkey (a WebAuthn credential): its id and public key, both base64url. */
export interface PasskeysTable {
  id: Generated<number>
  user_id: number
  credential_id: string
  public_key: string
  /** The authenticator's signature counter last seen (0 for authenticators that do not count). */
  sign_count: Generated<number>
  /** The transports the browser reported, comma-separated ('internal,hybrid'). */
  transports: Generated<string>
  name: string
  created_at: number
  last_used_at: number | null
}

/** The challenge of one WebAuthn ceremony, single-use and short-lived. */
export interface PasskeyChallengesTable {
  id: Generated<number>
  challenge: string
  /** 'register' (user set), 'sign-in' (no user: the passkey names them), 'second-factor' (user set). */
  purpose: string
  user_id: number | null
  /** Sign-in only: SHA-256 (hex) of the value in the cookie of the browser that asked for it. */
  browser_hash: string | null
  expires_at: number
}
