import type { Generated } from 'kysely'

export interface NotificationChannelsTable {
  id: Generated<number>
  owner_id: number
  type: string
  name: string
  config_json: string
  events_json: string
  all_pages: Generated<number>
  /** 1: hears the events of every monitor of the owner, not only of monitors that picked it. */
  all_monitors: Generated<number>
  enabled: Generated<number>
  verified_at: number | null
  verify_token_hash: string | null
  verify_expires_at: number | null
  verify_last_sent_at: number | null
  verify_window_start: number | null
  verify_window_count: Generated<number>
  test_requested_at: number | null
  disabled_at: number | null
  disabled_reason: string | null
  created_at: number
  updated_at: number
}

export interface NotificationChannelPagesTable {
  channel_id: number
  page_id: number
}

export interface MaintenanceNoticesTable {
  maintenance_id: number
  phase: 'started' | 'ended'
  at: number
}
