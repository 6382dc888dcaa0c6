/** The outbox worker's SQL: claim due rows, record results, keep the per-target counts. */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import { engineOf } from '../../db/engine.ts'
import type { OutboxKind, TargetResult } from './tables.ts'

export interface ClaimedRow {
  id: number
  target: string
  kind: OutboxKind
  payload_json: string
  attempts: number
  message_id: string | null
}

/** What one attempt got, for the delivery log. */
export interface AttemptFacts {
  statusCode: number | null
  latencyMs: number
}

export class OutboxRepo {
  constructor(readonly db: Db) {}

  /**
   * Claims up to `limit` due rows with one conditional UPDATE … RETURNING: SQLite runs it under the
   * write lock, so two processes never claim the same row. The lease marks the row as being sent;
   * a process killed mid-send leaves it leased, and it is claimed again when the lease runs out.
   * On PostgreSQL rows another server is claiming at this moment are skipped (FOR UPDATE SKIP LOCKED).
   */
  async claim(now: number, leaseUntil: number, limit: number, skipTargets: readonly string[]): Promise<ClaimedRow[]> {
    if (limit <= 0) return []
    const skip = skipTargets.length > 0 ? sql`AND target NOT IN (${sql.join(skipTargets)})` : sql``
    const result = await sql<ClaimedRow>`
      UPDATE outbox SET lease_until = ${leaseUntil}
      WHERE id IN (
        SELECT id FROM outbox
        WHERE status = 'queued' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now}) ${skip}
        ORDER BY next_attempt_at, id LIMIT ${limit} ${engineOf(this.db) === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``}
      )
      RETURNING id, target, kind, payload_json, attempts, message_id`.execute(this.db)
    // Queue order (PostgreSQL returns updated rows in no particular order): a target's rows go out in it.
    return result.rows.sort((a, b) => a.id - b.id)
  }

  /** Gives claimed rows back (a graceful stop): they are sent on the next run. */
  async release(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return
    await this.db.updateTable('outbox').set({ lease_until: null }).where('id', 'in', ids).where('status', '=', 'queued').execute()
  }

  /** Frees every lease: only for the one process that runs the worker loop (SQLite), at its start. */
  async releaseAll(): Promise<number> {
    const result = await this.db.updateTable('outbox').set({ lease_until: null }).where('status', '=', 'queued').where('lease_until', 'is not', null).executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  async markSent(db: Db, row: ClaimedRow, now: number, attempt: AttemptFacts): Promise<void> {
    await db
      .updateTable('outbox')
      .set({ status: 'sent', sent_at: now, finished_at: now, lease_until: null, attempts: row.attempts + 1, last_error: null, ...attemptColumns(attempt, now) })
      .where('id', '=', row.id)
      .execute()
    await this.recordTarget(db, row.target, 'sent', null, now)
  }

  /** A failed attempt: back in the queue at `retryAt`, or dead when there is none. Returns the target's dead count. */
  async markFailed(db: Db, row: ClaimedRow, error: string, now: number, retryAt: number | undefined, attempt: AttemptFacts): Promise<number> {
    await db
      .updateTable('outbox')
      .set({ status: retryAt === undefined ? 'dead' : 'queued', finished_at: retryAt === undefined ? now : null, next_attempt_at: retryAt ?? now, lease_until: null, attempts: row.attempts + 1, last_error: error, ...attemptColumns(attempt, now) })
      .where('id', '=', row.id)
      .execute()
    return this.recordTarget(db, row.target, retryAt === undefined ? 'dead' : 'failed', error, now)
  }

  /** Disables a target and gives up what is still queued for it. True when this call disabled it. */
  async disableTarget(db: Db, target: string, now: number): Promise<boolean> {
    const result = await db.updateTable('outbox_targets').set({ disabled_at: now }).where('target', '=', target).where('disabled_at', 'is', null).executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) return false
    await db.updateTable('outbox').set({ status: 'dead', finished_at: now, last_error: 'the target was disabled after too many failed deliveries', lease_until: null }).where('target', '=', target).where('status', '=', 'queued').execute()
    return true
  }

  private async recordTarget(db: Db, target: string, result: TargetResult, error: string | null, now: number): Promise<number> {
    const row = await db
      .insertInto('outbox_targets')
      .values({ target, consecutive_dead: result === 'dead' ? 1 : 0, disabled_at: null, last_result: result, last_error: error, last_at: now })
      .onConflict((oc) =>
        oc.column('target').doUpdateSet({
          last_result: result,
          last_error: error,
          last_at: now,
          // Only a success resets the count; a failed attempt that will be retried leaves it as it is.
          consecutive_dead: result === 'sent' ? 0 : result === 'dead' ? sql`outbox_targets.consecutive_dead + 1` : sql`outbox_targets.consecutive_dead`,
        }),
      )
      .returning('consecutive_dead')
      .executeTakeFirstOrThrow()
    return row.consecutive_dead
  }
}

/** A thread's kept names (chat-threads.ts), or undefined. */
export async function threadRefs(db: Db, target: string, key: string): Promise<Record<string, string | number> | undefined> {
  const row = await db.selectFrom('outbox_threads').select('refs_json').where('target', '=', target).where('thread_key', '=', key).executeTakeFirst()
  return row ? (JSON.parse(row.refs_json) as Record<string, string | number>) : undefined
}

/** Keeps the first message of an outage (a second one for the same outage keeps the first's). */
export async function keepThread(db: Db, target: string, key: string, refs: Record<string, string | number>, now: number): Promise<void> {
  await db.insertInto('outbox_threads').values({ target, thread_key: key, refs_json: JSON.stringify(refs), created_at: now }).onConflict((oc) => oc.columns(['target', 'thread_key']).doNothing()).execute()
}

/** Forgets first messages kept since before `before`. */
export async function pruneThreads(db: Db, before: number): Promise<void> {
  await db.deleteFrom('outbox_threads').where('created_at', '<', before).execute()
}

const attemptColumns = (attempt: AttemptFacts, now: number) => ({ status_code: attempt.statusCode, latency_ms: Math.round(attempt.latencyMs), last_attempt_at: now })
