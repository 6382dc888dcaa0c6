/**
 * The one reader of a component's status history (`component_status_history`): every module that
 * reads the history (the component's own service, the analytics roll-ups, the channels' outage
 * view) asks it here, on the connection or transaction it is given. Changes are ordered by time,
 * then by insertion, so two changes at the same instant keep the order they were written in.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

export class StatusHistoryReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** The latest `limit` changes, newest first; with `before`, only those earlier than it. */
  newestFirst(componentId: number, limit: number, before?: number) {
    let query = this.db.selectFrom('component_status_history').select(['status', 'at']).where('component_id', '=', componentId)
    if (before !== undefined) query = query.where('at', '<', before)
    return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute()
  }

  /** The change in force just before `at` (the last one earlier than it). */
  async changeBefore(componentId: number, at: number) {
    return (await this.newestFirst(componentId, 1, at))[0]
  }

  /** The first recorded change (history before it is unknown). */
  firstChange(componentId: number) {
    return this.db.selectFrom('component_status_history').select(['status', 'at']).where('component_id', '=', componentId).orderBy('at').orderBy('id').limit(1).executeTakeFirst()
  }

  /** The changes from `from` on (before `to` when given), oldest first. */
  changesFrom(componentId: number, from: number, to?: number) {
    let query = this.db.selectFrom('component_status_history').select(['status', 'at']).where('component_id', '=', componentId).where('at', '>=', from)
    if (to !== undefined) query = query.where('at', '<', to)
    return query.orderBy('at').orderBy('id').execute()
  }

  async hasChangeAt(componentId: number, at: number): Promise<boolean> {
    return (await this.db.selectFrom('component_status_history').select('id').where('component_id', '=', componentId).where('at', '=', at).limit(1).executeTakeFirst()) !== undefined
  }
}
