/**
 * The monitor-alerts migration on a database made by the code before it (SQLite, or PostgreSQL
 * with LANTERN_TEST_POSTGRES): channels from before hear the monitor events too (their other
 * choices kept), take no monitor until one picks them, and a monitor's alerts can be set.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'

test('channels from before gain the monitor events and take no monitor; alerts and picks can be stored', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'growth', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const channel = (events: string[]) =>
      db.insertInto('notification_channels')
        .values({ owner_id: user.id, type: 'email', name: 'Ops', config_json: '{"address":"ops@example.com"}', events_json: JSON.stringify(events), created_at: 0, updated_at: 0 } as never)
        .returning('id').executeTakeFirstOrThrow()
    const incidentsOnly = await channel(['incident.opened'])
    const certificates = await channel(['certificate.expiring', 'monitor.down'])

    expect((await migrateToLatest(db))[0]).toBe('2026_12_01_0100_monitor_alerts')
    const rows = await db.selectFrom('notification_channels').select(['id', 'events_json', 'all_monitors']).orderBy('id').execute()
    expect(rows.map((row) => ({ id: row.id, events: JSON.parse(row.events_json), all_monitors: row.all_monitors }))).toEqual([
      { id: incidentsOnly.id, events: ['incident.opened', 'monitor.down', 'monitor.up', 'monitor.degraded', 'monitor.misconfigured'], all_monitors: 0 },
      { id: certificates.id, events: ['certificate.expiring', 'monitor.down', 'monitor.up', 'monitor.degraded', 'monitor.misconfigured'], all_monitors: 0 },
    ])

    const monitor = await db.insertInto('monitors').values({
      owner_id: user.id, page_id: null, component_id: null, name: 'API', type: 'http', target: 'https://example.com/', options_json: '{}', interval_s: 60, timeout_ms: 5000,
      retries: 0, retry_interval_ms: 1000, confirm_failures: 1, confirm_successes: 1, degraded_after_ms: null, enabled: 1, state: 'pending', state_since: 0, flapping: 0, history: '',
      watching_since: 0, next_run_at: 0, lease_owner: null, lease_until: null, last_check_at: null, last_outcome: null, last_response_ms: null, last_message: null, push_token_hash: null, last_push_at: null, created_at: 0, updated_at: 0,
    }).returning('id').executeTakeFirstOrThrow()
    const later = Date.UTC(2026, 11, 1)
    await db.insertInto('monitor_alerts').values({ monitor_id: monitor.id, remind_every_min: 10, remind_max: 3, snoozed_until: later, outage_since: later, last_alert_at: later, reminders_sent: 0 }).execute()
    await db.insertInto('monitor_alert_channels').values({ monitor_id: monitor.id, channel_id: incidentsOnly.id }).execute()
    expect(await db.selectFrom('monitor_alerts').selectAll().execute()).toEqual([{ monitor_id: monitor.id, remind_every_min: 10, remind_max: 3, snoozed_until: later, outage_since: later, last_alert_at: later, reminders_sent: 0 }])
    // A deleted channel leaves the monitors that picked it.
    await db.deleteFrom('notification_channels').where('id', '=', incidentsOnly.id).execute()
    expect(await db.selectFrom('monitor_alert_channels').selectAll().execute()).toEqual([])
  } finally {
    await database.dispose()
  }
})
