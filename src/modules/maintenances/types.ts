/**
 * What a maintenance window is and the limits on its fields, read by both the request schemas
 * (model.ts) and the service.
 */
/** Longest title and message, after trimming. */
export const MAX_TITLE = 200
export const MAX_MESSAGE = 10_000

/** Statuspage's maintenance update statuses, the label an update is posted under. */
export const MAINTENANCE_UPDATE_STATUSES = ['scheduled', 'in_progress', 'verifying', 'completed'] as const
export type MaintenanceUpdateStatus = (typeof MAINTENANCE_UPDATE_STATUSES)[number]

/** One entry of a window's timeline. */
export interface MaintenanceUpdate {
  id: number
  status: MaintenanceUpdateStatus
  /** Markdown (the owners' safe subset). */
  message: string
  at: number
}

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
  /** Subscribers are told when it is scheduled, starts and ends (set when it is made; the owner's reads say it). */
  notifySubscribers?: boolean
  /** Raised by every change (iCalendar SEQUENCE). */
  sequence: number
  /** The window's timeline, newest first. */
  updates: MaintenanceUpdate[]
  createdAt: number
  updatedAt: number
}

/**
 * A deleted one-off window or a cancelled series stays in the calendar feed, cancelled, until this
 * long after the later of its end and its deletion: a calendar that refreshes at least this often
 * removes it, and one that imported it long ago still hears of it while it is to come.
 */
export const CANCELLED_SHOWN_MS = 30 * 86_400_000

/** Until when a cancelled event is in the calendar feed (`end` undefined: it has no end). */
export const cancelledShownUntil = (cancelledAt: number, end: number | undefined): number =>
  end === undefined ? Number.POSITIVE_INFINITY : Math.max(cancelledAt, end) + CANCELLED_SHOWN_MS

/** A deleted one-off window as the calendar feed shows it: cancelled, with no more than that needs. */
export interface MaintenanceCancellation {
  id: number
  title: string
  startAt: number
  endAt: number
  sequence: number
  deletedAt: number
}
