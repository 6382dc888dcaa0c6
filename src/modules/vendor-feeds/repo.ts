import type { Db } from '../../db/client.ts'
import type { VendorFeedState, VendorFeedsTable } from './tables.ts'

export type VendorFeedRow = VendorFeedsTable

export class VendorFeedsRepo {
  constructor(readonly db: Db) {}

  find(componentId: number): Promise<VendorFeedRow | undefined> {
    return this.db.selectFrom('vendor_feeds').selectAll().where('component_id', '=', componentId).executeTakeFirst()
  }

  ofPage(pageId: number): Promise<VendorFeedRow[]> {
    return this.db.selectFrom('vendor_feeds').selectAll().where('page_id', '=', pageId).execute()
  }

  async save(row: Pick<VendorFeedRow, 'component_id' | 'page_id' | 'url' | 'vendor_component'>, now: number): Promise<void> {
    await this.db
      .insertInto('vendor_feeds')
      .values({ ...row, state: 'pending', reason: null, vendor_name: null, incidents_json: '[]', checked_at: null, next_check_at: now, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('component_id').doUpdateSet({ url: row.url, vendor_component: row.vendor_component, state: 'pending', reason: null, next_check_at: now, updated_at: now }),
      )
      .execute()
  }

  async delete(componentId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('vendor_feeds').where('component_id', '=', componentId).executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  /** Feeds due a read at `now`, the most overdue first. */
  due(now: number, limit: number): Promise<VendorFeedRow[]> {
    return this.db.selectFrom('vendor_feeds').selectAll().where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit).execute()
  }

  /** Takes a due read for this server: moves its next read on, unless another server did first. */
  async claim(componentId: number, dueAt: number, nextAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('vendor_feeds')
      .set({ next_check_at: nextAt })
      .where('component_id', '=', componentId)
      .where('next_check_at', '=', dueAt)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async record(componentId: number, read: { state: VendorFeedState; reason: string | null; vendorName?: string; incidentsJson?: string }, now: number): Promise<void> {
    await this.db
      .updateTable('vendor_feeds')
      .set({
        state: read.state,
        reason: read.reason,
        ...(read.vendorName !== undefined ? { vendor_name: read.vendorName } : {}),
        ...(read.incidentsJson !== undefined ? { incidents_json: read.incidentsJson } : {}),
        checked_at: now,
        updated_at: now,
      })
      .where('component_id', '=', componentId)
      .execute()
  }
}
