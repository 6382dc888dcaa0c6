import type { Generated } from 'kysely'

export interface PageAccessTable {
  page_id: number
  /** argon2id hash of the gate password of a private page. */
  password_hash: string | null
  /** SHA-256 of the read-only embed token (`auth_token`) of a private page. */
  embed_token_hash: string | null
  updated_at: number
}

export interface PageAccessSessionsTable {
  id: Generated<number>
  page_id: number
  /** The host the session was opened on: a cookie is only good there. */
  host: string
  token_hash: string
  created_at: number
  expires_at: number
}
