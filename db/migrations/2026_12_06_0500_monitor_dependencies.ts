import type { Kysely } from 'kysely'

/**
 * Dependencies between monitors: a monitor (`monitor_id`) names the monitors it depends on
 * (`parent_id`: the router in front of it, the database behind it). While a parent is down the
 * child's state is `unreachable` (a text value of monitors.state, no change there): it sends no
 * alert and leaves its component alone. Deleting either monitor removes the pair. Existing
 * monitors depend on nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('monitor_dependencies')
    .addColumn('monitor_id', 'integer', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('monitor_dependencies_pk', ['monitor_id', 'parent_id'])
    .execute()
  // Children of a parent whose state changed (the recorder's propagation).
  await db.schema.createIndex('monitor_dependencies_parent').on('monitor_dependencies').column('parent_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  // Children left unreachable start over as pending: the state no longer exists.
  await db.updateTable('monitors').set({ state: 'pending' }).where('state', '=', 'unreachable').execute()
  await db.schema.dropTable('monitor_dependencies').execute()
}
