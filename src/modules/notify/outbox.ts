/**
 * The outbox writer: deliveries become rows in the caller's transaction (contract.ts). Mail rows
 * are dropped while mail is off (no SMTP_HOST); rows for a disabled target are never written.
 */
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { randomToken } from '../../lib/crypto.ts'
import type { Delivery, OutboxWriter } from './contract.ts'
import type { OutboxKind, TargetResult } from './tables.ts'

/** Rows per INSERT: 8 values each keeps one statement far below SQLite's variable limit. */
const INSERT_CHUNK = 500
/** Targets per `in (…)` lookup. */
const LOOKUP_CHUNK = 500

/** The last delivery result for one target, for the owner screens. */
export interface TargetHistory {
  target: string
  /** `sent`, `failed` (will be retried) or `dead` (gave up); null before the first attempt. */
  lastResult: TargetResult | null
  lastError: string | null
  lastAt: number | null
  /** Dead deliveries in a row (20 disable the target). */
  consecutiveDead: number
  disabledAt: number | null
  /** Deliveries waiting to be sent (first attempt or a retry). */
  queued: number
}

/** A delivery's `webhook-id`: random, so it never repeats after a restore or on another instance. */
export const newWebhookId = () => `msg_${randomToken(18)}`

export class Outbox implements OutboxWriter {
  constructor(
    readonly mailEnabled: boolean,
    private readonly clock: Clock,
    /** A new Message-ID (mail.ts `messageIdMaker`), stored with the mail so that retries keep it. */
    private readonly newMessageId: () => string,
  ) {}

  async enqueue(db: Db, deliveries: readonly Delivery[]): Promise<void> {
    const wanted = this.mailEnabled ? deliveries : deliveries.filter((delivery) => !('mail' in delivery))
    if (wanted.length === 0) return
    const disabled = await disabledTargets(db, [...new Set(wanted.map((delivery) => delivery.target))])
    const now = this.clock.now()
    const rows = wanted
      .filter((delivery) => !disabled.has(delivery.target))
      .map((delivery) => {
        const kind: OutboxKind = 'mail' in delivery ? 'mail' : 'http'
        const payload = 'mail' in delivery ? { mail: { ...delivery.mail, messageId: delivery.mail.messageId ?? this.newMessageId() } } : { request: delivery.request }
        return { target: delivery.target, kind, payload_json: JSON.stringify(payload), next_attempt_at: now, lease_until: null, last_error: null, created_at: now, sent_at: null, message_id: newWebhookId() }
      })
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await db.insertInto('outbox').values(rows.slice(start, start + INSERT_CHUNK)).execute()
    }
  }

  /** The last result per target (targets with no history and nothing queued are left out). */
  deliveryHistory(db: Db, targets: readonly string[]): Promise<Map<string, TargetHistory>> {
    return deliveryHistory(db, targets)
  }

  /** Lets a disabled target receive again (the owner fixed it), with a clean count. */
  async enableTarget(db: Db, target: string): Promise<void> {
    await db.updateTable('outbox_targets').set({ disabled_at: null, consecutive_dead: 0 }).where('target', '=', target).execute()
  }

  /** Forgets a target and drops what is still queued for it (a channel or subscriber was deleted). */
  async forgetTarget(db: Db, target: string): Promise<void> {
    await db.deleteFrom('outbox').where('target', '=', target).where('status', '=', 'queued').execute()
    await db.deleteFrom('outbox_targets').where('target', '=', target).execute()
  }
}

/** The last result per target (targets with no history and nothing queued are left out). */
export async function deliveryHistory(db: Db, targets: readonly string[]): Promise<Map<string, TargetHistory>> {
  const history = new Map<string, TargetHistory>()
  for (const part of chunks([...new Set(targets)], LOOKUP_CHUNK)) {
    const rows = await db.selectFrom('outbox_targets').selectAll().where('target', 'in', part).execute()
    for (const row of rows) {
      history.set(row.target, { target: row.target, lastResult: row.last_result, lastError: row.last_error, lastAt: row.last_at, consecutiveDead: row.consecutive_dead, disabledAt: row.disabled_at, queued: 0 })
    }
    const queued = await db
      .selectFrom('outbox')
      .select(['target', (eb) => eb.fn.countAll<number>().as('count')])
      .where('status', '=', 'queued')
      .where('target', 'in', part)
      .groupBy('target')
      .execute()
    for (const row of queued) {
      const entry = history.get(row.target) ?? { target: row.target, lastResult: null, lastError: null, lastAt: null, consecutiveDead: 0, disabledAt: null, queued: 0 }
      entry.queued = Number(row.count)
      history.set(row.target, entry)
    }
  }
  return history
}

async function disabledTargets(db: Db, targets: string[]): Promise<Set<string>> {
  const disabled = new Set<string>()
  for (const part of chunks(targets, LOOKUP_CHUNK)) {
    const rows = await db.selectFrom('outbox_targets').select('target').where('target', 'in', part).where('disabled_at', 'is not', null).execute()
    for (const row of rows) disabled.add(row.target)
  }
  return disabled
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = []
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size))
  return parts
}
