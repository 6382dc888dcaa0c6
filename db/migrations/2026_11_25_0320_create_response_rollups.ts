import { sql, type Kysely } from 'kysely'

/**
 * Response-time roll-ups for analytics (average and p95 over any range without reading checks):
 * - component_response_daily: per component and UTC day the timed checks, their sum and a
 *   log-bucket histogram (BLOB of uint32 counts), plus running totals of all three (cum_*), dense
 *   from the first to the last day with checks, so a range is the difference of two rows;
 * - component_response_cursor: first and last day with rows, per component;
 * - page_response_daily: the same per page and day (not cumulative), for the daily series.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('component_response_daily')
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('sum_ms', 'integer', (c) => c.notNull())
    .addColumn('hist', 'blob', (c) => c.notNull())
    .addColumn('cum_n', 'integer', (c) => c.notNull())
    .addColumn('cum_sum_ms', 'integer', (c) => c.notNull())
    .addColumn('cum_hist', 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('component_response_daily_pk', ['component_id', 'day'])
    .modifyEnd(sql`without rowid`)
    .execute()
  await db.schema
    .createTable('component_response_cursor')
    .addColumn('component_id', 'integer', (c) => c.primaryKey().references('components.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull())
    .addColumn('first_day', 'integer', (c) => c.notNull())
    .addColumn('last_day', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('component_response_cursor_page').on('component_response_cursor').column('page_id').execute()
  await db.schema
    .createTable('page_response_daily')
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('sum_ms', 'integer', (c) => c.notNull())
    .addColumn('hist', 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_response_daily_pk', ['page_id', 'day'])
    .modifyEnd(sql`without rowid`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['page_response_daily', 'component_response_cursor', 'component_response_daily']) {
    await db.schema.dropTable(table).execute()
  }
}
