import { sql, type Kysely } from 'kysely'

/**
 * Maintenance updates: a timeline of messages on one maintenance window, as incidents have. An
 * update belongs to one window (for a recurring series, one occurrence: occurrences are rows of
 * `maintenances`), and goes with it when the window is deleted. `status` is the label the owner
 * posted it under (Statuspage's maintenance update statuses); the window's own phase stays derived
 * from its times.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('maintenance_updates')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('maintenance_id', 'integer', (c) => c.notNull().references('maintenances.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('scheduled', 'in_progress', 'verifying', 'completed')`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('maintenance_updates_maintenance_at').on('maintenance_updates').columns(['maintenance_id', 'at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('maintenance_updates').execute()
}
