import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'

// A database made by the code before: its accounts stay, the mapping table arrives empty, one
// source key maps once per account, and an account's mappings go with it.
test('a database made before the import mappings: migrated, mappings are unique per account and go with it', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const now = Date.UTC(2026, 11, 1, 6)
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: now } as never).returning('id').executeTakeFirstOrThrow()

    await migrateToLatest(db)
    expect(await db.selectFrom('import_mappings').selectAll().execute()).toEqual([])
    const row = { owner_id: user.id, source: 'uptime-kuma', source_key: 'monitor:7', kind: 'monitor', lantern_id: 42, created_at: now }
    await db.insertInto('import_mappings').values(row).execute()
    expect(await db.selectFrom('import_mappings').selectAll().execute()).toEqual([row])
    await expect(db.insertInto('import_mappings').values({ ...row, lantern_id: 43 }).execute()).rejects.toThrow()
    await db.deleteFrom('users').where('id', '=', user.id).execute()
    expect(await db.selectFrom('import_mappings').selectAll().execute()).toEqual([])
  } finally {
    await database.dispose()
  }
})
