import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Insertable } from 'kysely'
import type { ComponentStatus, ComponentStatusCorrectionsTable, ComponentType } from './tables.ts'
import { StatusHistoryReader } from './history.ts'

export interface ComponentChanges {
  name?: string
  type?: ComponentType
  group_name?: string | null
  status?: ComponentStatus
  status_override?: number
  description?: string
}

/**
 * Called after status history rows are inserted, with the same connection or transaction, so
 * read models (the analytics roll-ups) are updated atomically with the history.
 */
export type HistoryListener = (db: Kysely<Database>, componentId: number, earliestAt: number) => Promise<void>

export class ComponentsRepo {
  constructor(
    /** The connection or transaction this repo writes with (producers emit their events on it). */
    readonly db: Kysely<Database>,
    private readonly onHistoryWritten?: HistoryListener,
  ) {
    this.history = new StatusHistoryReader(db)
  }

  /** Reads the status history on the same connection or transaction. */
  readonly history: StatusHistoryReader

  /** Runs `work` in one transaction with a repo bound to it. */
  transaction<T>(work: (repo: ComponentsRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ComponentsRepo(trx, this.onHistoryWritten)))
  }

  listByPage(pageId: number) {
    return this.db
      .selectFrom('components')
      .selectAll()
      .where('page_id', '=', pageId)
      .orderBy('position')
      .orderBy('id')
      .execute()
  }

  /** The component together with the owner of its page, for ownership checks. */
  findWithOwner(id: number) {
    return this.db
      .selectFrom('components')
      .innerJoin('status_pages', 'status_pages.id', 'components.page_id')
      .selectAll('components')
      .select('status_pages.owner_id')
      .where('components.id', '=', id)
      .executeTakeFirst()
  }

  async nextPosition(pageId: number): Promise<number> {
    const row = await this.db
      .selectFrom('components')
      .select((eb) => eb.fn.max('position').as('max'))
      .where('page_id', '=', pageId)
      .executeTakeFirst()
    return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1
  }

  insert(component: {
    pageId: number
    name: string
    type: ComponentType
    groupName: string | null
    status: ComponentStatus
    position: number
    description?: string
    now: number
  }) {
    return this.db
      .insertInto('components')
      .values({
        page_id: component.pageId,
        name: component.name,
        type: component.type,
        group_name: component.groupName,
        status: component.status,
        position: component.position,
        ...(component.description === undefined ? {} : { description: component.description }),
        created_at: component.now,
        updated_at: component.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  update(id: number, changes: ComponentChanges, now: number) {
    return this.db
      .updateTable('components')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  /** Gives each listed component its index as position (call inside a transaction). */
  async setPositions(pageId: number, orderedIds: readonly number[], now: number): Promise<void> {
    for (const [position, id] of orderedIds.entries()) {
      await this.db
        .updateTable('components')
        .set({ position, updated_at: now })
        .where('id', '=', id)
        .where('page_id', '=', pageId)
        .where('position', '!=', position)
        .execute()
    }
  }

  /** Moves every component of group `from` on the page to group `to`; returns how many moved. */
  async renameGroup(pageId: number, from: string, to: string | null, now: number): Promise<number> {
    const result = await this.db
      .updateTable('components')
      .set({ group_name: to, updated_at: now })
      .where('page_id', '=', pageId)
      .where('group_name', '=', from)
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  delete(id: number) {
    return this.db.deleteFrom('components').where('id', '=', id).execute()
  }

  async insertHistory(componentId: number, entries: ReadonlyArray<{ status: ComponentStatus; at: number }>) {
    // Chunked to stay far below SQLite's bound-parameter limit.
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500).map((e) => ({ component_id: componentId, status: e.status, at: e.at }))
      await this.db.insertInto('component_status_history').values(chunk).execute()
    }
    if (this.onHistoryWritten && entries.length > 0) {
      await this.onHistoryWritten(this.db, componentId, Math.min(...entries.map((e) => e.at)))
    }
  }

  /**
   * Replaces the changes in [from, to) with `entries` (a correction, in the caller's transaction) and
   * refreshes the read models from `from` on, even when nothing was inserted (removed changes count).
   */
  async replaceHistorySpan(componentId: number, from: number, to: number, entries: ReadonlyArray<{ status: ComponentStatus; at: number }>): Promise<void> {
    await this.db.deleteFrom('component_status_history').where('component_id', '=', componentId).where('at', '>=', from).where('at', '<', to).execute()
    if (entries.length > 0) await this.db.insertInto('component_status_history').values(entries.map((e) => ({ component_id: componentId, status: e.status, at: e.at }))).execute()
    await this.onHistoryWritten?.(this.db, componentId, from)
  }

  insertCorrection(row: Insertable<ComponentStatusCorrectionsTable>) {
    return this.db.insertInto('component_status_corrections').values(row).returningAll().executeTakeFirstOrThrow()
  }

  /** The component's corrections, newest first. */
  listCorrections(componentId: number, limit: number) {
    return this.db.selectFrom('component_status_corrections').selectAll().where('component_id', '=', componentId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
  }
}
