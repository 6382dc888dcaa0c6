import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import { engineOf } from '../../db/engine.ts'

/** Bytes of the database: SQLite's file in use (pages times page size, the write-ahead log aside), or PostgreSQL's database. */
export async function databaseSizeBytes(db: Db): Promise<number> {
  const query = engineOf(db) === 'postgres'
    ? sql<{ size: number }>`select pg_database_size(current_database()) as size`
    : sql<{ size: number }>`select page_count * page_size as size from pragma_page_count(), pragma_page_size()`
  const { rows } = await query.execute(db)
  return Number(rows[0]?.size ?? 0)
}
