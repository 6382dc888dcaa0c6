import type { Generated } from 'kysely'

export type ComponentType = 'site' | 'api' | 'dns'
export type ComponentStatus = 'up' | 'degraded' | 'down'

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
  created_at: number
  updated_at: number
}

export interface ComponentStatusHistoryTable {
  id: Generated<number>
  component_id: number
  status: ComponentStatus
  at: number
}
