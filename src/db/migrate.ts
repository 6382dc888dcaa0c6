import { Migrator, type Kysely, type MigrationProvider } from 'kysely'
import { migrations } from '../../db/migrations/index.ts'

const staticProvider: MigrationProvider = { getMigrations: async () => migrations }

/** Applies every pending migration; running it on an up-to-date database changes nothing. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: staticProvider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
