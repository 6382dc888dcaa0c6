import type { Generated } from 'kysely'

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
