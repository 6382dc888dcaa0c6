/**
 * The page language and time zone migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a page from before reads in English and UTC, as it did,
 * and an owner's choice is kept; `down` removes the columns again.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'

test('a page from before reads in English and UTC; a chosen language and zone are kept; down removes them', async () => {
  const database = await databaseBefore('2026_12_06_0900_teams')
  const { db, migrator } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ id: user.id, name: 'old@example.com', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-lang', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_06_1000_page_language_and_zone')
    expect(await db.selectFrom('status_pages').select(['slug', 'language', 'time_zone']).execute()).toEqual([{ slug: 'old-lang', language: 'en', time_zone: 'UTC' }])
    await db.updateTable('status_pages').set({ language: 'pt-BR', time_zone: 'America/Sao_Paulo' }).execute()
    expect(await db.selectFrom('status_pages').select(['language', 'time_zone']).executeTakeFirstOrThrow()).toEqual({ language: 'pt-BR', time_zone: 'America/Sao_Paulo' })

    const down = await migrator.migrateTo('2026_12_06_0900_teams')
    expect(down.error).toBeUndefined()
    const row = (await db.selectFrom('status_pages').selectAll().executeTakeFirstOrThrow()) as Record<string, unknown>
    expect(row.slug).toBe('old-lang')
    expect('language' in row || 'time_zone' in row).toBe(false)
  } finally {
    await database.dispose()
  }
})
