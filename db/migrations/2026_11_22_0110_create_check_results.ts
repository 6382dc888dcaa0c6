import type { Kysely } from 'kysely'

// Check results reported for a component (by an external monitor today, by built-in monitors
// later). Raw rows are kept for a short retention; reads use the roll-ups:
// - check_minutes: one row per component and UTC minute (the last hours: sparklines),
// - check_days: one row per component and UTC day (kept for good: uptime and averages).
// Sums and counts (not averages) are stored so buckets add up exactly across components.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('check_results')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('response_ms', 'integer')
    .execute()
  await db.schema.createIndex('check_results_component_at').on('check_results').columns(['component_id', 'at']).execute()
  await db.schema.createIndex('check_results_at').on('check_results').column('at').execute()

  for (const [table, column] of [
    ['check_minutes', 'minute'],
    ['check_days', 'day'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
      .addColumn(column, 'integer', (c) => c.notNull())
      .addColumn('checks', 'integer', (c) => c.notNull())
      .addColumn('ok_checks', 'integer', (c) => c.notNull())
      // Only checks that reported a response time count towards the average.
      .addColumn('timed_checks', 'integer', (c) => c.notNull())
      .addColumn('response_ms_sum', 'integer', (c) => c.notNull())
      .addColumn('response_ms_max', 'integer')
      .addPrimaryKeyConstraint(`${table}_pk`, ['component_id', column])
      .execute()
    await db.schema.createIndex(`${table}_${column}`).on(table).column(column).execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['check_days', 'check_minutes', 'check_results']) await db.schema.dropTable(table).execute()
}
