/**
 * What a status page shows besides its components: incidents and maintenance windows. The page
 * reads them through this small interface so the rendering does not depend on how they are
 * stored; `app.ts` plugs in the incidents and maintenances modules.
 */
export type PublicIncidentState = 'investigating' | 'identified' | 'monitoring' | 'resolved'

export interface PublicIncident {
  id: number
  title: string
  state: PublicIncidentState
  startedAt: number
  resolvedAt: number | null
  /** Affected components; empty means the whole page. */
  components: Array<{ id: number; name: string }>
  /** The timeline, oldest first. */
  updates: Array<{ id: number; state: PublicIncidentState; message: string; at: number }>
  createdAt: number
  updatedAt: number
}

export interface PublicMaintenance {
  id: number
  title: string
  message: string
  startAt: number
  endAt: number
  components: Array<{ id: number; name: string }>
  createdAt: number
  updatedAt: number
}

export interface PageEventsSource {
  /** Incidents that are not resolved, newest first. */
  activeIncidents(pageId: number): Promise<PublicIncident[]>
  /** One incident of the page, or undefined when the id belongs to no incident of this page. */
  incident(pageId: number, id: number): Promise<PublicIncident | undefined>
  /** Incidents (any state) that started before `before` (exclusive, when given), newest first. */
  incidentHistory(pageId: number, options: { before?: number; since?: number; limit: number }): Promise<PublicIncident[]>
  /** Maintenance windows that end after `from`, soonest first. */
  maintenancesEndingAfter(pageId: number, from: number, limit: number): Promise<PublicMaintenance[]>
  /** Maintenance windows overlapping [from, to), for leaving them out of uptime. */
  maintenancesBetween(pageId: number, from: number, to: number): Promise<PublicMaintenance[]>
  /** Recently changed incidents and maintenance windows, newest change first (for the feeds). */
  recentMaintenances(pageId: number, limit: number): Promise<PublicMaintenance[]>
}

/** A page without incidents or maintenance. */
export const noPageEvents: PageEventsSource = {
  activeIncidents: async () => [],
  incident: async () => undefined,
  incidentHistory: async () => [],
  maintenancesEndingAfter: async () => [],
  maintenancesBetween: async () => [],
  recentMaintenances: async () => [],
}
