import type { Generated } from 'kysely'
import type { ComponentStatus } from '../components/tables.ts'

/** Milliseconds per status and outages started, per component and UTC day (days since the epoch). */
export interface ComponentStatusDailyTable {
  component_id: number
  day: number
  page_id: number
  up_ms: number
  degraded_ms: number
  down_ms: number
  outages: number
  cum_up_ms: number
  cum_degraded_ms: number
  cum_down_ms: number
  cum_outages: number
  /**
   * The longest and shortest down span STARTED on the day and already over (a down change to the
   * next change, whole length even past midnight); 0 / null when none. The SLA report's longest
   * outage and its short outages read these instead of every change of a year.
   */
  longest_down_ms: number
  shortest_down_ms: number | null
}

/** The longest / shortest down span started in a 16-day block of days (block = day / 16) and over. */
export interface ComponentStatusBlocksTable {
  component_id: number
  block: number
  longest_down_ms: number
  shortest_down_ms: number | null
}

export interface PageStatusDailyTable {
  page_id: number
  day: number
  up_ms: number
  degraded_ms: number
  down_ms: number
  outages: number
}

/** The latest status change of a component: the time since is added at read time. */
export interface ComponentStatusCursorTable {
  component_id: number
  page_id: number
  first_day: number
  status: ComponentStatus
  since: number
}

export interface PageViewDailyTable {
  page_id: number
  day: number
  views: number
  uniques: number
  incident_views: number
  incident_uniques: number
}

export interface PageViewVisitorsTable {
  day: number
  page_id: number
  kind: number
  hash: string
}

export interface PageViewSaltsTable {
  day: number
  salt: string
}

export interface AnalyticsShareTokensTable {
  id: Generated<number>
  page_id: number
  public_id: string
  secret_hash: string
  label: string
  read_only: Generated<number>
  created_at: number
  expires_at: number | null
  revoked_at: number | null
  usage_count: Generated<number>
  last_used_at: number | null
}

export interface ComponentResponseDailyTable {
  component_id: number
  day: number
  n: number
  sum_ms: number
  hist: Uint8Array
  cum_n: number
  cum_sum_ms: number
  cum_hist: Uint8Array
}

export interface ComponentResponseCursorTable {
  component_id: number
  page_id: number
  first_day: number
  last_day: number
}

export interface PageResponseDailyTable {
  page_id: number
  day: number
  n: number
  sum_ms: number
  hist: Uint8Array
}
