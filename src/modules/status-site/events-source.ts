/** The incidents and maintenances modules as the page sees them (`PageEventsSource`). */
import type { IncidentsService } from '../incidents/service.ts'
import type { MaintenanceSeriesService, MaintenancesService } from '../maintenances/service.ts'
import type { PageEventsSource } from './events.ts'

export function pageEventsSource(services: { incidents: IncidentsService; maintenances: MaintenancesService; maintenanceSeries: MaintenanceSeriesService }): PageEventsSource {
  return {
    incident: (pageId, id) => services.incidents.forPage(pageId, id),
    incidentHistory: (pageId, options) => services.incidents.historyForPage(pageId, options),
    recentMaintenances: (pageId, limit) => services.maintenances.recentForPage(pageId, limit),
    maintenanceSeries: (pageId) => services.maintenanceSeries.allForPage(pageId),
    cancelledMaintenances: (pageId) => services.maintenances.cancelledForPage(pageId),
  }
}
