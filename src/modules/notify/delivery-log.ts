/**
 * The delivery log of one receiver (a channel, a subscriber): its outbox rows, newest first, with
 * what the last attempt got (time, HTTP status, latency, attempts, next retry, error), and "send
 * again", which queues a copy of a finished delivery with the same message id (`webhook-id`), so a
 * receiver that already has it can tell. The owner checks are the callers' (channels, subscribers).
 *
 * Retention: finished deliveries (sent or given up) are deleted `DELIVERY_LOG_RETENTION_DAYS` after
 * they finished; queued ones stay until they are done.
 */
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { conflict, notFound } from '../../lib/errors.ts'
import type { OutboundMail, OutboundRequest } from './contract.ts'
import type { OutboxKind, OutboxStatus } from './tables.ts'

export const DELIVERY_LOG_RETENTION_DAYS = 30
export const DELIVERY_LOG_PAGE = 50
/** How often the worker deletes what is past the retention. */
const PRUNE_EVERY_MS = 60 * 60_000
/** Rows per DELETE, so a large backlog never holds the write lock long. */
const PRUNE_BATCH = 5_000

export interface DeliveryEntry {
  id: number
  kind: OutboxKind
  /** queued (waiting for its first attempt or a retry), sent, dead (given up). */
  status: OutboxStatus
  /** What was sent: a mail's subject, a webhook's summary title; null for chat messages. */
  what: string | null
  messageId: string | null
  resendOf: number | null
  queuedAt: number
  attempts: number
  lastAttemptAt: number | null
  statusCode: number | null
  latencyMs: number | null
  /** When the next attempt is due (queued only). */
  nextAttemptAt: number | null
  error: string | null
}

const COLUMNS = ['id', 'kind', 'status', 'payload_json', 'message_id', 'resend_of', 'created_at', 'attempts', 'last_attempt_at', 'status_code', 'latency_ms', 'next_attempt_at', 'last_error'] as const

/** A short description of what a delivery carried (never its secrets: no URL, no token). */
function whatOf(kind: OutboxKind, payloadJson: string): string | null {
  try {
    const payload = JSON.parse(payloadJson) as { mail?: OutboundMail; request?: OutboundRequest }
    if (kind === 'mail') return payload.mail?.subject ?? null
    const body = JSON.parse(payload.request?.body ?? 'null') as { summary?: { title?: unknown } } | null
    return typeof body?.summary?.title === 'string' ? body.summary.title : null
  } catch {
    return null
  }
}

function entryOf(row: Record<string, unknown>): DeliveryEntry {
  const status = row.status as OutboxStatus
  return {
    id: Number(row.id),
    kind: row.kind as OutboxKind,
    status,
    what: whatOf(row.kind as OutboxKind, String(row.payload_json)),
    messageId: (row.message_id as string | null) ?? null,
    resendOf: row.resend_of === null ? null : Number(row.resend_of),
    queuedAt: Number(row.created_at),
    attempts: Number(row.attempts),
    lastAttemptAt: row.last_attempt_at === null ? null : Number(row.last_attempt_at),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    nextAttemptAt: status === 'queued' ? Number(row.next_attempt_at) : null,
    error: (row.last_error as string | null) ?? null,
  }
}

export class DeliveryLog {
  private lastPrune = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The target's deliveries, newest first: `limit` of them with ids below `before`. */
  async list(target: string, options: { before?: number; limit?: number } = {}): Promise<DeliveryEntry[]> {
    let query = this.db.selectFrom('outbox').select([...COLUMNS]).where('target', '=', target)
    if (options.before !== undefined) query = query.where('id', '<', options.before)
    const rows = await query.orderBy('id', 'desc').limit(Math.min(options.limit ?? DELIVERY_LOG_PAGE, 200)).execute()
    return rows.map(entryOf)
  }

  /**
   * Queues a finished delivery of `target` again (a new row with the same payload and message id).
   * 404 when the delivery is not the target's; 409 while it is still queued or when the target was
   * disabled after too many failures (the caller's owner turns it back on first).
   */
  async resend(target: string, deliveryId: number): Promise<DeliveryEntry> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('outbox').selectAll().where('id', '=', deliveryId).where('target', '=', target).executeTakeFirst()
      if (!row) throw notFound('no such delivery')
      if (row.status === 'queued') throw conflict('this delivery is still queued: it will be sent (or retried) on its own')
      const disabled = await trx.selectFrom('outbox_targets').select('disabled_at').where('target', '=', target).where('disabled_at', 'is not', null).executeTakeFirst()
      if (disabled) throw conflict('deliveries to this receiver were stopped after too many failures; turn it back on first')
      const now = this.clock.now()
      const copy = await trx
        .insertInto('outbox')
        .values({
          target,
          kind: row.kind,
          payload_json: row.payload_json,
          next_attempt_at: now,
          lease_until: null,
          last_error: null,
          created_at: now,
          sent_at: null,
          // The same message: receivers that already have it can tell by its webhook-id.
          message_id: row.message_id ?? `msg_outbox_${row.id}`,
          resend_of: row.id,
        })
        .returning([...COLUMNS])
        .executeTakeFirstOrThrow()
      return entryOf(copy)
    })
  }

  /**
   * Deletes finished deliveries past the retention, at most once an hour (a worker step: it runs
   * before every claim). Always resolves false: nothing is left pending for the claim.
   */
  readonly pruneStep = async (): Promise<boolean> => {
    const now = this.clock.now()
    if (now - this.lastPrune < PRUNE_EVERY_MS) return false
    this.lastPrune = now
    await this.prune(now)
    return false
  }

  /** Deletes the deliveries that finished before the retention window; returns how many. */
  async prune(now = this.clock.now()): Promise<number> {
    const cutoff = now - DELIVERY_LOG_RETENTION_DAYS * 86_400_000
    let total = 0
    for (;;) {
      const result = await this.db
        .deleteFrom('outbox')
        .where('id', 'in', (eb) => eb.selectFrom('outbox').select('id').where('status', '<>', 'queued').where('finished_at', '<', cutoff).limit(PRUNE_BATCH))
        .executeTakeFirst()
      const deleted = Number(result.numDeletedRows)
      total += deleted
      if (deleted < PRUNE_BATCH) return total
    }
  }
}
