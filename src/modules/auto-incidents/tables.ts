/** The tables of automatic incidents (migration 2026_11_28_0600). */
export interface AutoIncidentSettingsTable {
  page_id: number
  auto_incidents: number
  notify: number
  auto_resolve: number
  updated_at: number
}

export interface AutoIncidentComponentsTable {
  component_id: number
  /** When automatic incidents were turned on for the component: the oldest N stay on after a downgrade. */
  enabled_at: number
}
