import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Migrator, sql } from 'kysely'
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts'
import { engineOf, PostgresSchemaPlugin } from '../../src/db/engine.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { openPostgres } from '../../src/db/postgres.ts'
import { testPostgresServer } from '../helpers/database.ts'
import { migrations } from '../../db/migrations/index.ts'

/** An empty database on the engine the tests run on (SQLite, or PostgreSQL with LANTERN_TEST_POSTGRES). */
async function emptyDatabase(dir: string): Promise<DatabaseHandle & { drop(): Promise<void> }> {
  if (!testPostgresServer) {
    const handle = openDatabase(join(dir, 'lantern.sqlite'))
    return { ...handle, drop: async () => {} }
  }
  const name = `lantern_import_mappings_${process.pid}`
  const admin = openPostgres(`${testPostgresServer}/postgres`, { max: 1 })
  await sql`DROP DATABASE IF EXISTS ${sql.id(name)}`.execute(admin.db)
  await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db)
  const handle = openPostgres(`${testPostgresServer}/${name}`, { max: 2 })
  return {
    ...handle,
    async drop() {
      await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db)
      await admin.close()
    },
  }
}

// A database made by the code before: its accounts stay, the mapping table arrives empty, one
// source key maps once per account, and an account's mappings go with it.
test('a database made before the import mappings: migrated, mappings are unique per account and go with it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-import-mappings-'))
  const { db, close, drop } = await emptyDatabase(dir)
  try {
    const target = engineOf(db) === 'postgres' ? db.withPlugin(new PostgresSchemaPlugin()) : db
    const before = new Migrator({ db: target, provider: { getMigrations: async () => migrations } })
    const { error } = await before.migrateTo('2026_11_30_0700_custom_domain_state')
    expect(error).toBeUndefined()
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
    await close()
    await drop()
    rmSync(dir, { recursive: true, force: true })
  }
})
