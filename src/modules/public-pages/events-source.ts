/**
 * The incidents and maintenances modules as the page sees them (`PageEventsSource`). Reads go
 * through their repos for the timelines and affected components; the archive's cursor query (by
 * start time) lives in this module's repo.
 */
import type { Db } from '../../db/client.ts'
import { IncidentsRepo } from '../incidents/repo.ts'
import type { IncidentsService } from '../incidents/service.ts'
import { MaintenancesRepo } from '../maintenances/repo.ts'
import type { MaintenancesService } from '../maintenances/service.ts'
import type { PageEventsSource, PublicIncident, PublicMaintenance } from './events.ts'
import { PublicPagesRepo } from './repo.ts'

export function pageEventsSource(
  db: Db,
  services: { incidents: IncidentsService; maintenances: MaintenancesService },
): PageEventsSource {
  const incidentsRepo = new IncidentsRepo(db)
  const maintenancesRepo = new MaintenancesRepo(db)
  const repo = new PublicPagesRepo(db)

  const hydrateIncidents = async (
    rows: ReadonlyArray<{ id: number; title: string; state: PublicIncident['state']; started_at: number; resolved_at: number | null; created_at: number; updated_at: number }>,
  ): Promise<PublicIncident[]> => {
    const ids = rows.map((row) => row.id)
    const [components, updates] = await Promise.all([incidentsRepo.componentsOf(ids), incidentsRepo.updatesOf(ids)])
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      state: row.state,
      startedAt: row.started_at,
      resolvedAt: row.resolved_at,
      components: components.filter((c) => c.incident_id === row.id).map((c) => ({ id: c.id, name: c.name })),
      updates: updates.filter((u) => u.incident_id === row.id).map((u) => ({ id: u.id, state: u.state, message: u.message, at: u.at })),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }))
  }

  return {
    activeIncidents: (pageId) => services.incidents.activeForPage(pageId),
    incidentHistory: async (pageId, options) => hydrateIncidents(await repo.incidentRows(pageId, options)),
    maintenancesEndingAfter: (pageId, from, limit) => services.maintenances.upcomingForPage(pageId, from, limit),
    maintenancesBetween: async (pageId, from, to): Promise<PublicMaintenance[]> => {
      const rows = await maintenancesRepo.list({ pageId, endingAfter: from, startingBefore: to, limit: 1000 })
      const components = await maintenancesRepo.componentsOf(rows.map((row) => row.id))
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        message: row.message,
        startAt: row.start_at,
        endAt: row.end_at,
        components: components.filter((c) => c.maintenance_id === row.id).map((c) => ({ id: c.id, name: c.name })),
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      }))
    },
    recentMaintenances: (pageId, limit) => services.maintenances.recentForPage(pageId, limit),
  }
}
