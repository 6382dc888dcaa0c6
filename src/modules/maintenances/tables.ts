import type { Generated } from 'kysely'

export interface MaintenancesTable {
  id: Generated<number>
  page_id: number
  title: string
  message: Generated<string>
  start_at: number
  end_at: number
  created_at: number
  updated_at: number
  notify_subscribers: Generated<number>
  /** The series this window is an occurrence of (null: a one-off window). */
  series_id: Generated<number | null>
  /** The occurrence's local date in the series' zone (YYYY-MM-DD). */
  occurrence_on: Generated<string | null>
  /** Changes a calendar client must see (iCalendar SEQUENCE). */
  sequence: Generated<number>
}

export interface MaintenanceComponentsTable {
  maintenance_id: number
  component_id: number
}

export interface MaintenanceSeriesTable {
  id: Generated<number>
  page_id: number
  title: string
  message: Generated<string>
  time_zone: string
  /** First local date (YYYY-MM-DD) and local start time (HH:MM) in `time_zone`. */
  starts_on: string
  start_time: string
  duration_minutes: number
  frequency: 'daily' | 'weekly' | 'monthly'
  repeat_interval: Generated<number>
  /** Weekly: comma-separated MO..SU (empty: the weekday of `starts_on`). */
  weekdays: Generated<string>
  /** Monthly: day of the month (null: the day of `starts_on`). */
  month_day: number | null
  until_on: string | null
  count: number | null
  /** Skipped local dates, comma-separated YYYY-MM-DD. */
  exceptions: Generated<string>
  notify_subscribers: Generated<number>
  sequence: Generated<number>
  cancelled_at: number | null
  created_at: number
  updated_at: number
}

export interface MaintenanceSeriesComponentsTable {
  series_id: number
  component_id: number
}

import type { MaintenanceUpdateStatus } from './types.ts'

/** A message on one window's timeline (for a series: on one occurrence). */
export interface MaintenanceUpdatesTable {
  id: Generated<number>
  maintenance_id: number
  status: MaintenanceUpdateStatus
  message: string
  at: number
}

/** What is left of a deleted one-off window for the calendar feed (its cancelled event). */
export interface MaintenanceCancellationsTable {
  /** The deleted window's id (its calendar UID is made of it). */
  maintenance_id: number
  page_id: number
  title: string
  start_at: number
  end_at: number
  /** The window's SEQUENCE when it was deleted, plus one. */
  sequence: number
  deleted_at: number
}
