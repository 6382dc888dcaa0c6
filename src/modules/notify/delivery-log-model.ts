/** The delivery log in the management API: one JSON shape for channels and subscribers. */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import { notFound } from '../../lib/errors.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import { DELIVERY_LOG_RETENTION_DAYS, type DeliveryEntry } from './delivery-log.ts'

const DeliveryJson = t.Object({
  id: t.Integer({ description: 'The delivery (used by "send again")' }),
  kind: t.Union([t.Literal('http'), t.Literal('mail')]),
  status: t.Union([t.Literal('queued'), t.Literal('sent'), t.Literal('dead')], { description: 'queued: waiting for its first attempt or a retry; sent; dead: given up after the last retry' }),
  what: t.Union([t.String(), t.Null()], { description: "A mail's subject or a webhook's summary title; null for chat messages" }),
  message_id: t.Union([t.String(), t.Null()], { description: 'The `webhook-id` header it carries: the same on every attempt and when sent again' }),
  resend_of: t.Union([t.Integer(), t.Null()], { description: 'The delivery this one sends again' }),
  queued_at: t.String({ description: 'RFC 3339' }),
  attempts: t.Integer({ description: 'Attempts made so far' }),
  last_attempt_at: t.Union([t.String(), t.Null()]),
  status_code: t.Union([t.Integer(), t.Null()], { description: 'The HTTP status of the last answer; null without an answer (timeout, refused) and for mail' }),
  latency_ms: t.Union([t.Integer(), t.Null()], { description: 'How long the last attempt took' }),
  next_attempt_at: t.Union([t.String(), t.Null()], { description: 'When the next attempt is due (queued only)' }),
  error: t.Union([t.String(), t.Null()], { description: 'Why the last attempt failed' }),
})

export const deliveryModels = namedModels({ Delivery: DeliveryJson })
export const DeliveryRef = modelRef(deliveryModels, 'Delivery')

export const DeliveryLogAnswer = t.Object({
  data: t.Array(DeliveryRef),
  meta: t.Object({ retention_days: t.Integer({ description: 'Finished deliveries (sent or given up) are deleted this many days after they finished' }) }),
})

export const DeliveryLogQuery = t.Object({
  before: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'before must be a delivery id' })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1, error: 'limit must be an integer from 1 to 200' })),
})

/** A delivery id from a path: anything else names no delivery (a 404, as someone else's id). */
export function deliveryIdOf(raw: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw notFound('no such delivery')
  return Number(raw)
}

export const deliveryJson = (e: DeliveryEntry): Static<typeof DeliveryJson> => ({
  id: e.id,
  kind: e.kind,
  status: e.status,
  what: e.what,
  message_id: e.messageId,
  resend_of: e.resendOf,
  queued_at: toIso(e.queuedAt),
  attempts: e.attempts,
  last_attempt_at: toIsoOrNull(e.lastAttemptAt),
  status_code: e.statusCode,
  latency_ms: e.latencyMs,
  next_attempt_at: toIsoOrNull(e.nextAttemptAt),
  error: e.error,
})

export const deliveryLogJson = (entries: readonly DeliveryEntry[]) => ({ data: entries.map(deliveryJson), meta: { retention_days: DELIVERY_LOG_RETENTION_DAYS } })
