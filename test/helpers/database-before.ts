/**
 * A database as the code before a migration left it, for that migration's test: an empty database
 * (a SQLite file, or PostgreSQL with LANTERN_TEST_POSTGRES, as the tests run) in a folder of its own,
 * migrated up to `before` and no further. The test writes rows the old code would have written, then
 * moves on with `migrateToLatest(db)` or `migrator.migrateTo(…)` (down included).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Migrator } from 'kysely'
import { migrations } from '../../db/migrations/index.ts'
import type { DatabaseHandle } from '../../src/db/client.ts'
import { engineOf, PostgresSchemaPlugin } from '../../src/db/engine.ts'
import { emptyTestDatabase, type TestDatabase } from './database.ts'

export interface DatabaseBefore extends TestDatabase {
  db: DatabaseHandle['db']
  /** The same database through the schema plugin the server uses on PostgreSQL (for introspection). */
  target: DatabaseHandle['db']
  /** The test's own folder (the SQLite file lives there). */
  dir: string
  /** Migrates up or down by name, through the same schema plugin the server uses on PostgreSQL. */
  migrator: Migrator
  /** Closes the database (dropping it on PostgreSQL) and removes the folder. */
  dispose(): Promise<void>
}

/** The name of the migration just before `name` (for a test that should not need changing when later ones are added). */
export function migrationBefore(name: string): string {
  const names = Object.keys(migrations).sort()
  const at = names.indexOf(name)
  if (at < 1) throw new Error(`no migration before ${name}`)
  return names[at - 1]!
}

export async function databaseBefore(before: string): Promise<DatabaseBefore> {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-migration-'))
  const database = await emptyTestDatabase(dir)
  const { db } = database.handle
  const dispose = async () => {
    await database.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
  const target = engineOf(db) === 'postgres' ? db.withPlugin(new PostgresSchemaPlugin()) : db
  const migrator = new Migrator({ db: target, provider: { getMigrations: async () => migrations } })
  const { error } = await migrator.migrateTo(before)
  if (error !== undefined) {
    await dispose()
    throw error
  }
  return { ...database, db, target, dir, migrator, dispose }
}
