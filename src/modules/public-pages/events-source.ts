/** The incidents and maintenances modules as the page sees them (`PageEventsSource`). */
import type { IncidentsService } from '../incidents/service.ts'
import type { MaintenancesService } from '../maintenances/service.ts'
import type { PageEventsSource } from './events.ts'

export function pageEventsSource(services: { incidents: IncidentsService; maintenances: MaintenancesService }): PageEventsSource {
  return {
    activeIncidents: (pageId) => services.incidents.activeForPage(pageId),
    incident: (pageId, id) => services.incidents.forPage(pageId, id),
    incidentHistory: (pageId, options) => services.incidents.historyForPage(pageId, options),
    maintenancesEndingAfter: (pageId, from, limit) => services.maintenances.upcomingForPage(pageId, from, limit),
    maintenancesBetween: (pageId, from, to) => services.maintenances.betweenForPage(pageId, from, to),
    recentMaintenances: (pageId, limit) => services.maintenances.recentForPage(pageId, limit),
  }
}
