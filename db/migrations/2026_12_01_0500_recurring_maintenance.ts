import { sql, type Kysely } from 'kysely'

/**
 * Recurring maintenance. A series holds the rule (daily, weekly or monthly
 * in the owner's IANA time zone, skipped dates, an end by date or count); its occurrences are
 * ordinary `maintenances` rows carrying `series_id` and their local date, so the status pipeline,
 * uptime and the start/end notices treat them exactly as one-off windows. `sequence` counts the
 * changes a calendar client must see (iCalendar SEQUENCE). Existing windows are one-offs at 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('maintenance_series')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('starts_on', 'text', (c) => c.notNull())
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull().check(sql`duration_minutes > 0`))
    .addColumn('frequency', 'text', (c) => c.notNull().check(sql`frequency in ('daily', 'weekly', 'monthly')`))
    .addColumn('repeat_interval', 'integer', (c) => c.notNull().defaultTo(1).check(sql`repeat_interval >= 1`))
    .addColumn('weekdays', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('month_day', 'integer')
    .addColumn('until_on', 'text')
    .addColumn('count', 'integer')
    .addColumn('exceptions', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notify_subscribers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancelled_at', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('maintenance_series_page').on('maintenance_series').column('page_id').execute()

  await db.schema
    .createTable('maintenance_series_components')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('maintenance_series.id').onDelete('cascade'))
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('maintenance_series_components_pk', ['series_id', 'component_id'])
    .execute()

  await db.schema.alterTable('maintenances').addColumn('series_id', 'integer', (c) => c.references('maintenance_series.id').onDelete('cascade')).execute()
  await db.schema.alterTable('maintenances').addColumn('occurrence_on', 'text').execute()
  await db.schema.alterTable('maintenances').addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  // One row per occurrence of a series (one-off windows have no series: NULLs never collide).
  await db.schema.createIndex('maintenances_series_occurrence').on('maintenances').columns(['series_id', 'occurrence_on']).unique().execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('maintenances_series_occurrence').execute()
  for (const column of ['sequence', 'occurrence_on', 'series_id']) await db.schema.alterTable('maintenances').dropColumn(column).execute()
  await db.schema.dropTable('maintenance_series_components').execute()
  await db.schema.dropTable('maintenance_series').execute()
}
