import type { Generated } from 'kysely'

export type ImageType = 'png' | 'jpeg' | 'svg' | 'ico'

export interface PageAppearanceTable {
  page_id: number
  /** JSON of the owner's light palette ({primary, secondary, accent, background, text}); null = defaults. */
  palette_json: string | null
  custom_css: string | null
  favicon: Uint8Array | null
  favicon_type: ImageType | null
  logo: Uint8Array | null
  logo_type: ImageType | null
  updated_at: number
}

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
