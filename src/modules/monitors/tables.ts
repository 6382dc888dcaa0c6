import type { ColumnType, Generated } from 'kysely'
import type { MonitorState } from './run/state.ts'

/** The API's types: keyword and json are HTTP checks with a keyword or conditions. */
export type StoredMonitorType = 'http' | 'keyword' | 'json' | 'tcp' | 'dns' | 'tls' | 'push' | 'ssl' | 'dnsbl' | 'email_auth' | 'domain_expiry' | 'ping'
  | 'redis' | 'postgres' | 'websocket' | 'smtp'

export interface MonitorsTable {
  id: Generated<number>
  owner_id: number
  page_id: number | null
  component_id: number | null
  name: string
  type: StoredMonitorType
  /** URL (http, keyword, json), host:port (tcp), host or host:port (tls, ssl), name (dns), IP or domain (dnsbl), domain (email_auth, domain_expiry), host (ping), host[:port] or URL (redis, postgres, smtp), ws(s) URL (websocket); null for push. */
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
  /** A push monitor's job called /start and has not ended the run (success or /fail) yet. */
  push_started_at: ColumnType<number | null, number | null | undefined, number | null>
  /** JSON list of region names that run it (default ["local"]: the server itself). */
  regions_json: Generated<string>
  /** Down when at least this many of its regions are down (k of n; default 1). */
  regions_required_down: Generated<number>
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
  /** Null: the server's own run (region `local`); else the probe's region. */
  region: ColumnType<string | null, string | null | undefined, string | null>
}

/** Each region's own state of a monitor with regions other than just `local` (regions.ts). */
export interface MonitorRegionStatesTable {
  monitor_id: number
  region: string
  state: MonitorState
  state_since: number
  flapping: number
  history: string
  last_scheduled_at: number
  last_check_at: number
  last_outcome: string
  last_response_ms: number | null
  last_message: string
}

export interface MonitorStateChangesTable {
  id: Generated<number>
  monitor_id: number
  state: string
  at: number
}

/** SSL and DNSBL monitors: the last report and what was announced (tool-state.ts). */
export interface MonitorToolStatesTable {
  monitor_id: number
  report_json: string
  checked_at: number
  /** SSL: the certificate last seen, and the latest notAfter ever seen (a renewal moves it forward). */
  cert_fingerprint: string | null
  cert_not_after: number | null
  /** SSL: expiry thresholds (days) already announced, comma-separated ("30,15"). */
  expiry_notified: string
  /** DNSBL: JSON list of "address zone" pairs currently listed. */
  listed_json: string
}

/** A monitor (`monitor_id`) depends on another (`parent_id`): while the parent is down it is unreachable (run/dependencies.ts). */
export interface MonitorDependenciesTable {
  monitor_id: number
  parent_id: number
}
