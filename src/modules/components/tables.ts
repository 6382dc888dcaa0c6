import type { Generated } from 'kysely'

/**
 * How a stored status counts in time accounting (uptime, SLA, analytics roll-ups): a partial
 * outage counts as degraded (part of the service answered), so an SLA policy's `degraded_counts_as`
 * decides for it too.
 */
export const TIME_COUNTED_AS: Readonly<Record<ComponentStatus, 'up' | 'degraded' | 'down'>> = { up: 'up', degraded: 'degraded', partial: 'degraded', down: 'down' }

export type ComponentType = 'site' | 'api' | 'dns'
/** Stored words: partial is a partial outage (part of the service down), set only by people. */
export type ComponentStatus = 'up' | 'degraded' | 'partial' | 'down'

export interface ComponentsTable {
  id: Generated<number>
  page_id: number
  name: string
  type: ComponentType
  group_name: string | null
  status: ComponentStatus
  position: number
  /** 1: the owner set the status by hand on a monitored component; monitors leave it alone. */
  status_override: Generated<number>
  /** Markdown shown under the name on the public page ('' for none). */
  description: Generated<string>
  created_at: number
  updated_at: number
}

export interface ComponentStatusHistoryTable {
  id: Generated<number>
  component_id: number
  status: ComponentStatus
  at: number
}

/** A correction of the status history over [from_at, to_at) (see db/migrations/2026_11_30_0600_create_status_corrections.ts). */
export interface ComponentStatusCorrectionsTable {
  id: Generated<number>
  component_id: number
  from_at: number
  to_at: number
  status: ComponentStatus
  reason: string
  user_id: number | null
  user_email: string
  /** `{ before: {status, at} | null, changes: [{status, at}] }`: what the span held before. */
  replaced_json: string
  created_at: number
}
