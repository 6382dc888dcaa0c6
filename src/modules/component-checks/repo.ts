import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { Bucket } from './rollup.ts'
import { CompiledOnce } from '../../db/compiled-once.ts'

type BucketTable = 'check_minutes' | 'check_days'
const startColumn = { check_minutes: 'minute', check_days: 'day' } as const
/** The bucket upsert of a batch, compiled once per table and number of rows. */
const addBucketsQuery = new CompiledOnce<never>()

/** Checks of one component, as the listener hears them. */
export interface ComponentChecks {
  componentId: number
  checks: ReadonlyArray<{ at: number; responseMs: number | null }>
}

/**
 * Called with the write's transaction after checks are stored (the analytics response-time
 * roll-ups), once per batch with every component's checks: a batch of many components costs a few
 * statements, not a few per component.
 */
export type ChecksListener = (db: Db, batches: readonly ComponentChecks[]) => Promise<void>

/** A bucket and the component it belongs to. */
export type ComponentBucket = Bucket & { componentId: number }

/** Rows per multi-row statement (SQLite's default limit is 32,766 parameters; 7 per row). */
const ROWS_PER_STATEMENT = 100

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
  async recorded(batches: readonly ComponentChecks[]) {
    if (this.onRecorded && batches.length > 0) await this.onRecorded(this.db, batches)
  }

  async insertRaw(componentId: number, rows: ReadonlyArray<{ at: number; ok: boolean; responseMs: number | null }>) {
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200).map((r) => ({ component_id: componentId, at: r.at, ok: r.ok ? 1 : 0, response_ms: r.responseMs }))
      await this.db.insertInto('check_results').values(chunk).execute()
    }
  }

  /**
   * Adds the buckets to what is stored (insert, or add to the existing row), any number of
   * components in one statement per hundred buckets. A component and start may appear once only.
   */
  async addBuckets(table: BucketTable, buckets: readonly ComponentBucket[]) {
    const column = startColumn[table]
    for (let i = 0; i < buckets.length; i += ROWS_PER_STATEMENT) {
      const chunk = buckets.slice(i, i + ROWS_PER_STATEMENT)
      const parameters = chunk.flatMap((b) => [b.componentId, b.start, b.checks, b.okChecks, b.timedChecks, b.responseMsSum, b.responseMsMax])
      const build = () =>
        this.db
          .insertInto(table)
          .values(
            chunk.map((b) => ({
              component_id: b.componentId,
              [column]: b.start,
              checks: b.checks,
              ok_checks: b.okChecks,
              timed_checks: b.timedChecks,
              response_ms_sum: b.responseMsSum,
              response_ms_max: b.responseMsMax,
            })) as never,
          )
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
      await addBucketsQuery.execute(this.db, `${table} ${chunk.length}`, build, parameters)
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
