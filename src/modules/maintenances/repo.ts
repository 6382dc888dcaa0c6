import type { Db } from '../../db/client.ts'

export class MaintenancesRepo {
  /** The connection or transaction this repo writes with (producers emit their events on it). */
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: MaintenancesRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MaintenancesRepo(trx)))
  }

  /** Windows, newest start first. */
  list(filter: { ownerId?: number; pageId?: number; limit: number }) {
    let query = this.db
      .selectFrom('maintenances')
      .innerJoin('status_pages', 'status_pages.id', 'maintenances.page_id')
      .selectAll('maintenances')
      .select('status_pages.owner_id')
    if (filter.ownerId !== undefined) query = query.where('status_pages.owner_id', '=', filter.ownerId)
    if (filter.pageId !== undefined) query = query.where('maintenances.page_id', '=', filter.pageId)
    return query.orderBy('maintenances.start_at', 'desc').orderBy('maintenances.id', 'desc').limit(filter.limit).execute()
  }

  findWithOwner(id: number) {
    return this.db
      .selectFrom('maintenances')
      .innerJoin('status_pages', 'status_pages.id', 'maintenances.page_id')
      .selectAll('maintenances')
      .select('status_pages.owner_id')
      .where('maintenances.id', '=', id)
      .executeTakeFirst()
  }

  componentsOf(maintenanceIds: readonly number[]) {
    if (maintenanceIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('maintenance_components')
      .innerJoin('components', 'components.id', 'maintenance_components.component_id')
      .select(['maintenance_components.maintenance_id', 'components.id', 'components.name'])
      .where('maintenance_components.maintenance_id', 'in', maintenanceIds)
      .orderBy('components.position')
      .orderBy('components.id')
      .execute()
  }

  componentsOnPage(pageId: number, ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([])
    return this.db.selectFrom('components').select(['id']).where('page_id', '=', pageId).where('id', 'in', ids).execute()
  }

  insert(window: { pageId: number; title: string; message: string; startAt: number; endAt: number; now: number; notifySubscribers: boolean }) {
    return this.db
      .insertInto('maintenances')
      .values({
        page_id: window.pageId,
        title: window.title,
        message: window.message,
        start_at: window.startAt,
        end_at: window.endAt,
        notify_subscribers: window.notifySubscribers ? 1 : 0,
        created_at: window.now,
        updated_at: window.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(id: number, changes: { title?: string; message?: string; start_at?: number; end_at?: number }, now: number) {
    return this.db
      .updateTable('maintenances')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  async setComponents(maintenanceId: number, componentIds: readonly number[]) {
    await this.db.deleteFrom('maintenance_components').where('maintenance_id', '=', maintenanceId).execute()
    if (componentIds.length === 0) return
    await this.db
      .insertInto('maintenance_components')
      .values(componentIds.map((componentId) => ({ maintenance_id: maintenanceId, component_id: componentId })))
      .execute()
  }

  delete(id: number) {
    return this.db.deleteFrom('maintenances').where('id', '=', id).execute()
  }
}
