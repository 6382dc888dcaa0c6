/** SQL of the recent lookups: insert and trim to the plan's number in ONE transaction. */
import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { ToolChecksTable } from './tables.ts'

export type ToolCheckRow = Selectable<ToolChecksTable>

export class ToolChecksRepo {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the check and deletes the user's older ones past the newest `keep`, in the same
   * transaction: no reader, and no second lookup racing this one, ever sees more than `keep`.
   */
  insertKeeping(row: Insertable<ToolChecksTable>, keep: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('tool_checks').values(row).returning('id').executeTakeFirstOrThrow()
      await trx
        .deleteFrom('tool_checks')
        .where('user_id', '=', row.user_id)
        .where('id', 'not in', trx.selectFrom('tool_checks').select('id').where('user_id', '=', row.user_id).orderBy('id', 'desc').limit(keep))
        .execute()
      return id
    })
  }

  /** Newest first. */
  list(userId: number, limit: number): Promise<ToolCheckRow[]> {
    return this.db.selectFrom('tool_checks').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute()
  }

  find(userId: number, id: number): Promise<ToolCheckRow | undefined> {
    return this.db.selectFrom('tool_checks').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
  }

  async count(userId: number): Promise<number> {
    const row = await this.db.selectFrom('tool_checks').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()
    return Number(row.n)
  }
}
