/**
 * The maintenance-updates migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a window from before has an empty timeline and keeps its
 * description and SEQUENCE; an update can then be posted to it, and goes when the window is deleted.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

test('windows from before get an empty timeline; updates can be posted to them', async () => {
  const database = await databaseBefore('2026_12_07_0100_channels_verified_by_test')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ id: user.id, name: 'old@example.com', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    await db.insertInto('team_members').values({ team_id: user.id, user_id: user.id, role: 'owner', created_at: 0 } as never).execute()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-page', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const start = Date.UTC(2027, 0, 10, 2)
    const old = await db.insertInto('maintenances').values({ page_id: page.id, title: 'Old window', message: 'As planned', start_at: start, end_at: start + 3_600_000, sequence: 3, created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()

    expect(await migrateToLatest(db)).toContain('2026_12_07_0300_maintenance_updates')
    expect(await db.selectFrom('maintenance_updates').selectAll().execute()).toEqual([])

    const clock = new ManualClock(Date.UTC(2027, 0, 10, 2, 30))
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock, passwords: fastTestHasher, logError: () => {} })
    const owner = await app.services.accounts.personalTeamOwner(user)
    const window = await app.services.maintenances.get(owner, old.id)
    expect(window).toMatchObject({ message: 'As planned', sequence: 3, updates: [] })
    const updated = await app.services.maintenances.addUpdate(owner, old.id, { message: 'Half way' })
    expect(updated.sequence).toBe(4)
    expect(updated.updates).toEqual([{ id: expect.any(Number), status: 'in_progress', message: 'Half way', at: clock.now() }])
    // A window's updates go with it.
    await app.services.maintenances.delete(owner, old.id)
    expect(await db.selectFrom('maintenance_updates').selectAll().execute()).toEqual([])
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
