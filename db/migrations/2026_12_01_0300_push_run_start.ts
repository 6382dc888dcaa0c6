import type { Kysely } from 'kysely'

/**
 * Push monitors with runs (cron heartbeats): `push_started_at` is when the job called `/start` and
 * has not yet ended its run (a success or `/fail` clears it). A run that never ends is late after
 * the grace time. The cron expression and its time zone are options (options_json). Existing
 * monitors have no run in progress.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('push_started_at', 'integer').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('push_started_at').execute()
}
