import type { Generated } from 'kysely'

export type SubscriberKind = 'email' | 'webhook'
export type SubscriberSource = 'self' | 'owner' | 'import'

export interface SubscribersTable {
  id: Generated<number>
  page_id: number
  kind: SubscriberKind
  email: string | null
  url: string | null
  /** JSON array of component ids; null: every component. */
  component_ids: string | null
  source: SubscriberSource
  confirm_token_hash: string | null
  confirm_expires_at: number | null
  confirmed_at: number | null
  manage_key: string
  /** Last confirmation or reminder mail sent from the public form (throttles them). */
  notice_sent_at: number | null
  unsubscribed_at: number | null
  unsubscribe_reason: string | null
  created_at: number
}

export interface SubscriberSigningKeysTable {
  id: number
  secret: string
  created_at: number
}
