import type { Db } from '../../db/client.ts'
import { findPublicPageBySlug } from '../status-pages/public-lookup.ts'

export class StatusRepo {
  constructor(private readonly db: Db) {}

  /** What public status embeds need about a page: addresses, visibility, name and the owner's plan. */
  findPageBySlug(slug: string) {
    return findPublicPageBySlug(this.db, slug)
  }

  components(pageId: number) {
    return this.db
      .selectFrom('components')
      .select(['id', 'name', 'type', 'status', 'updated_at'])
      .where('page_id', '=', pageId)
      .orderBy('position')
      .orderBy('id')
      .execute()
  }

  /**
   * Status changes of several components in [from, to), each list oldest first and preceded by the
   * component's last change before `from`: two queries whatever the number of components.
   */
  async histories(componentIds: readonly number[], from: number, to: number) {
    const lists = new Map<number, Array<{ status: 'up' | 'degraded' | 'down'; at: number }>>(componentIds.map((id) => [id, []]))
    if (componentIds.length === 0) return lists
    const [before, within] = await Promise.all([
      // SQLite returns the other columns of the row that holds max(at) (a documented "bare column" rule).
      this.db
        .selectFrom('component_status_history')
        .select(['component_id', 'status', (eb) => eb.fn.max('at').as('at')])
        .where('component_id', 'in', componentIds)
        .where('at', '<', from)
        .groupBy('component_id')
        .execute(),
      this.db
        .selectFrom('component_status_history')
        .select(['component_id', 'status', 'at'])
        .where('component_id', 'in', componentIds)
        .where('at', '>=', from)
        .where('at', '<', to)
        .orderBy('component_id')
        .orderBy('at')
        .orderBy('id')
        .execute(),
    ])
    for (const row of [...before, ...within]) lists.get(row.component_id)?.push({ status: row.status, at: Number(row.at) })
    return lists
  }
}
