/** SQL of the monitors: the rows, the raw result log and the state changes. */
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../db/client.ts'
import { engineOf } from '../../db/engine.ts'
import { CompiledOnce } from '../../db/compiled-once.ts'
import type { MonitorRegionStatesTable, MonitorResultsTable, MonitorsTable } from './tables.ts'

export type MonitorRow = Selectable<MonitorsTable> & { page_slug: string | null }
export type RegionStateRow = Selectable<MonitorRegionStatesTable>

/** The scheduler's statements, run for every batch of due runs: compiled once per number of ids. */
const findManyQuery = new CompiledOnce<MonitorRow>()
const claimDueQuery = new CompiledOnce<{ id: number }>()
/** The recorder's write of each monitor: one text per set of columns changed. */
const updateQuery = new CompiledOnce<never>()

export class MonitorsRepo {
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: MonitorsRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MonitorsRepo(trx)))
  }

  private select() {
    return this.db
      .selectFrom('monitors')
      .leftJoin('status_pages', 'status_pages.id', 'monitors.page_id')
      .selectAll('monitors')
      .select('status_pages.slug as page_slug')
  }

  find(id: number): Promise<MonitorRow | undefined> {
    return this.select().where('monitors.id', '=', id).executeTakeFirst()
  }

  findMany(ids: readonly number[]): Promise<MonitorRow[]> {
    if (ids.length === 0) return Promise.resolve([])
    return findManyQuery.execute(this.db, ids.length, () => this.select().where('monitors.id', 'in', ids), ids).then((result) => result.rows)
  }

  /**
   * Claims the due runs of these monitors for `owner` until `until`: those still due at `now` whose
   * lease is free, lapsed or already `owner`'s. Answers the ids claimed. On PostgreSQL rows another
   * server is claiming at this moment are skipped (FOR UPDATE SKIP LOCKED), never waited for.
   */
  async claimDue(ids: readonly number[], lease: { owner: string; now: number; until: number }): Promise<Set<number>> {
    if (ids.length === 0) return new Set()
    const build = () => {
      let claimable = this.db
        .selectFrom('monitors')
        .select('id')
        .where('id', 'in', ids)
        .where('next_run_at', '<=', lease.now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', lease.now), eb('lease_owner', '=', lease.owner)]))
      if (engineOf(this.db) === 'postgres') claimable = claimable.forUpdate().skipLocked()
      return this.db
        .updateTable('monitors')
        .set({ lease_owner: lease.owner, lease_until: lease.until })
        .where('id', 'in', claimable)
        .returning('id')
    }
    const { rows } = await claimDueQuery.execute(this.db, ids.length, build, [lease.owner, lease.until, ...ids, lease.now, lease.now, lease.owner])
    return new Set(rows.map((row) => row.id))
  }

  /** Gives back what `owner` still holds (a scheduler stopping with runs abandoned). */
  async releaseLeases(owner: string): Promise<void> {
    await this.db.updateTable('monitors').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute()
  }

  listByOwner(ownerId: number): Promise<MonitorRow[]> {
    return this.select().where('monitors.owner_id', '=', ownerId).orderBy('monitors.id').execute()
  }

  async countByOwner(ownerId: number): Promise<number> {
    const row = await this.db.selectFrom('monitors').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()
    return Number(row.n)
  }

  findByPushHash(hash: string): Promise<MonitorRow | undefined> {
    return this.select().where('monitors.push_token_hash', '=', hash).executeTakeFirst()
  }

  async insert(values: Insertable<MonitorsTable>): Promise<number> {
    const row = await this.db.insertInto('monitors').values(values).returning('id').executeTakeFirstOrThrow()
    return row.id
  }

  async update(id: number, changes: Updateable<MonitorsTable>): Promise<void> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined)
    // Plain values only: an expression (or anything Kysely would not bind as one parameter) is compiled each time.
    const plain = entries.every(([, value]) => value === null || typeof value !== 'object' || (value as unknown) instanceof Uint8Array)
    const build = () => this.db.updateTable('monitors').set(changes).where('id', '=', id)
    if (!plain) {
      await build().execute()
      return
    }
    await updateQuery.execute(this.db, entries.map(([column]) => column).join(','), build, [...entries.map(([, value]) => value), id])
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('monitors').where('id', '=', id).execute()
  }

  /** Monitors the owner changed at or after `since` (the scheduler's watermark); runs do not move updated_at. */
  changedSince(since: number) {
    return this.db.selectFrom('monitors').select(['id', 'enabled', 'next_run_at', 'updated_at']).where('updated_at', '>=', since).execute()
  }

  /** Every enabled monitor's next run (the scheduler's start). */
  allEnabled() {
    return this.db.selectFrom('monitors').select(['id', 'next_run_at', 'updated_at']).where('enabled', '=', 1).execute()
  }

  async insertResults(rows: ReadonlyArray<Insertable<MonitorResultsTable>>): Promise<void> {
    for (let i = 0; i < rows.length; i += 100) await this.db.insertInto('monitor_results').values(rows.slice(i, i + 100)).execute()
  }

  async insertStateChanges(rows: ReadonlyArray<{ monitor_id: number; state: string; at: number }>): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) await this.db.insertInto('monitor_state_changes').values(rows.slice(i, i + 200)).execute()
  }

  /** Newest first, below the `before` id when given. */
  listResults(monitorId: number, limit: number, before: number | undefined) {
    let query = this.db.selectFrom('monitor_results').selectAll().where('monitor_id', '=', monitorId)
    if (before !== undefined) query = query.where('id', '<', before)
    return query.orderBy('id', 'desc').limit(limit).execute()
  }

  /** State changes from `from` on, with the last one before it (the state the period began in). */
  async stateChanges(monitorId: number, from: number): Promise<Array<{ state: string; at: number }>> {
    const before = await this.db
      .selectFrom('monitor_state_changes')
      .select(['state', 'at'])
      .where('monitor_id', '=', monitorId)
      .where('at', '<', from)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .execute()
    const within = await this.db
      .selectFrom('monitor_state_changes')
      .select(['state', 'at'])
      .where('monitor_id', '=', monitorId)
      .where('at', '>=', from)
      .orderBy('at')
      .orderBy('id')
      .execute()
    return [...before, ...within]
  }

  /** Raw results at or after `from` of the given monitors (the health score's inputs; a chunk at a time). */
  async resultsSince(monitorIds: readonly number[], from: number): Promise<Array<{ monitor_id: number; at: number; outcome: string; response_ms: number | null }>> {
    const rows: Array<{ monitor_id: number; at: number; outcome: string; response_ms: number | null }> = []
    for (let i = 0; i < monitorIds.length; i += 50) {
      const chunk = monitorIds.slice(i, i + 50)
      rows.push(...(await this.db.selectFrom('monitor_results').select(['monitor_id', 'at', 'outcome', 'response_ms']).where('monitor_id', 'in', chunk).where('at', '>=', from).execute()))
    }
    return rows
  }

  /** Deletes at most `limit` raw results older than `before`; the number deleted. */
  async pruneResults(before: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('monitor_results')
      .where('id', 'in', (eb) => eb.selectFrom('monitor_results').select('id').where('at', '<', before).limit(limit))
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  /** The per-region states of these monitors (only monitors with regions besides `local` have any). */
  async regionStates(monitorIds: readonly number[]): Promise<Map<number, Map<string, RegionStateRow>>> {
    const out = new Map<number, Map<string, RegionStateRow>>()
    for (let i = 0; i < monitorIds.length; i += 200) {
      const chunk = monitorIds.slice(i, i + 200)
      for (const row of await this.db.selectFrom('monitor_region_states').selectAll().where('monitor_id', 'in', chunk).execute()) {
        let states = out.get(row.monitor_id)
        if (!states) out.set(row.monitor_id, (states = new Map()))
        states.set(row.region, row)
      }
    }
    return out
  }

  /** Writes region states, many per statement (the recorder's batch writes each one once). */
  async saveRegionStates(rows: readonly RegionStateRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      await this.db
        .insertInto('monitor_region_states')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) =>
          oc.columns(['monitor_id', 'region']).doUpdateSet((eb) => ({
            state: eb.ref('excluded.state'),
            state_since: eb.ref('excluded.state_since'),
            flapping: eb.ref('excluded.flapping'),
            history: eb.ref('excluded.history'),
            last_scheduled_at: eb.ref('excluded.last_scheduled_at'),
            last_check_at: eb.ref('excluded.last_check_at'),
            last_outcome: eb.ref('excluded.last_outcome'),
            last_response_ms: eb.ref('excluded.last_response_ms'),
            last_message: eb.ref('excluded.last_message'),
          })),
        )
        .execute()
    }
  }

  /** Forgets regions the monitor no longer lists (all of them with `keep` empty: its check changed). */
  async clearRegionStates(monitorId: number, keep: readonly string[]): Promise<void> {
    let query = this.db.deleteFrom('monitor_region_states').where('monitor_id', '=', monitorId)
    if (keep.length > 0) query = query.where('region', 'not in', keep)
    await query.execute()
  }

  /** The confirmed states of a component's enabled monitors. */
  async componentMonitorStates(componentId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('monitors').select('state').where('component_id', '=', componentId).where('enabled', '=', 1).execute()
    return rows.map((row) => row.state)
  }
}
