import type { Generated } from 'kysely'

export type AuditActorKind = 'person' | 'api_key' | 'sso' | 'probe' | 'system'

/** Append-only: rows are inserted, and deleted only by the retention pruning of the plan. */
export interface AuditLogTable {
  id: Generated<number>
  team_id: number
  actor_kind: AuditActorKind
  actor_user_id: number | null
  /** Who, as shown: an email, "API key lnt_… (name)", "automatic incidents". */
  actor_label: string
  page_id: number | null
  /** `incidents.create`, `members.update`, … */
  action: string
  object_type: string
  object_id: string | null
  /** The fields that changed (never a secret or a password), as JSON. */
  summary: string
  address: string | null
  client: string | null
  created_at: number
}
