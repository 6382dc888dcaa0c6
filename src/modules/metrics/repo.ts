import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'

/** Bytes of the database file in use: pages times page size (the write-ahead log aside). */
export async function databaseSizeBytes(db: Db): Promise<number> {
  const { rows } = await sql<{ size: number }>`select page_count * page_size as size from pragma_page_count(), pragma_page_size()`.execute(db)
  return Number(rows[0]?.size ?? 0)
}
