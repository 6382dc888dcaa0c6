import type { Kysely } from 'kysely'

/**
 * Probes in other regions (issue 17, item 3). Instance-level probe tokens (one region each, only the
 * hash stored); a monitor's regions and the k of them that must be down; each region's own state
 * (nextState per region, the monitor's state is the k-of-n aggregate); raw results keep their region
 * (null: the server's own, region `local`, as every row before this migration).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('probe_tokens')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_used_at', 'integer')
    .addColumn('revoked_at', 'integer')
    .execute()
  await db.schema.createIndex('probe_tokens_region').on('probe_tokens').column('region').execute()

  await db.schema.alterTable('monitors').addColumn('regions_json', 'text', (c) => c.notNull().defaultTo('["local"]')).execute()
  await db.schema.alterTable('monitors').addColumn('regions_required_down', 'integer', (c) => c.notNull().defaultTo(1)).execute()
  await db.schema.alterTable('monitor_results').addColumn('region', 'text').execute()

  await db.schema
    .createTable('monitor_region_states')
    .addColumn('monitor_id', 'integer', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_since', 'integer', (c) => c.notNull())
    .addColumn('flapping', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('history', 'text', (c) => c.notNull().defaultTo(''))
    /** The newest run recorded (a probe's scheduled time): a batch pushed twice is recorded once. */
    .addColumn('last_scheduled_at', 'integer', (c) => c.notNull())
    .addColumn('last_check_at', 'integer', (c) => c.notNull())
    .addColumn('last_outcome', 'text', (c) => c.notNull())
    .addColumn('last_response_ms', 'integer')
    .addColumn('last_message', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('monitor_region_states_pk', ['monitor_id', 'region'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('monitor_region_states').execute()
  await db.schema.alterTable('monitor_results').dropColumn('region').execute()
  await db.schema.alterTable('monitors').dropColumn('regions_required_down').execute()
  await db.schema.alterTable('monitors').dropColumn('regions_json').execute()
  await db.schema.dropIndex('probe_tokens_region').execute()
  await db.schema.dropTable('probe_tokens').execute()
}
