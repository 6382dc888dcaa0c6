import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { Bucket } from './rollup.ts'

type BucketTable = 'check_minutes' | 'check_days'
const startColumn = { check_minutes: 'minute', check_days: 'day' } as const

/** Called with the write's transaction after checks are stored (the analytics response-time roll-ups). */
export type ChecksListener = (db: Db, componentId: number, checks: ReadonlyArray<{ at: number; responseMs: number | null }>) => Promise<void>

export class ChecksRepo {
  constructor(
    private readonly db: Db,
    private readonly onRecorded?: ChecksListener,
  ) {}

  transaction<T>(work: (repo: ChecksRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ChecksRepo(trx, this.onRecorded)))
  }

  /** The same repository over a caller's transaction. */
  within(trx: Db): ChecksRepo {
    return new ChecksRepo(trx, this.onRecorded)
  }

  /** Lets the listener (if any) update its read models in the same transaction. */
  async recorded(componentId: number, checks: ReadonlyArray<{ at: number; responseMs: number | null }>) {
    if (this.onRecorded) await this.onRecorded(this.db, componentId, checks)
  }

  async insertRaw(componentId: number, rows: ReadonlyArray<{ at: number; ok: boolean; responseMs: number | null }>) {
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200).map((r) => ({ component_id: componentId, at: r.at, ok: r.ok ? 1 : 0, response_ms: r.responseMs }))
      await this.db.insertInto('check_results').values(chunk).execute()
    }
  }

  /** Adds the buckets to what is stored (insert, or add to the existing row). */
  async addBuckets(table: BucketTable, componentId: number, buckets: readonly Bucket[]) {
    const column = startColumn[table]
    for (let i = 0; i < buckets.length; i += 100) {
      const chunk = buckets.slice(i, i + 100).map((b) => ({
        component_id: componentId,
        [column]: b.start,
        checks: b.checks,
        ok_checks: b.okChecks,
        timed_checks: b.timedChecks,
        response_ms_sum: b.responseMsSum,
        response_ms_max: b.responseMsMax,
      }))
      await this.db
        .insertInto(table)
        .values(chunk as never)
        .onConflict((oc) =>
          oc.columns(['component_id', column] as never).doUpdateSet(() => {
            // Qualified with the table: PostgreSQL finds a bare `checks` ambiguous next to `excluded`.
            const old = (name: string) => sql.ref(`${table}.${name}`)
            return {
              checks: sql`${old('checks')} + excluded.checks`,
              ok_checks: sql`${old('ok_checks')} + excluded.ok_checks`,
              timed_checks: sql`${old('timed_checks')} + excluded.timed_checks`,
              response_ms_sum: sql`${old('response_ms_sum')} + excluded.response_ms_sum`,
              // The larger of two maxima where either may be NULL (no timed check), on both engines.
              response_ms_max: sql`CASE WHEN excluded.response_ms_max IS NULL OR ${old('response_ms_max')} >= excluded.response_ms_max
                THEN coalesce(${old('response_ms_max')}, excluded.response_ms_max) ELSE excluded.response_ms_max END`,
            } as never
          }),
        )
        .execute()
    }
  }

  /** Deletes raw rows and minute buckets of a component older than the cut-offs. */
  async prune(componentId: number, rawBefore: number, minutesBefore: number) {
    await this.db.deleteFrom('check_results').where('component_id', '=', componentId).where('at', '<', rawBefore).execute()
    await this.db.deleteFrom('check_minutes').where('component_id', '=', componentId).where('minute', '<', minutesBefore).execute()
  }

  /** Same, for every component (a periodic job). */
  async pruneAll(rawBefore: number, minutesBefore: number) {
    await this.db.deleteFrom('check_results').where('at', '<', rawBefore).execute()
    await this.db.deleteFrom('check_minutes').where('minute', '<', minutesBefore).execute()
  }

  async buckets(table: BucketTable, componentIds: readonly number[], from: number, to: number): Promise<Array<Bucket & { componentId: number }>> {
    if (componentIds.length === 0) return []
    const column = startColumn[table]
    const rows = await this.db
      .selectFrom(table as 'check_minutes')
      .select([
        'component_id',
        sql<number>`${sql.ref(column)}`.as('start'),
        'checks',
        'ok_checks',
        'timed_checks',
        'response_ms_sum',
        'response_ms_max',
      ])
      .where('component_id', 'in', componentIds)
      .where(sql.ref(column), '>=', from)
      .where(sql.ref(column), '<', to)
      .execute()
    return rows.map((r) => ({
      componentId: r.component_id,
      start: r.start,
      checks: r.checks,
      okChecks: r.ok_checks,
      timedChecks: r.timed_checks,
      responseMsSum: r.response_ms_sum,
      responseMsMax: r.response_ms_max,
    }))
  }

  countRaw(componentId: number) {
    return this.db
      .selectFrom('check_results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('component_id', '=', componentId)
      .executeTakeFirstOrThrow()
  }
}
