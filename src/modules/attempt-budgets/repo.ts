/**
 * Attempt budgets in the database, shared by every app server (and worker) on it: the store behind
 * src/lib/attempt-budget.ts and guess-throttle.ts. A budget is one row per key with a fixed window; an
 * attempt is one conditional upsert per budget, all of an attempt's budgets in one transaction, so
 * parallel attempts through any number of servers cannot slip past a limit, and a refused attempt
 * counts nowhere (as the in-memory throttle had it: a held-back guesser must not use up a shared
 * budget). Rows are locked in key order, so two attempts never wait on each other in a cycle.
 * Ended windows and lapsed exemptions are swept in bounded batches, at most once a minute per process.
 */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import { engineOf } from '../../db/engine.ts'
import type { AttemptBudgetStore, BudgetCount, GuessSuccess } from '../../lib/attempt-budget.ts'

const SWEEP_EVERY_MS = 60_000
const SWEEP_BATCH = 500

/** Thrown inside the transaction to roll back the budgets counted before a spent one. */
class Refused {
  constructor(readonly retryAfterMs: number) {}
}

export class AttemptBudgetsRepo implements AttemptBudgetStore {
  private nextSweepAt = 0

  constructor(private readonly db: Db) {}

  async take(budgets: readonly BudgetCount[], now: number): Promise<number> {
    if (now >= this.nextSweepAt) {
      this.nextSweepAt = now + SWEEP_EVERY_MS
      await this.sweep(now, SWEEP_BATCH)
    }
    const ordered = [...budgets].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0))
    try {
      await this.db.transaction().execute(async (trx) => {
        let wait = 0
        for (const budget of ordered) {
          const counted = await trx
            .insertInto('attempt_budgets')
            .values({ key: budget.key, attempts: 1, ends_at: now + budget.windowMs })
            .onConflict((oc) =>
              oc
                .column('key')
                .doUpdateSet({
                  // A window that has ended starts again with this attempt.
                  attempts: sql`case when attempt_budgets.ends_at <= ${now} then 1 else attempt_budgets.attempts + 1 end`,
                  ends_at: sql`case when attempt_budgets.ends_at <= ${now} then ${now + budget.windowMs} else attempt_budgets.ends_at end`,
                })
                .where(sql<boolean>`attempt_budgets.ends_at <= ${now} or attempt_budgets.attempts < ${budget.limit}`),
            )
            .returning('attempts')
            .executeTakeFirst()
          if (counted) continue
          // Not updated: the row is live and spent (and locked by the upsert until we end).
          const row = await trx.selectFrom('attempt_budgets').select('ends_at').where('key', '=', budget.key).executeTakeFirstOrThrow()
          wait = Math.max(wait, row.ends_at - now)
        }
        if (wait > 0) throw new Refused(wait)
      })
      return 0
    } catch (error) {
      if (error instanceof Refused) return error.retryAfterMs
      throw error
    }
  }

  async succeeded(success: GuessSuccess): Promise<void> {
    const { now } = success
    await this.db.transaction().execute(async (trx) => {
      for (const key of [...success.refund, ...success.reset].sort()) {
        if (success.reset.includes(key)) await trx.deleteFrom('attempt_budgets').where('key', '=', key).execute()
        else await trx.updateTable('attempt_budgets').set({ attempts: sql`attempts - 1` }).where('key', '=', key).where('ends_at', '>', now).where('attempts', '>', 0).execute()
      }
      await trx
        .insertInto('attempt_known_clients')
        .values({ key: success.known, known_until: success.knownUntil })
        .onConflict((oc) => oc.column('key').doUpdateSet({ known_until: success.knownUntil }))
        .execute()
    })
  }

  async isKnown(key: string, now: number): Promise<boolean> {
    const row = await this.db.selectFrom('attempt_known_clients').select('key').where('key', '=', key).where('known_until', '>', now).executeTakeFirst()
    return row !== undefined
  }

  /**
   * Deletes up to `max` ended budgets and lapsed known clients. On PostgreSQL rows an attempt holds
   * are skipped, so a sweep never waits on (or deadlocks with) a login.
   */
  async sweep(now: number, max: number): Promise<void> {
    const skipLocked = engineOf(this.db) === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``
    await sql`DELETE FROM attempt_budgets WHERE key IN (SELECT key FROM attempt_budgets WHERE ends_at <= ${now} LIMIT ${max} ${skipLocked})`.execute(this.db)
    await sql`DELETE FROM attempt_known_clients WHERE key IN (SELECT key FROM attempt_known_clients WHERE known_until <= ${now} LIMIT ${max} ${skipLocked})`.execute(this.db)
  }
}
