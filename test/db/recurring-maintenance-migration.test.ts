/**
 * The recurring-maintenance migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a window from before stays a one-off (no series, sequence
 * 0) and still drives the page; a series and its occurrences can then be written beside it.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

test('windows from before stay one-off windows and series are written beside them', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'growth', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-page', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const start = Date.UTC(2027, 0, 10, 2)
    const old = await db.insertInto('maintenances').values({ page_id: page.id, title: 'Old window', start_at: start, end_at: start + 3_600_000, created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()

    expect(await migrateToLatest(db)).toContain('2026_12_01_0500_recurring_maintenance')
    expect(await db.selectFrom('maintenances').select(['id', 'series_id', 'occurrence_on', 'sequence']).execute()).toEqual([{ id: old.id, series_id: null, occurrence_on: null, sequence: 0 }])

    const clock = new ManualClock(Date.UTC(2027, 0, 10, 2, 30))
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock, passwords: fastTestHasher, logError: () => {} })
    expect((await app.services.pageStatus.snapshot(page.id)).activeMaintenances.map((m) => m.id)).toEqual([old.id])
    const owner = await app.services.accounts.personalTeamOwner(user)
    const series = await app.services.maintenanceSeries.create(owner, { status_page_id: page.id, title: 'Nightly', time_zone: 'Europe/Berlin', starts_on: '2027-01-11', start_time: '03:00', duration_minutes: 30, frequency: 'daily', count: 3 })
    expect(series.next.map((o) => o.on)).toEqual(['2027-01-11', '2027-01-12', '2027-01-13'])
    const rows = await db.selectFrom('maintenances').select(['series_id', 'occurrence_on']).where('series_id', '=', series.id).orderBy('start_at').execute()
    expect(rows.map((r) => r.occurrence_on)).toEqual(['2027-01-11', '2027-01-12', '2027-01-13'])
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
