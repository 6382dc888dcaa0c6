/**
 * The recorder's side of dependencies (dependencies.ts decides, pure): the parents of a batch's
 * monitors are read once per batch (one query; a second only when some have parents), each step is
 * judged with them, and once the batch's steps are done the monitors that depend on one that went
 * down become unreachable at once, their own children after them, in the same transaction.
 */
import type { Db } from '../../../db/client.ts'
import { DependencyRepo } from '../dependency-repo.ts'
import { MonitorsRepo, type MonitorRow } from '../repo.ts'
import { parentFacts, parentVerdict, stepWithParents, type ParentFacts } from './dependencies.ts'
import type { EventStep } from './record-steps.ts'
import type { MonitorState } from './state.ts'

/** A state change the propagation made (the recorder hands it to its state hooks). */
export interface PropagatedChange {
  monitorId: number
  ownerId: number
  pageId: number | null
  from: MonitorState
  to: MonitorState
  at: number
  previousSince: number
}

export class BatchParents {
  private readonly parentIds = new Map<number, number[]>()

  private constructor(
    private readonly db: Db,
    /** Every row read in the batch, by id: the batch's own rows (the same objects) and parents. */
    private readonly known: Map<number, MonitorRow>,
  ) {}

  /** The parents of `rows` (the batch's rows, updated in place by later steps). */
  static async load(db: Db, rows: Map<number, MonitorRow>): Promise<BatchParents> {
    const batch = new BatchParents(db, new Map(rows))
    await batch.read([...rows.keys()])
    return batch
  }

  /** `step` of `row` with its parents taken into account. */
  judge(row: MonitorRow, step: EventStep | null, now: number): EventStep | null {
    return stepWithParents(step, row, this.parentsOf(row.id), now)
  }

  /** The children of the monitors that went down or unreachable in the batch become unreachable now (transitively). */
  async propagate(changed: ReadonlyArray<{ monitorId: number; to: MonitorState }>, now: number): Promise<PropagatedChange[]> {
    const made: PropagatedChange[] = []
    const dependencies = new DependencyRepo(this.db)
    const repo = new MonitorsRepo(this.db)
    let frontier = changed.filter((change) => change.to === 'down' || change.to === 'unreachable').map((change) => change.monitorId)
    const seen = new Set<number>()
    while (frontier.length > 0) {
      const children = (await dependencies.childrenOf(frontier)).filter((id) => !seen.has(id))
      for (const id of children) seen.add(id)
      await this.read(children)
      const next: number[] = []
      for (const id of children) {
        const row = this.known.get(id)
        if (!row || row.enabled !== 1 || row.state === 'unreachable' || row.state === 'misconfigured') continue
        if (parentVerdict(this.parentsOf(id), { intervalMs: row.interval_s * 1000, confirmFailures: row.confirm_failures }, now).kind !== 'unreachable') continue
        await repo.update(id, { state: 'unreachable', state_since: now })
        made.push({ monitorId: id, ownerId: row.owner_id, pageId: row.page_id, from: row.state, to: 'unreachable', at: now, previousSince: row.state_since })
        Object.assign(row, { state: 'unreachable', state_since: now })
        next.push(id)
      }
      frontier = next
    }
    return made
  }

  private parentsOf(id: number): ParentFacts[] {
    const facts: ParentFacts[] = []
    for (const parentId of this.parentIds.get(id) ?? []) {
      const parent = this.known.get(parentId)
      if (parent) facts.push(parentFacts(parent))
    }
    return facts
  }

  /** Reads the rows of `ids` not read yet, and their parents' ids and rows. */
  private async read(ids: readonly number[]): Promise<void> {
    const repo = new MonitorsRepo(this.db)
    const missing = ids.filter((id) => !this.known.has(id))
    for (const row of await repo.findMany(missing)) this.known.set(row.id, row)
    const unread = ids.filter((id) => !this.parentIds.has(id))
    if (unread.length === 0) return
    const found = await new DependencyRepo(this.db).parentsOf(unread)
    for (const id of unread) this.parentIds.set(id, found.get(id) ?? [])
    const parents = [...new Set([...found.values()].flat())].filter((id) => !this.known.has(id))
    for (const row of await repo.findMany(parents)) this.known.set(row.id, row)
  }
}
