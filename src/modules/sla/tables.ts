export type SlaPeriod = 'month' | 'quarter' | 'year'
export type DegradedCountsAs = 'up' | 'down' | 'half'

export interface SlaTargetsTable {
  component_id: number
  page_id: number
  /** Parts per million: 999000 = 99.9 %. */
  target_ppm: number
  period: SlaPeriod
  degraded_counts_as: DegradedCountsAs
  exclude_maintenance: number
  min_outage_s: number
  breach_alerts: number
  /** 1: the period's budget and what is left are shown on the public page and in the status JSON. */
  public_budget: number
  created_at: number
  updated_at: number
}

export interface SlaAlertsTable {
  component_id: number
  period_start: number
  threshold: number
  used_pct: number
  sent_at: number
}

export interface SlaPageSettingsTable {
  page_id: number
  monthly_report: number
  updated_at: number
}

export interface SlaMonthlyMailsTable {
  page_id: number
  month_start: number
  sent_at: number
}
