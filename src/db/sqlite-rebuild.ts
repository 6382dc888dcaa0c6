import { sql, type Kysely } from 'kysely'

/**
 * SQLite's way to change a table's constraints: a new table from the changed definition, the rows
 * copied, the old one dropped and the new one renamed, then its indexes and triggers made again.
 * The migrator runs SQLite migrations outside a transaction, so foreign keys can be turned off here;
 * they are checked before being turned on again.
 */
export async function rebuildSqliteTable(db: Kysely<any>, table: string, change: (definition: string) => string): Promise<void> {
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
