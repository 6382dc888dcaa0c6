/**
 * What a maintenance window is and the limits on its fields, read by both the request schemas
 * (model.ts) and the service.
 */
/** Longest title and message, after trimming. */
export const MAX_TITLE = 200
export const MAX_MESSAGE = 10_000

export interface Maintenance {
  id: number
  pageId: number
  title: string
  message: string
  startAt: number
  endAt: number
  components: Array<{ id: number; name: string }>
  /** The recurring series this window is an occurrence of (null: a one-off). */
  seriesId: number | null
  /** Raised by every change (iCalendar SEQUENCE). */
  sequence: number
  createdAt: number
  updatedAt: number
}
