import type { Generated } from 'kysely'

export type OutboxKind = 'mail' | 'http'
export type OutboxStatus = 'queued' | 'sent' | 'dead'

export interface OutboxTable {
  id: Generated<number>
  /** Who receives it (contract.ts `Delivery.target`): `channel:<id>`, `subscriber:<id>`, `address:<email>`… */
  target: string
  kind: OutboxKind
  /** `{ mail: OutboundMail }` or `{ request: OutboundRequest }`. */
  payload_json: string
  /** Attempts made so far. */
  attempts: Generated<number>
  next_attempt_at: number
  /** Set while a worker sends the row; a row whose lease ran out is claimed again (at least once). */
  lease_until: number | null
  status: Generated<OutboxStatus>
  last_error: string | null
  created_at: number
  sent_at: number | null
  /** The `webhook-id` of the delivery: the same on every attempt and on "send again"; null for rows from before. */
  message_id: string | null
  /** The delivery this row sends again ("send again" in the delivery log). */
  resend_of: number | null
  /** What the last attempt got: the HTTP status (null: no answer, or mail), the milliseconds it took, when. */
  status_code: number | null
  latency_ms: number | null
  last_attempt_at: number | null
  /** When it was sent or given up (null while queued): the delivery log's retention counts from it. */
  finished_at: number | null
}

export type TargetResult = 'sent' | 'failed' | 'dead'

export interface OutboxTargetsTable {
  target: string
  /** Deliveries that went dead in a row; a success resets it. */
  consecutive_dead: Generated<number>
  disabled_at: number | null
  last_result: TargetResult | null
  last_error: string | null
  last_at: number | null
}

/** Events of a cause that is not complete yet (contract.ts `Notifier.flush`). */
export interface NotifyHeldEventsTable {
  id: Generated<number>
  cause_key: string
  /** The NotifyEvent as JSON. */
  event_json: string
  created_at: number
}

/** The first message of an outage on a chat service that edits messages: what the service named it by (worker.ts). */
export interface OutboxThreadsTable {
  target: string
  /** The outage (`monitor:<id>:<since>`, `component:<id>:<since>`). */
  thread_key: string
  /** The names the service's answer gave the message, e.g. `{"id":"1100…"}` or `{"message_id":42}`. */
  refs_json: string
  created_at: number
}
