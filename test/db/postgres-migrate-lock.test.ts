/**
 * Several app servers starting at once on an empty PostgreSQL database (issue 17): the migrator's
 * lock makes one of them migrate while the others wait, then find nothing left to do. Runs when
 * LANTERN_TEST_POSTGRES names a server; skipped otherwise.
 */
import { describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { migrations } from '../../db/migrations/index.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { openPostgres } from '../../src/db/postgres.ts'
import { testPostgresServer } from '../helpers/database.ts'

describe.skipIf(!testPostgresServer)('migrations on PostgreSQL', () => {
  test('three servers migrating one empty database at once: each migration runs exactly once, all three start', async () => {
    const name = `lantern_lock_${process.pid}`
    const admin = openPostgres(`${testPostgresServer}/postgres`, { max: 1 })
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)}`.execute(admin.db)
    await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db)
    const servers = [0, 1, 2].map(() => openPostgres(`${testPostgresServer}/${name}`, { max: 2 }))
    try {
      const applied = await Promise.all(servers.map((server) => migrateToLatest(server.db)))
      // One server applied all of them; the others waited for the lock and found none left.
      expect(applied.map((names) => names.length).sort((x, y) => x - y)).toEqual([0, 0, Object.keys(migrations).length])
      const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(servers[0]!.db)
      expect(rows.rows.map((row) => row.name)).toEqual(Object.keys(migrations))
    } finally {
      await Promise.all(servers.map((server) => server.close()))
      await sql`DROP DATABASE IF EXISTS ${sql.id(name)}`.execute(admin.db)
      await admin.close()
    }
  })
})
