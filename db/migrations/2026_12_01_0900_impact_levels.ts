import { sql, type Kysely } from 'kysely'
import { engineOf } from '../../src/db/engine.ts'
import { rebuildSqliteTable } from '../../src/db/sqlite-rebuild.ts'

/**
 * Impact levels: a component's status may also be `partial` (a partial outage, between degraded and
 * down), in `components` and `component_status_history`; the stored words up, degraded and down keep
 * their meaning, so no row changes. An incident may carry the impact its owner chose (none, minor,
 * major, critical); null (every incident made before) means "derived from what it affects".
 *
 * A CHECK constraint cannot be altered in place. PostgreSQL drops and adds it again. SQLite rebuilds
 * the table from its own stored definition with only the list of statuses changed, with foreign keys
 * off (other tables point at `components`) and its indexes and triggers made again.
 */
const TABLES = ['components', 'component_status_history'] as const
const OLD_LIST = "('up', 'degraded', 'down')"
const NEW_LIST = "('up', 'degraded', 'partial', 'down')"

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await setStatusList(db, table, OLD_LIST, NEW_LIST)
  await db.schema
    .alterTable('incidents')
    .addColumn('impact', 'text', (c) => c.check(sql`impact in ('none', 'minor', 'major', 'critical')`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incidents').dropColumn('impact').execute()
  // Back to three words: a partial outage was an outage of part of the service, closest to down.
  for (const table of TABLES) {
    await sql`UPDATE ${sql.table(table)} SET status = 'down' WHERE status = 'partial'`.execute(db)
    await setStatusList(db, table, NEW_LIST, OLD_LIST)
  }
}

async function setStatusList(db: Kysely<any>, table: string, from: string, to: string): Promise<void> {
  if (engineOf(db) === 'postgres') {
    // The first migration left the constraint unnamed: find it by what it checks.
    const found = await sql<{ conname: string }>`
      SELECT conname FROM pg_constraint
      WHERE conrelid = ${table}::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%status%'`.execute(db)
    for (const row of found.rows) await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(row.conname)}`.execute(db)
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.id(`${table}_status_check`)} CHECK (status in ${sql.raw(to)})`.execute(db)
    return
  }
  await rebuildSqliteTable(db, table, (definition) => {
    const check = `check (status in ${from})`
    if (!definition.includes(check)) throw new Error(`${table}: its definition has no ${check}`)
    return definition.replace(check, `check (status in ${to})`)
  })
}
