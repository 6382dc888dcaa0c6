/**
 * The descriptions migration on a database made by the code before it (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): a page and a component from before have an empty description (nothing
 * shown) and keep everything else; `down` removes the columns again.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'

const BEFORE = '2026_12_08_0200_sso_identities'

test('a page and a component from before have no description; a written one is kept; down removes them', async () => {
  const database = await databaseBefore(BEFORE)
  const { db, migrator } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ id: user.id, name: 'old@example.com', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-desc', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('components').values({ page_id: page.id, name: 'API', type: 'api', group_name: null, status: 'up', position: 0, created_at: 0, updated_at: 0 } as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_08_0600_descriptions')
    expect(await db.selectFrom('status_pages').select(['slug', 'name', 'description']).execute()).toEqual([{ slug: 'old-desc', name: 'Old', description: '' }])
    expect(await db.selectFrom('components').select(['name', 'status', 'description']).execute()).toEqual([{ name: 'API', status: 'up', description: '' }])
    await db.updateTable('components').set({ description: 'The **public** API' }).execute()
    expect((await db.selectFrom('components').select('description').executeTakeFirstOrThrow()).description).toBe('The **public** API')

    const down = await migrator.migrateTo(BEFORE)
    expect(down.error).toBeUndefined()
    const row = (await db.selectFrom('components').selectAll().executeTakeFirstOrThrow()) as Record<string, unknown>
    expect(row.name).toBe('API')
    expect('description' in row).toBe(false)
    expect('description' in ((await db.selectFrom('status_pages').selectAll().executeTakeFirstOrThrow()) as Record<string, unknown>)).toBe(false)
  } finally {
    await database.dispose()
  }
})
