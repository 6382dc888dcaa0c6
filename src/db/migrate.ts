import { Migrator, type Kysely, type MigrationProvider } from 'kysely'
import { migrations } from '../../db/migrations/index.ts'
import { engineOf, PostgresSchemaPlugin } from './engine.ts'

const staticProvider: MigrationProvider = { getMigrations: async () => migrations }

/** Applies every pending migration; running it on an up-to-date database changes nothing. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // On PostgreSQL the SQLite-style DDL is rewritten as it is compiled (engine.ts); the migrator's
  // advisory lock lets several servers start at once.
  const target = engineOf(db) === 'postgres' ? db.withPlugin(new PostgresSchemaPlugin()) : db
  const migrator = new Migrator({ db: target, provider: staticProvider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
