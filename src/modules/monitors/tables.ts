import type { Generated } from 'kysely'
import type { MonitorState } from './state.ts'

/** The API's types: keyword and json are HTTP checks with a keyword or conditions. */
export type StoredMonitorType = 'http' | 'keyword' | 'json' | 'tcp' | 'dns' | 'tls' | 'push'

export interface MonitorsTable {
  id: Generated<number>
  owner_id: number
  page_id: number | null
  component_id: number | null
  name: string
  type: StoredMonitorType
  /** URL (http, keyword, json), host:port (tcp), host or host:port (tls), name (dns); null for push. */
  target: string | null
  /** The type's options, with the API's field names (model.ts). */
  options_json: string
  interval_s: number
  timeout_ms: number
  retries: number
  retry_interval_ms: number
  confirm_failures: number
  confirm_successes: number
  degraded_after_ms: number | null
  enabled: number
  state: MonitorState
  state_since: number
  flapping: number
  history: string
  /** Created or last resumed: a push monitor counts silence from here. */
  watching_since: number
  next_run_at: number
  /** The scheduler (one per process) that claimed the due run, and until when (scheduler.ts). */
  lease_owner: string | null
  lease_until: number | null
  last_check_at: number | null
  last_outcome: string | null
  last_response_ms: number | null
  last_message: string | null
  push_token_hash: string | null
  last_push_at: number | null
  created_at: number
  updated_at: number
}

export interface MonitorResultsTable {
  id: Generated<number>
  monitor_id: number
  at: number
  outcome: string
  response_ms: number | null
  status_code: number | null
  attempts: number
  message: string
}

export interface MonitorStateChangesTable {
  id: Generated<number>
  monitor_id: number
  state: string
  at: number
}
