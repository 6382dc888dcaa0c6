import { sql, type Kysely } from 'kysely'

/**
 * Built-in monitors (issue 13): the monitor's settings, its confirmed state (state.ts's snapshot:
 * state, since, flapping, encoded history), when it runs next, and the push token's hash.
 * `updated_at` moves only with the owner's changes (not with runs): the scheduler follows it to
 * learn of new, changed and resumed monitors. Results go to the component's check store; here
 * only a short raw log (`monitor_results`, 24 h) and the state changes (`monitor_state_changes`,
 * kept: availability over 365 days reads them). `components.status_override` marks a manual
 * status the owner set on a monitored component.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('monitors')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.references('status_pages.id').onDelete('set null'))
    .addColumn('component_id', 'integer', (c) => c.references('components.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('options_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('interval_s', 'integer', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('retries', 'integer', (c) => c.notNull())
    .addColumn('retry_interval_ms', 'integer', (c) => c.notNull())
    .addColumn('confirm_failures', 'integer', (c) => c.notNull())
    .addColumn('confirm_successes', 'integer', (c) => c.notNull())
    .addColumn('degraded_after_ms', 'integer')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('state_since', 'integer', (c) => c.notNull())
    .addColumn('flapping', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('history', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('watching_since', 'integer', (c) => c.notNull())
    .addColumn('next_run_at', 'integer', (c) => c.notNull())
    .addColumn('last_check_at', 'integer')
    .addColumn('last_outcome', 'text')
    .addColumn('last_response_ms', 'integer')
    .addColumn('last_message', 'text')
    .addColumn('push_token_hash', 'text')
    .addColumn('last_push_at', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('monitors_owner').on('monitors').columns(['owner_id', 'id']).execute()
  await db.schema.createIndex('monitors_component').on('monitors').column('component_id').execute()
  await db.schema.createIndex('monitors_updated').on('monitors').column('updated_at').execute()
  await sql`CREATE UNIQUE INDEX monitors_push_token ON monitors (push_token_hash) WHERE push_token_hash IS NOT NULL`.execute(db)

  await db.schema
    .createTable('monitor_results')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('monitor_id', 'integer', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('response_ms', 'integer')
    .addColumn('status_code', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('monitor_results_monitor').on('monitor_results').columns(['monitor_id', 'id']).execute()
  await db.schema.createIndex('monitor_results_at').on('monitor_results').column('at').execute()

  await db.schema
    .createTable('monitor_state_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('monitor_id', 'integer', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('monitor_state_changes_monitor').on('monitor_state_changes').columns(['monitor_id', 'at']).execute()

  await db.schema.alterTable('components').addColumn('status_override', 'integer', (c) => c.notNull().defaultTo(0)).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('components').dropColumn('status_override').execute()
  await db.schema.dropTable('monitor_state_changes').execute()
  await db.schema.dropTable('monitor_results').execute()
  await db.schema.dropTable('monitors').execute()
}
