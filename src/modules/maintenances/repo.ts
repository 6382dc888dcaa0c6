import { sql, type Insertable, type Selectable, type Updateable } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { MaintenanceCancellationsTable, MaintenanceSeriesTable } from './tables.ts'
import { CANCELLED_SHOWN_MS, type MaintenanceUpdateStatus } from './types.ts'

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

  /** The page's one-off windows not over at `now` (what configuration as code manages), soonest first. */
  openOneOffs(pageId: number, now: number) {
    return this.db
      .selectFrom('maintenances')
      .selectAll()
      .where('page_id', '=', pageId)
      .where('series_id', 'is', null)
      .where('end_at', '>', now)
      .orderBy('start_at')
      .orderBy('id')
      .execute()
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

  /** The windows' updates, newest first. */
  updatesOf(maintenanceIds: readonly number[]) {
    if (maintenanceIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('maintenance_updates')
      .select(['id', 'maintenance_id', 'status', 'message', 'at'])
      .where('maintenance_id', 'in', maintenanceIds)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .execute()
  }

  insertUpdate(update: { maintenanceId: number; status: MaintenanceUpdateStatus; message: string; at: number }) {
    return this.db
      .insertInto('maintenance_updates')
      .values({ maintenance_id: update.maintenanceId, status: update.status, message: update.message, at: update.at })
      .returning('id')
      .executeTakeFirstOrThrow()
  }

  /** A new update changes what a calendar client shows (the DESCRIPTION): the SEQUENCE goes up. */
  touch(id: number, now: number) {
    return this.db.updateTable('maintenances').set({ updated_at: now, sequence: sql<number>`sequence + 1` }).where('id', '=', id).execute()
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
      .set({ ...changes, updated_at: now, sequence: sql<number>`sequence + 1` })
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

  insertCancellation(values: Insertable<MaintenanceCancellationsTable>) {
    return this.db.insertInto('maintenance_cancellations').values(values).execute()
  }

  /** The page's deleted windows still shown in the calendar feed at `now`, newest deletion first. */
  cancellationsOf(pageId: number, now: number) {
    const since = now - CANCELLED_SHOWN_MS
    return this.db
      .selectFrom('maintenance_cancellations')
      .selectAll()
      .where('page_id', '=', pageId)
      .where((eb) => eb.or([eb('end_at', '>', since), eb('deleted_at', '>', since)]))
      .orderBy('deleted_at', 'desc')
      .orderBy('maintenance_id', 'desc')
      .execute()
  }

  /** Forgets the page's deleted windows the feed no longer shows. */
  pruneCancellations(pageId: number, now: number) {
    const since = now - CANCELLED_SHOWN_MS
    return this.db.deleteFrom('maintenance_cancellations').where('page_id', '=', pageId).where('end_at', '<=', since).where('deleted_at', '<=', since).execute()
  }

  seriesExceptions(seriesId: number) {
    return this.db.selectFrom('maintenance_series').select(['exceptions', 'sequence']).where('id', '=', seriesId).executeTakeFirst()
  }

  /** Skips one date of a series (an EXDATE in the calendar feed): a change, so its SEQUENCE goes up. */
  setSeriesExceptions(seriesId: number, exceptions: string, now: number) {
    return this.db.updateTable('maintenance_series').set({ exceptions, updated_at: now, sequence: sql<number>`sequence + 1` }).where('id', '=', seriesId).execute()
  }
}

/** Recurring series and their materialized occurrences (rows of `maintenances` with `series_id`). */
export class MaintenanceSeriesRepo {
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: MaintenanceSeriesRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MaintenanceSeriesRepo(trx)))
  }

  list(filter: { ownerId?: number; pageId?: number; active?: boolean; limit: number }) {
    let query = this.db
      .selectFrom('maintenance_series')
      .innerJoin('status_pages', 'status_pages.id', 'maintenance_series.page_id')
      .selectAll('maintenance_series')
      .select('status_pages.owner_id')
    if (filter.ownerId !== undefined) query = query.where('status_pages.owner_id', '=', filter.ownerId)
    if (filter.pageId !== undefined) query = query.where('maintenance_series.page_id', '=', filter.pageId)
    if (filter.active) query = query.where('maintenance_series.cancelled_at', 'is', null)
    return query.orderBy('maintenance_series.id', 'desc').limit(filter.limit).execute()
  }

  findWithOwner(id: number) {
    return this.db
      .selectFrom('maintenance_series')
      .innerJoin('status_pages', 'status_pages.id', 'maintenance_series.page_id')
      .selectAll('maintenance_series')
      .select('status_pages.owner_id')
      .where('maintenance_series.id', '=', id)
      .executeTakeFirst()
  }

  componentsOf(seriesIds: readonly number[]) {
    if (seriesIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('maintenance_series_components')
      .innerJoin('components', 'components.id', 'maintenance_series_components.component_id')
      .select(['maintenance_series_components.series_id', 'components.id', 'components.name'])
      .where('maintenance_series_components.series_id', 'in', seriesIds)
      .orderBy('components.position')
      .orderBy('components.id')
      .execute()
  }

  componentsOnPage(pageId: number, ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([])
    return this.db.selectFrom('components').select(['id']).where('page_id', '=', pageId).where('id', 'in', ids).execute()
  }

  insert(values: Insertable<MaintenanceSeriesTable>) {
    return this.db.insertInto('maintenance_series').values(values).returningAll().executeTakeFirstOrThrow()
  }

  update(id: number, changes: Updateable<MaintenanceSeriesTable>) {
    return this.db.updateTable('maintenance_series').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
  }

  async setComponents(seriesId: number, componentIds: readonly number[]) {
    await this.db.deleteFrom('maintenance_series_components').where('series_id', '=', seriesId).execute()
    if (componentIds.length === 0) return
    await this.db.insertInto('maintenance_series_components').values(componentIds.map((componentId) => ({ series_id: seriesId, component_id: componentId }))).execute()
  }

  /** Removes the occurrences that have not started by `now` (they are made again from the rule). */
  deleteUnstarted(seriesId: number, now: number) {
    return this.db.deleteFrom('maintenances').where('series_id', '=', seriesId).where('start_at', '>', now).execute()
  }

  /** Gives the occurrences not yet over the series' title and message. */
  retitleOpen(seriesId: number, changes: { title: string; message: string }, now: number) {
    return this.db.updateTable('maintenances').set({ ...changes, updated_at: now, sequence: sql<number>`sequence + 1` }).where('series_id', '=', seriesId).where('end_at', '>', now).execute()
  }

  /**
   * Writes occurrences not written yet (one per local date), each with the series' components;
   * answers the ids written, in order.
   */
  async insertOccurrences(series: Selectable<MaintenanceSeriesTable>, componentIds: readonly number[], list: ReadonlyArray<{ on: string; startAt: number; endAt: number }>, now: number) {
    const ids: number[] = []
    for (const occurrence of list) {
      const row = await this.db
        .insertInto('maintenances')
        .values({
          page_id: series.page_id,
          title: series.title,
          message: series.message,
          start_at: occurrence.startAt,
          end_at: occurrence.endAt,
          notify_subscribers: series.notify_subscribers,
          series_id: series.id,
          occurrence_on: occurrence.on,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['series_id', 'occurrence_on']).doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!row) continue
      ids.push(row.id)
      if (componentIds.length > 0) {
        await this.db.insertInto('maintenance_components').values(componentIds.map((componentId) => ({ maintenance_id: row.id, component_id: componentId }))).execute()
      }
    }
    return ids
  }

  /** The series' occurrences ending after `after`, soonest first. */
  occurrencesOf(seriesIds: readonly number[], after: number, limit: number) {
    if (seriesIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('maintenances')
      .select(['id', 'series_id', 'occurrence_on', 'start_at', 'end_at'])
      .where('series_id', 'in', seriesIds)
      .where('end_at', '>', after)
      .orderBy('start_at')
      .limit(limit)
      .execute()
  }
}
