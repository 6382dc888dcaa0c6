import type { Generated } from 'kysely'

export interface CheckResultsTable {
  id: Generated<number>
  component_id: number
  at: number
  ok: number
  response_ms: number | null
}

/** A roll-up bucket: `minute` or `day` is the bucket's start (epoch ms, UTC). */
interface BucketColumns {
  component_id: number
  checks: number
  ok_checks: number
  timed_checks: number
  response_ms_sum: number
  response_ms_max: number | null
}

export interface CheckMinutesTable extends BucketColumns {
  minute: number
}

export interface CheckDaysTable extends BucketColumns {
  day: number
}

/** The minute buckets of a page's components summed per page and minute (kept by triggers). */
export interface PageCheckMinutesTable {
  page_id: number
  minute: number
  checks: number
  timed_checks: number
  response_ms_sum: number
}
