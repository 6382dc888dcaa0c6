/**
 * What a component is and the limits on its fields, read by both the request schemas (model.ts) and
 * the service.
 */
import type { ComponentStatus, ComponentType } from './tables.ts'

export const MAX_HISTORY_IMPORT = 10_000

export interface Component {
  id: number
  pageId: number
  name: string
  type: ComponentType
  group: string | null
  status: ComponentStatus
  /** The owner set the status by hand on a monitored component: monitors leave it alone until cleared. */
  statusOverride: boolean
  /** Markdown shown under the name on the public page ('' for none). */
  description: string
  position: number
  createdAt: number
  updatedAt: number
}

/** Longest component and group names, after trimming. */
export const MAX_COMPONENT_NAME = 100
export const MAX_GROUP_NAME = 100
/** Longest component description (Markdown), after trimming. */
export const MAX_COMPONENT_DESCRIPTION = 500

export interface StatusChange {
  status: ComponentStatus
  at: number
}

/** A correction of the status history, as recorded: who, when, why, and what the span held before. */
export interface StatusCorrection {
  id: number
  componentId: number
  from: number
  to: number
  status: ComponentStatus
  reason: string
  by: string
  at: number
  replaced: { before: StatusChange | null; changes: StatusChange[] }
}
