/**
 * The maintenance-cancellations migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a window from before, deleted after the migration, leaves
 * its cancellation (UID's id, times, title, SEQUENCE one higher) and nothing else; deleting the page
 * takes the cancellation with it.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

test('a window from before, deleted, leaves its cancellation; the page takes it along', async () => {
  const database = await databaseBefore('2026_12_08_0700_audit_log_page_index')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ id: user.id, name: 'old@example.com', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    await db.insertInto('team_members').values({ team_id: user.id, user_id: user.id, role: 'owner', created_at: 0 } as never).execute()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-page', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const start = Date.UTC(2027, 0, 10, 2)
    const old = await db.insertInto('maintenances').values({ page_id: page.id, title: 'Old window', message: 'As planned', start_at: start, end_at: start + 3_600_000, sequence: 3, created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()

    expect(await migrateToLatest(db)).toContain('2026_12_09_0100_maintenance_cancellations')
    expect(await db.selectFrom('maintenance_cancellations').selectAll().execute()).toEqual([])

    const clock = new ManualClock(Date.UTC(2027, 0, 5))
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock, passwords: fastTestHasher, logError: () => {} })
    const owner = await app.services.accounts.personalTeamOwner(user)
    await app.services.maintenances.delete(owner, old.id)
    expect(await app.services.maintenances.cancelledForPage(page.id)).toEqual([{ id: old.id, title: 'Old window', startAt: start, endAt: start + 3_600_000, sequence: 4, deletedAt: clock.now() }])
    const row = await db.selectFrom('maintenance_cancellations').selectAll().executeTakeFirstOrThrow()
    expect(Object.keys(row).toSorted()).toEqual(['deleted_at', 'end_at', 'maintenance_id', 'page_id', 'sequence', 'start_at', 'title'])
    expect(await db.selectFrom('maintenances').selectAll().execute()).toEqual([])

    await app.services.pages.delete(owner, page.id)
    expect(await db.selectFrom('maintenance_cancellations').selectAll().execute()).toEqual([])
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
