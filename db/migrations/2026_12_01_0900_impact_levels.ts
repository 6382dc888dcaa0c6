import { sql, type Kysely } from 'kysely'
import { engineOf } from '../../src/db/engine.ts'

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

/**
 * SQLite's way to change a table's constraints: a new table from the changed definition, the rows
 * copied, the old one dropped and the new one renamed, then its indexes and triggers made again.
 * The migrator runs SQLite migrations outside a transaction, so foreign keys can be turned off here;
 * they are checked before being turned on again.
 */
async function rebuildSqliteTable(db: Kysely<any>, table: string, change: (definition: string) => string): Promise<void> {
  const objects = await sql<{ type: string; name: string; sql: string | null }>`
    SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ${table} ORDER BY type = 'table' DESC`.execute(db)
  const definition = objects.rows.find((o) => o.type === 'table')?.sql
  if (!definition) throw new Error(`${table}: no such table`)
  const temporary = `${table}_rebuilt`
  const created = change(definition).replace(/^CREATE TABLE\s+("[^"]+"|\S+)/i, `CREATE TABLE "${temporary}"`)
  const sequence = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = ${table}`.execute(db)
  await sql`PRAGMA foreign_keys = OFF`.execute(db)
  try {
    await sql`BEGIN IMMEDIATE`.execute(db)
    try {
      // Renaming must not rewrite triggers of other tables that name this one while it is gone.
      await sql`PRAGMA legacy_alter_table = ON`.execute(db)
      await sql.raw(created).execute(db)
      await sql`INSERT INTO ${sql.table(temporary)} SELECT * FROM ${sql.table(table)}`.execute(db)
      await sql`DROP TABLE ${sql.table(table)}`.execute(db)
      await sql`ALTER TABLE ${sql.table(temporary)} RENAME TO ${sql.table(table)}`.execute(db)
      await sql`PRAGMA legacy_alter_table = OFF`.execute(db)
      // AUTOINCREMENT never hands out an id again, even one whose row was deleted.
      const seq = sequence.rows[0]?.seq
      if (seq !== undefined) await sql`UPDATE sqlite_sequence SET seq = ${seq} WHERE name = ${table} AND seq < ${seq}`.execute(db)
      for (const object of objects.rows) if (object.type !== 'table' && object.sql) await sql.raw(object.sql).execute(db)
      const broken = await sql`PRAGMA foreign_key_check`.execute(db)
      if (broken.rows.length > 0) throw new Error(`${table}: rebuilding it broke ${broken.rows.length} foreign keys`)
      await sql`COMMIT`.execute(db)
    } catch (error) {
      await sql`ROLLBACK`.execute(db)
      throw error
    }
  } finally {
    await sql`PRAGMA legacy_alter_table = OFF`.execute(db)
    await sql`PRAGMA foreign_keys = ON`.execute(db)
  }
}
