import type { Generated } from 'kysely'

/** `slack` and `teams`: an incoming webhook of a Slack channel or a Teams Workflows URL, sent messages in that service's format. */
export type SubscriberKind = 'email' | 'webhook' | 'slack' | 'teams'
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
  /** Webhook subscribers: the `whsec_` secret their requests are signed with; null for email. */
  signing_secret: string | null
  /** The language chosen when subscribing (a tag of src/content/locales/); null: the page's default. */
  language: string | null
}

export interface SubscriberSigningKeysTable {
  id: number
  secret: string
  created_at: number
}

/** One event waiting to be expanded into per-subscriber outbox rows (expansion.ts). */
export interface SubscriberFanoutsTable {
  id: Generated<number>
  page_id: number
  event_kind: string
  /** `PendingFanoutPayload` (fanout.ts): the rendered mail and webhook body with a token slot. */
  payload_json: string
  /** The newest subscriber at the event; later sign-ups are not notified of it. */
  upto_subscriber_id: number
  /** Subscribers up to this id have their outbox rows (moved with each batch, in its transaction). */
  last_subscriber_id: Generated<number>
  created_at: number
}
