import { type Kysely } from 'kysely'

/**
 * Monitors alert on their own: a monitor picks the channels its events go to (or a channel takes
 * every monitor of its owner), may remind while down (every N minutes, at most M times) and may be
 * snoozed until a time. Channels from before hear the monitor events too, like new ones: an owner
 * who picks one on a monitor expects it to speak.
 */
const MONITOR_KINDS = ['monitor.down', 'monitor.up', 'monitor.degraded', 'monitor.misconfigured']

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('monitor_alerts')
    .addColumn('monitor_id', 'integer', (c) => c.primaryKey().references('monitors.id').onDelete('cascade'))
    .addColumn('remind_every_min', 'integer')
    .addColumn('remind_max', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('snoozed_until', 'integer')
    .addColumn('outage_since', 'integer')
    .addColumn('last_alert_at', 'integer')
    .addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('monitor_alert_channels')
    .addColumn('monitor_id', 'integer', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('notification_channels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('monitor_alert_channels_pk', ['monitor_id', 'channel_id'])
    .execute()
  await db.schema.createIndex('monitor_alert_channels_channel').on('monitor_alert_channels').column('channel_id').execute()
  await db.schema.alterTable('notification_channels').addColumn('all_monitors', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  const rows = await db.selectFrom('notification_channels').select(['id', 'events_json']).execute()
  for (const row of rows as Array<{ id: number; events_json: string }>) {
    const events = JSON.parse(row.events_json) as string[]
    const added = [...events, ...MONITOR_KINDS.filter((kind) => !events.includes(kind))]
    await db.updateTable('notification_channels').set({ events_json: JSON.stringify(added) }).where('id', '=', row.id).execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_channels').dropColumn('all_monitors').execute()
  await db.schema.dropTable('monitor_alert_channels').execute()
  await db.schema.dropTable('monitor_alerts').execute()
}
