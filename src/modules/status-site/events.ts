/**
 * What a status page shows besides its current status (status-pipeline): the incident archive, one
 * incident and past maintenance windows. The page reads them through this small interface so the
 * rendering does not depend on how they are stored; `events-source.ts` plugs in the incidents and
 * maintenances modules.
 */
import type { Incident } from '../incidents/service.ts'
import type { Maintenance, MaintenanceCancellation, MaintenanceSeries } from '../maintenances/service.ts'

/**
 * An incident as the page shows it: the incidents module's own shape (the page id is implied; the
 * automation's bookkeeping stays the owner's), with the postmortem only once published (the open
 * incidents of the status snapshot carry none).
 */
export type PublicIncident = Omit<Incident, 'pageId' | 'automatic' | 'postmortem'> & { postmortem?: Incident['postmortem'] }

/** A maintenance window as the page shows it (the page id is implied). */
export type PublicMaintenance = Omit<Maintenance, 'pageId'>

/** A recurring maintenance as the page shows it. */
export type PublicMaintenanceSeries = Omit<MaintenanceSeries, 'pageId' | 'notifySubscribers'>

export interface PageEventsSource {
  /** One incident of the page, or undefined when the id belongs to no incident of this page. */
  incident(pageId: number, id: number): Promise<PublicIncident | undefined>
  /** Incidents (any state) that started before `before` (exclusive, when given), newest first. */
  incidentHistory(pageId: number, options: { before?: number; since?: number; limit: number }): Promise<PublicIncident[]>
  /** Maintenance windows of any phase, newest start first (for the feeds). */
  recentMaintenances(pageId: number, limit: number): Promise<PublicMaintenance[]>
  /** Recurring maintenance of the page, cancelled series included, newest first (for the calendar feed). */
  maintenanceSeries(pageId: number): Promise<PublicMaintenanceSeries[]>
  /** Deleted one-off windows the calendar feed still shows, cancelled (nothing else shows them). */
  cancelledMaintenances(pageId: number): Promise<MaintenanceCancellation[]>
}

