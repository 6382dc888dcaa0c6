/**
 * The subscriber language migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a subscriber from before has no language (NULL: the
 * page's default is used), a chosen one is kept; `down` removes the column again.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'

const BEFORE = '2026_12_07_0300_maintenance_updates'

test('a subscriber from before has no language; a chosen one is kept; down removes the column', async () => {
  const database = await databaseBefore(BEFORE)
  const { db, migrator } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ id: user.id, name: 'old@example.com', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-subs', name: 'Old', visibility: 'public', language: 'de', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('subscribers').values({ page_id: page.id, kind: 'email', email: 'old@example.com', source: 'self', confirmed_at: 0, manage_key: 'k', created_at: 0 } as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_08_0500_subscriber_language')
    expect(await db.selectFrom('subscribers').select(['email', 'language']).execute()).toEqual([{ email: 'old@example.com', language: null }])
    await db.insertInto('subscribers').values({ page_id: page.id, kind: 'email', email: 'neu@example.com', source: 'self', manage_key: 'k2', created_at: 1, language: 'ja' }).execute()
    expect(await db.selectFrom('subscribers').select(['email', 'language']).orderBy('id').execute()).toEqual([
      { email: 'old@example.com', language: null },
      { email: 'neu@example.com', language: 'ja' },
    ])

    const down = await migrator.migrateTo(BEFORE)
    expect(down.error).toBeUndefined()
    const rows = (await db.selectFrom('subscribers').selectAll().orderBy('id').execute()) as Array<Record<string, unknown>>
    expect(rows.map((r) => r.email)).toEqual(['old@example.com', 'neu@example.com'])
    expect(rows.some((r) => 'language' in r)).toBe(false)
  } finally {
    await database.dispose()
  }
})
