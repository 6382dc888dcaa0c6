import type { Generated } from 'kysely'

export type IncidentSource = 'manual' | 'auto'

/** Statuspage's incident impact. */
export type IncidentImpact = 'none' | 'minor' | 'major' | 'critical'

export type IncidentState = 'investigating' | 'identified' | 'monitoring' | 'resolved'

export interface IncidentsTable {
  id: Generated<number>
  page_id: number
  title: string
  state: IncidentState
  started_at: number
  resolved_at: number | null
  created_at: number
  updated_at: number
  /** manual: a person opened it; auto: the automation did (src/modules/auto-incidents). */
  source: Generated<IncidentSource>
  /** The component an automatic incident watches (at most one open per component: a unique index). */
  auto_component_id: Generated<number | null>
  /** When a person first changed an automatic incident: from then on it is theirs. */
  acknowledged_at: Generated<number | null>
  /** 1 when the automation resolved it (a failure soon after may reopen it). */
  auto_resolved: Generated<number>
  /** Since when the watched component has been down (the outage length on recovery). */
  auto_down_since: Generated<number | null>
  /** The postmortem's Markdown (null: none written). */
  postmortem: Generated<string | null>
  postmortem_updated_at: Generated<number | null>
  /** When the postmortem was published (null: a draft, shown to nobody but the owner). */
  postmortem_published_at: Generated<number | null>
  /** The impact its owner chose; null: derived from the worst status of what it affects. */
  impact: Generated<IncidentImpact | null>
}

export interface IncidentComponentsTable {
  incident_id: number
  component_id: number
}

export interface IncidentUpdatesTable {
  id: Generated<number>
  incident_id: number
  state: IncidentState
  message: string
  at: number
}

export interface IncidentTemplatesTable {
  id: Generated<number>
  owner_id: number
  name: string
  title: string
  message: string
  created_at: number
  updated_at: number
}
