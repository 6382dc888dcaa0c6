import type { Generated } from 'kysely'

export interface MaintenancesTable {
  id: Generated<number>
  page_id: number
  title: string
  message: Generated<string>
  start_at: number
  end_at: number
  created_at: number
  updated_at: number
  notify_subscribers: Generated<number>
}

export interface MaintenanceComponentsTable {
  maintenance_id: number
  component_id: number
}
