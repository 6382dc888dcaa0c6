import type { Generated } from 'kysely'

export interface EmailAuthReportsTable {
  monitor_id: number
  domain: string
  /** "SPF pass, DKIM warning, DMARC pass": what a change notice compares. */
  summary: string
  /** The EmailAuthReport (model.ts) as JSON. */
  report_json: string
  checked_at: number
  /** When the summary last changed (or the first report). */
  changed_at: number
}
