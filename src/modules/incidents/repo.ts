import type { Db } from '../../db/client.ts'
import type { IncidentImpact, IncidentState } from './tables.ts'

/** What an update may change on an incident row. */
export interface IncidentRowChanges {
  title?: string
  postmortem?: string | null
  postmortem_updated_at?: number | null
  postmortem_published_at?: number | null
  state?: IncidentState
  resolved_at?: number | null
  acknowledged_at?: number
  auto_resolved?: number
  auto_down_since?: number
  impact?: IncidentImpact | null
}

export interface IncidentFilter {
  ownerId?: number
  pageId?: number
  state?: IncidentState
  /** Only incidents that started before this time (exclusive): the archive's cursor. */
  startedBefore?: number
  /** Only incidents that started at or after this time. */
  startedSince?: number
  limit: number
}

export class IncidentsRepo {
  /** The connection or transaction this repo writes with (producers emit their events on it). */
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: IncidentsRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new IncidentsRepo(trx)))
  }

  /** Incidents newest first, with the owner of their page. */
  list(filter: IncidentFilter) {
    let query = this.db
      .selectFrom('incidents')
      .innerJoin('status_pages', 'status_pages.id', 'incidents.page_id')
      .selectAll('incidents')
      .select('status_pages.owner_id')
    if (filter.ownerId !== undefined) query = query.where('status_pages.owner_id', '=', filter.ownerId)
    if (filter.pageId !== undefined) query = query.where('incidents.page_id', '=', filter.pageId)
    if (filter.state !== undefined) query = query.where('incidents.state', '=', filter.state)
    if (filter.startedBefore !== undefined) query = query.where('incidents.started_at', '<', filter.startedBefore)
    if (filter.startedSince !== undefined) query = query.where('incidents.started_at', '>=', filter.startedSince)
    return query.orderBy('incidents.started_at', 'desc').orderBy('incidents.id', 'desc').limit(filter.limit).execute()
  }

  /** The newest automatic incident that watches the component. */
  latestAutomatic(componentId: number) {
    return this.db
      .selectFrom('incidents')
      .innerJoin('status_pages', 'status_pages.id', 'incidents.page_id')
      .selectAll('incidents')
      .select('status_pages.owner_id')
      .where('incidents.source', '=', 'auto')
      .where('incidents.auto_component_id', '=', componentId)
      .orderBy('incidents.id', 'desc')
      .limit(1)
      .executeTakeFirst()
  }

  findWithOwner(id: number) {
    return this.db
      .selectFrom('incidents')
      .innerJoin('status_pages', 'status_pages.id', 'incidents.page_id')
      .selectAll('incidents')
      .select('status_pages.owner_id')
      .where('incidents.id', '=', id)
      .executeTakeFirst()
  }

  /** Affected components of the given incidents (id, name, page position order). */
  componentsOf(incidentIds: readonly number[]) {
    if (incidentIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('incident_components')
      .innerJoin('components', 'components.id', 'incident_components.component_id')
      .select(['incident_components.incident_id', 'components.id', 'components.name', 'components.status'])
      .where('incident_components.incident_id', 'in', incidentIds)
      .orderBy('components.position')
      .orderBy('components.id')
      .execute()
  }

  /** The statuses of every component of the given pages (what a whole-page incident affects). */
  componentStatusesOfPages(pageIds: readonly number[]) {
    if (pageIds.length === 0) return Promise.resolve([])
    return this.db.selectFrom('components').select(['page_id', 'status']).where('page_id', 'in', pageIds).execute()
  }

  /** The timeline of the given incidents, oldest first. */
  updatesOf(incidentIds: readonly number[]) {
    if (incidentIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('incident_updates')
      .select(['id', 'incident_id', 'state', 'message', 'at'])
      .where('incident_id', 'in', incidentIds)
      .orderBy('at')
      .orderBy('id')
      .execute()
  }

  /** The components among `ids` that belong to page `pageId`. */
  componentsOnPage(pageId: number, ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('components')
      .select(['id', 'name', 'page_id'])
      .where('page_id', '=', pageId)
      .where('id', 'in', ids)
      .execute()
  }

  /** A component with its page and the page's owner, for "component_id" without a page. */
  componentWithOwner(id: number) {
    return this.db
      .selectFrom('components')
      .innerJoin('status_pages', 'status_pages.id', 'components.page_id')
      .select(['components.id', 'components.page_id', 'status_pages.owner_id'])
      .where('components.id', '=', id)
      .executeTakeFirst()
  }

  insert(incident: {
    pageId: number
    title: string
    state: IncidentState
    startedAt: number
    now: number
    impact?: IncidentImpact | null
    /** An automatic incident: the component it watches and since when that is down. */
    automatic?: { componentId: number; downSince: number }
  }) {
    return this.db
      .insertInto('incidents')
      .values({
        page_id: incident.pageId,
        title: incident.title,
        state: incident.state,
        started_at: incident.startedAt,
        resolved_at: incident.state === 'resolved' ? incident.now : null,
        impact: incident.impact ?? null,
        created_at: incident.now,
        updated_at: incident.now,
        ...(incident.automatic
          ? { source: 'auto' as const, auto_component_id: incident.automatic.componentId, auto_down_since: incident.automatic.downSince }
          : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(id: number, changes: IncidentRowChanges, now: number) {
    return this.db
      .updateTable('incidents')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  async setComponents(incidentId: number, componentIds: readonly number[]) {
    await this.db.deleteFrom('incident_components').where('incident_id', '=', incidentId).execute()
    if (componentIds.length === 0) return
    await this.db
      .insertInto('incident_components')
      .values(componentIds.map((componentId) => ({ incident_id: incidentId, component_id: componentId })))
      .execute()
  }

  insertUpdate(update: { incidentId: number; state: IncidentState; message: string; at: number }) {
    return this.db
      .insertInto('incident_updates')
      .values({ incident_id: update.incidentId, state: update.state, message: update.message, at: update.at })
      .returning('id')
      .executeTakeFirstOrThrow()
  }

  delete(id: number) {
    return this.db.deleteFrom('incidents').where('id', '=', id).execute()
  }

  // Templates

  listTemplates(ownerId: number) {
    return this.db.selectFrom('incident_templates').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute()
  }

  findTemplate(id: number) {
    return this.db.selectFrom('incident_templates').selectAll().where('id', '=', id).executeTakeFirst()
  }

  insertTemplate(template: { ownerId: number; name: string; title: string; message: string; now: number }) {
    return this.db
      .insertInto('incident_templates')
      .values({
        owner_id: template.ownerId,
        name: template.name,
        title: template.title,
        message: template.message,
        created_at: template.now,
        updated_at: template.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  updateTemplate(id: number, changes: { name?: string; title?: string; message?: string }, now: number) {
    return this.db
      .updateTable('incident_templates')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  deleteTemplate(id: number) {
    return this.db.deleteFrom('incident_templates').where('id', '=', id).execute()
  }
}
