import type { Kysely } from 'kysely'

/**
 * Maintenance cancellations: what is left of a deleted one-off maintenance window, so the calendar
 * feed can go on serving it as a cancelled event (same UID, a higher SEQUENCE) until subscribed
 * calendars have removed it. Only what that event needs is kept: no message, no components, no
 * updates. `maintenance_id` is the deleted window's id (ids are never reused), which the UID is
 * made of.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('maintenance_cancellations')
    .addColumn('maintenance_id', 'integer', (c) => c.primaryKey())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('start_at', 'integer', (c) => c.notNull())
    .addColumn('end_at', 'integer', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('deleted_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('maintenance_cancellations_page').on('maintenance_cancellations').column('page_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('maintenance_cancellations').execute()
}
