import { sql, type Kysely } from 'kysely'

/**
 * Attempt budgets in the database (issue 17): the login, password-change and page-gate throttles
 * (and the sign-up, subscribe and lookup limits) count here, so several app servers (or WORKERS=N)
 * share one budget instead of handing a guesser one per process. Keys are SHA-256 hashes (no emails or addresses at rest). Both tables
 * are swept by their end time, hence the indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('attempt_budgets')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('ends_at', 'integer', (c) => c.notNull())
    .modifyEnd(sql`without rowid`)
    .execute()
  await db.schema.createIndex('attempt_budgets_ends_at').on('attempt_budgets').column('ends_at').execute()
  await db.schema
    .createTable('attempt_known_clients')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('known_until', 'integer', (c) => c.notNull())
    .modifyEnd(sql`without rowid`)
    .execute()
  await db.schema.createIndex('attempt_known_clients_known_until').on('attempt_known_clients').column('known_until').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attempt_known_clients').execute()
  await db.schema.dropTable('attempt_budgets').execute()
}
