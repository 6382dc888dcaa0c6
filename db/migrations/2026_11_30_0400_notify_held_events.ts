import type { Kysely } from 'kysely'

/**
 * Events held until their cause is complete (src/modules/notify/contract.ts): what one monitor
 * change causes (a component's status, the automatic incident) is written by separate
 * transactions, held here in each of them, and fanned out as one group when the cause is flushed.
 * Rows live for milliseconds; the outbox worker flushes causes left behind by a crash after a
 * minute, hence the index on `created_at`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notify_held_events')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('cause_key', 'text', (c) => c.notNull())
    .addColumn('event_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('notify_held_events_cause').on('notify_held_events').columns(['cause_key', 'id']).execute()
  await db.schema.createIndex('notify_held_events_created').on('notify_held_events').column('created_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notify_held_events').execute()
}
