import { sql, type Kysely } from 'kysely'
import { createTrigger, dropTrigger } from '../../src/db/engine.ts'

/**
 * Analytics are aggregated as they are written, so reading a year costs about as much as a week:
 * - component_status_daily: per component and UTC day (days since the epoch) the milliseconds spent
 *   up / degraded / down, outages started, and running totals (cum_*) since the first record, so the
 *   total over any range is the difference of two rows. Rows are dense from the day of a component's
 *   first status change to the day of its latest one; the time since the latest change is added at
 *   read time from component_status_cursor.
 * - page_status_daily: the same per page and day, kept in step by triggers on component rows.
 * - page_view_daily: page views per page and day; page_view_visitors keeps today's salted visitor
 *   hashes only (older days are deleted with their salt), page_view_salts the salt of each live day.
 * - analytics_share_tokens: read-only links to a page's analytics.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('component_status_daily')
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('page_id', 'integer', (c) => c.notNull())
    .addColumn('up_ms', 'integer', (c) => c.notNull())
    .addColumn('degraded_ms', 'integer', (c) => c.notNull())
    .addColumn('down_ms', 'integer', (c) => c.notNull())
    .addColumn('outages', 'integer', (c) => c.notNull())
    .addColumn('cum_up_ms', 'integer', (c) => c.notNull())
    .addColumn('cum_degraded_ms', 'integer', (c) => c.notNull())
    .addColumn('cum_down_ms', 'integer', (c) => c.notNull())
    .addColumn('cum_outages', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('component_status_daily_pk', ['component_id', 'day'])
    .modifyEnd(sql`without rowid`)
    .execute()

  await db.schema
    .createTable('page_status_daily')
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('up_ms', 'integer', (c) => c.notNull())
    .addColumn('degraded_ms', 'integer', (c) => c.notNull())
    .addColumn('down_ms', 'integer', (c) => c.notNull())
    .addColumn('outages', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_status_daily_pk', ['page_id', 'day'])
    .modifyEnd(sql`without rowid`)
    .execute()

  // Every write path (API, CLI, imports, deletions through foreign-key cascades) keeps the page rows right.
  await createTrigger(db, {
    name: 'component_status_daily_added',
    timing: 'AFTER INSERT',
    table: 'component_status_daily',
    body: `INSERT INTO page_status_daily (page_id, day, up_ms, degraded_ms, down_ms, outages)
      VALUES (NEW.page_id, NEW.day, NEW.up_ms, NEW.degraded_ms, NEW.down_ms, NEW.outages)
      ON CONFLICT (page_id, day) DO UPDATE SET
        up_ms = page_status_daily.up_ms + excluded.up_ms, degraded_ms = page_status_daily.degraded_ms + excluded.degraded_ms,
        down_ms = page_status_daily.down_ms + excluded.down_ms, outages = page_status_daily.outages + excluded.outages;`,
  })
  await createTrigger(db, {
    name: 'component_status_daily_removed',
    timing: 'AFTER DELETE',
    table: 'component_status_daily',
    body: `UPDATE page_status_daily SET
        up_ms = up_ms - OLD.up_ms, degraded_ms = degraded_ms - OLD.degraded_ms,
        down_ms = down_ms - OLD.down_ms, outages = outages - OLD.outages
      WHERE page_id = OLD.page_id AND day = OLD.day;`,
  })

  await db.schema
    .createTable('component_status_cursor')
    .addColumn('component_id', 'integer', (c) => c.primaryKey().references('components.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull())
    .addColumn('first_day', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('since', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('component_status_cursor_page').on('component_status_cursor').column('page_id').execute()

  await db.schema
    .createTable('page_view_daily')
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    .addColumn('uniques', 'integer', (c) => c.notNull())
    .addColumn('incident_views', 'integer', (c) => c.notNull())
    .addColumn('incident_uniques', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_view_daily_pk', ['page_id', 'day'])
    .modifyEnd(sql`without rowid`)
    .execute()

  await db.schema
    .createTable('page_view_visitors')
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('page_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull()) // 0 = any view, 1 = a view during an incident
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_view_visitors_pk', ['day', 'page_id', 'kind', 'hash'])
    .modifyEnd(sql`without rowid`)
    .execute()

  await db.schema
    .createTable('page_view_salts')
    .addColumn('day', 'integer', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('analytics_share_tokens')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer')
    .addColumn('revoked_at', 'integer')
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'integer')
    .execute()
  await db.schema.createIndex('analytics_share_tokens_page').on('analytics_share_tokens').column('page_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropTrigger(db, 'component_status_daily_added', 'component_status_daily')
  await dropTrigger(db, 'component_status_daily_removed', 'component_status_daily')
  for (const table of [
    'analytics_share_tokens',
    'page_view_salts',
    'page_view_visitors',
    'page_view_daily',
    'component_status_cursor',
    'page_status_daily',
    'component_status_daily',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
