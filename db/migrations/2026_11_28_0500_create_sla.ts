import { sql, type Kysely } from 'kysely'

/**
 * SLA (issue 15 items 3–4):
 * - sla_targets: one target per component (parts per million: 999000 = 99.9 %), its period and the
 *   accounting policy the reports state (how degraded time counts, maintenance excluded, the
 *   shortest outage counted);
 * - sla_alerts: one row per component, period and budget threshold (50, 80, 100): the primary key
 *   makes each breach alert happen once per period, whatever runs the checker concurrently;
 * - sla_page_settings: the monthly report mail opt-in per page;
 * - sla_monthly_mails: one row per page and month reported, so the monthly mail goes once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sla_targets')
    .addColumn('component_id', 'integer', (c) => c.primaryKey().references('components.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('target_ppm', 'integer', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull().check(sql`period IN ('month', 'quarter', 'year')`))
    .addColumn('degraded_counts_as', 'text', (c) => c.notNull().defaultTo('up').check(sql`degraded_counts_as IN ('up', 'down', 'half')`))
    .addColumn('exclude_maintenance', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('min_outage_s', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('breach_alerts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('sla_targets_page').on('sla_targets').column('page_id').execute()
  await db.schema
    .createTable('sla_alerts')
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addColumn('period_start', 'integer', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('used_pct', 'real', (c) => c.notNull())
    .addColumn('sent_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sla_alerts_pk', ['component_id', 'period_start', 'threshold'])
    .modifyEnd(sql`without rowid`)
    .execute()
  await db.schema
    .createTable('sla_page_settings')
    .addColumn('page_id', 'integer', (c) => c.primaryKey().references('status_pages.id').onDelete('cascade'))
    .addColumn('monthly_report', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('sla_monthly_mails')
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('month_start', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sla_monthly_mails_pk', ['page_id', 'month_start'])
    .modifyEnd(sql`without rowid`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sla_monthly_mails', 'sla_page_settings', 'sla_alerts', 'sla_targets']) {
    await db.schema.dropTable(table).execute()
  }
}
