/** The SQL of operations: online backup and integrity check. */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'

export class OperationsRepo {
  constructor(private readonly db: Db) {}

  /** Writes a consistent, compacted copy of the database to `target` (which must not exist). */
  async vacuumInto(target: string): Promise<void> {
    await sql`VACUUM INTO ${target}`.execute(this.db)
  }

  /** `PRAGMA integrity_check`: `['ok']` for a sound database, else the problems found. */
  async integrityCheck(): Promise<string[]> {
    const { rows } = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(this.db)
    return rows.map((row) => row.integrity_check)
  }
}
