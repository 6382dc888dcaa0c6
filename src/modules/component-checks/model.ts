import { t, type Static } from 'elysia'
import { MAX_CHECKS_PER_BATCH, MAX_RESPONSE_MS } from './types.ts'

export const CheckBatchBody = t.Array(
  t.Object({
    at: t.String({ maxLength: 64, error: 'at must be an RFC 3339 date-time' }),
    ok: t.Boolean({ error: 'ok must be true or false' }),
    response_ms: t.Optional(
      t.Nullable(t.Integer({ minimum: 0, maximum: MAX_RESPONSE_MS }), {
        error: `response_ms must be an integer from 0 to ${MAX_RESPONSE_MS} or null`,
      }),
    ),
  }),
  { maxItems: MAX_CHECKS_PER_BATCH, error: `checks must be an array of at most ${MAX_CHECKS_PER_BATCH} {at, ok, response_ms} entries` },
)

/** One reported check result, as the batch body carries it. */
export type CheckInput = Static<typeof CheckBatchBody>[number]
