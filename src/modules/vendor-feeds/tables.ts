/** A component fed by a third party's Statuspage-v2 summary (one feed per component). */
export type VendorFeedState = 'pending' | 'ok' | 'unknown'

export interface VendorFeedsTable {
  component_id: number
  page_id: number
  /** The summary's URL (https://status.example.com/api/v2/summary.json). */
  url: string
  /** A component of the feed (its id or name); null follows the vendor's whole page. */
  vendor_component: string | null
  /** pending until the first read; ok when the last read was a summary; unknown when it was not. */
  state: VendorFeedState
  /** Why the last read failed (unknown), else null. */
  reason: string | null
  /** The vendor page's name, from the last good read. */
  vendor_name: string | null
  /** The vendor's unresolved incidents at the last good read: JSON `[{name, status, impact, url}]`. */
  incidents_json: string
  checked_at: number | null
  /** The claim and the schedule: the next read is due then. */
  next_check_at: number
  created_at: number
  updated_at: number
}
