/** SQL of the dependencies between monitors (monitor_dependencies: a child and each of its parents). */
import type { Db } from '../../db/client.ts'

/** Ids per `in (…)` lookup. */
const CHUNK = 500

export class DependencyRepo {
  constructor(readonly db: Db) {}

  /** Each child's parent ids, lowest first (children without parents are absent). */
  async parentsOf(childIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>()
    for (let i = 0; i < childIds.length; i += CHUNK) {
      const rows = await this.db.selectFrom('monitor_dependencies').select(['monitor_id', 'parent_id']).where('monitor_id', 'in', childIds.slice(i, i + CHUNK)).orderBy('parent_id').execute()
      for (const row of rows) {
        const parents = out.get(row.monitor_id)
        if (parents) parents.push(row.parent_id)
        else out.set(row.monitor_id, [row.parent_id])
      }
    }
    return out
  }

  /** The ids of the monitors that depend on any of these. */
  async childrenOf(parentIds: readonly number[]): Promise<number[]> {
    const out = new Set<number>()
    for (let i = 0; i < parentIds.length; i += CHUNK) {
      const rows = await this.db.selectFrom('monitor_dependencies').select('monitor_id').where('parent_id', 'in', parentIds.slice(i, i + CHUNK)).execute()
      for (const row of rows) out.add(row.monitor_id)
    }
    return [...out]
  }

  /** Replaces a monitor's parents. */
  async setParents(childId: number, parentIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('monitor_dependencies').where('monitor_id', '=', childId).execute()
    if (parentIds.length > 0) await this.db.insertInto('monitor_dependencies').values(parentIds.map((parent_id) => ({ monitor_id: childId, parent_id }))).execute()
  }
}
