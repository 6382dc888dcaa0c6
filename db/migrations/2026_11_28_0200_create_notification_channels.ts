import { sql, type Kysely } from 'kysely'

/**
 * Owner notification channels (issue 14 item 3):
 * - notification_channels: one row per channel of an owner; `config_json` holds the type's settings
 *   (secrets included: the API and the web app only ever show them masked); `events_json` the event
 *   kinds it listens to; `all_pages` 1 = every page of the owner (and events without a page),
 *   else the pages in notification_channel_pages. Email channels keep their verification token as a
 *   SHA-256 hash with its expiry and the resend counters; `disabled_at`/`disabled_reason` are set
 *   when the outbox gave up on the channel.
 * - maintenance_notices: which maintenance windows were announced as started / ended (once each).
 * - maintenances.notify_subscribers: the flag the API accepts, kept for the started/ended notices.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_channels')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('config_json', 'text', (c) => c.notNull())
    .addColumn('events_json', 'text', (c) => c.notNull())
    .addColumn('all_pages', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('verified_at', 'integer')
    .addColumn('verify_token_hash', 'text')
    .addColumn('verify_expires_at', 'integer')
    .addColumn('verify_last_sent_at', 'integer')
    .addColumn('verify_window_start', 'integer')
    .addColumn('verify_window_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('test_requested_at', 'integer')
    .addColumn('disabled_at', 'integer')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('notification_channels_owner').on('notification_channels').column('owner_id').execute()
  await db.schema
    .createIndex('notification_channels_verify_token')
    .on('notification_channels')
    .column('verify_token_hash')
    .where(sql.ref('verify_token_hash'), 'is not', null)
    .execute()

  await db.schema
    .createTable('notification_channel_pages')
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('notification_channels.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('status_pages.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('notification_channel_pages_pk', ['channel_id', 'page_id'])
    .modifyEnd(sql`without rowid`)
    .execute()
  await db.schema.createIndex('notification_channel_pages_page').on('notification_channel_pages').column('page_id').execute()

  await db.schema
    .createTable('maintenance_notices')
    .addColumn('maintenance_id', 'integer', (c) => c.notNull().references('maintenances.id').onDelete('cascade'))
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('maintenance_notices_pk', ['maintenance_id', 'phase'])
    .modifyEnd(sql`without rowid`)
    .execute()
  await db.schema.alterTable('maintenances').addColumn('notify_subscribers', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  // The sweeper looks for windows starting or ending around now.
  await db.schema.createIndex('maintenances_start_at').on('maintenances').column('start_at').execute()
  await db.schema.createIndex('maintenances_end_at').on('maintenances').column('end_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('maintenances_end_at').execute()
  await db.schema.dropIndex('maintenances_start_at').execute()
  await db.schema.alterTable('maintenances').dropColumn('notify_subscribers').execute()
  await db.schema.dropTable('maintenance_notices').execute()
  await db.schema.dropTable('notification_channel_pages').execute()
  await db.schema.dropTable('notification_channels').execute()
}
