import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { createServices } from '../../src/services.ts'
import { loadConfig } from '../../src/config.ts'
import { refreshStatusRollup } from '../../src/modules/analytics/status-aggregator.ts'
import { ManualClock } from '../helpers/clock.ts'
import { fastTestHasher } from '../helpers/password.ts'

const HOUR = 3_600_000

// An instance upgraded with a false outage already recorded and rolled up by the code before:
// the migration adds the corrections table, and the outage can be corrected on the old history.
test('a database made before the corrections migration: migrated, then a false outage corrected', async () => {
  const database = await databaseBefore('2026_11_30_0500_webhook_signing_and_delivery_log')
  const { db } = database
  try {
    const start = Date.UTC(2026, 10, 10, 8)
    const user = await db.insertInto('users').values({ email: 'owner@example.com', password_hash: 'x', plan: 'enterprise', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'p', name: 'P', visibility: 'public', created_at: 0, updated_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const component = await db.insertInto('components').values({ page_id: page.id, name: 'C', status: 'up', type: 'site', position: 0, created_at: start, updated_at: start }).returning('id').executeTakeFirstOrThrow()
    const history = [
      { status: 'up' as const, at: start },
      { status: 'down' as const, at: start + 24 * HOUR },
      { status: 'up' as const, at: start + 30 * HOUR },
    ]
    await db.insertInto('component_status_history').values(history.map((h) => ({ component_id: component.id, ...h }))).execute()
    await refreshStatusRollup(db, component.id, start)

    // Every later migration runs too; this one first.
    expect((await migrateToLatest(db))[0]).toBe('2026_11_30_0600_create_status_corrections')
    const clock = new ManualClock(start + 3 * 24 * HOUR)
    const services = createServices({ db, config: loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env }), clock, passwords: fastTestHasher })
    const owner = await services.accounts.personalTeamOwner(await services.accounts.findUserByEmail('owner@example.com'))
    const correction = await services.components.correctHistory(owner, component.id, {
      from: new Date(start + 24 * HOUR).toISOString(),
      to: new Date(start + 30 * HOUR).toISOString(),
      status: 'up',
      reason: 'false outage',
    })
    expect(correction).toMatchObject({ status: 'up', by: 'owner@example.com', replaced: { before: { status: 'up', at: start }, changes: [{ status: 'down', at: start + 24 * HOUR }] } })
    const daily = await db.selectFrom('component_status_daily').select(['down_ms', 'outages', 'cum_down_ms', 'longest_down_ms']).where('component_id', '=', component.id).execute()
    expect(daily.every((row) => row.down_ms === 0 && row.outages === 0 && row.cum_down_ms === 0 && row.longest_down_ms === 0)).toBe(true)
    await services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
