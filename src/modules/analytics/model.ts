import { t, type Static } from 'elysia'
import { boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { toIsoOrNull, toIso } from '../../lib/time.ts'
import { MAX_LABEL, type ShareToken } from './share-tokens.ts'

const Percent = t.Nullable(t.Number({ description: 'Percent of tracked time, null when nothing was tracked' }))
const Seconds = t.Integer({ description: 'Seconds' })
const NullableSeconds = t.Nullable(t.Integer({ description: 'Seconds; null when there was no outage' }))
const Ms = t.Nullable(t.Number({ description: 'Milliseconds; null where no monitor checks exist' }))

const StatusFigures = {
  uptime_percent: Percent,
  up_s: Seconds,
  degraded_s: Seconds,
  down_s: Seconds,
  incidents: t.Integer({ description: 'Outages: times the status became down' }),
  downtime_s: Seconds,
}

export const AnalyticsQuery = t.Object({
  range: t.Optional(t.String({ maxLength: 20, description: '7d, 30d, 90d (default), 365d or custom' })),
  from: t.Optional(t.String({ maxLength: 64, description: 'Custom range start: YYYY-MM-DD or RFC 3339 (UTC day)' })),
  to: t.Optional(t.String({ maxLength: 64, description: 'Custom range end, inclusive: YYYY-MM-DD or RFC 3339; at most two years after from' })),
  token: t.Optional(t.String({ maxLength: 200, description: 'A share token, instead of an API key or session' })),
})

const AnalyticsReportJson = t.Object({
  page: t.Object({ id: t.Integer(), name: t.String(), slug: t.String() }),
  range: t.Object({
    key: t.String(),
    from: t.String({ description: 'RFC 3339' }),
    to: t.String({ description: 'RFC 3339 (now, for ranges that end today)' }),
    days: t.Integer(),
  }),
  generated_at: t.String(),
  views: t.Integer(),
  unique_visitors: t.Integer({ description: 'Sum of the daily unique visitors' }),
  incident_views: t.Integer({ description: 'Views while an incident or maintenance was active' }),
  incident_unique_visitors: t.Integer(),
  ...StatusFigures,
  mttr_s: NullableSeconds,
  mtbf_s: NullableSeconds,
  avg_response_ms: Ms,
  p95_response_ms: Ms,
  components: t.Array(
    t.Object({
      id: t.Integer(),
      name: t.String(),
      group: t.Nullable(t.String()),
      ...StatusFigures,
      tracked_s: Seconds,
      up_percent: Percent,
      degraded_percent: Percent,
      down_percent: Percent,
      mttr_s: NullableSeconds,
      mtbf_s: NullableSeconds,
      avg_response_ms: Ms,
      p95_response_ms: Ms,
    }),
  ),
  daily: t.Array(
    t.Object({
      date: t.String({ description: 'YYYY-MM-DD (UTC)' }),
      views: t.Integer(),
      unique_visitors: t.Integer(),
      incident_views: t.Integer(),
      incident_unique_visitors: t.Integer(),
      ...StatusFigures,
      avg_response_ms: Ms,
      p95_response_ms: Ms,
    }),
  ),
})

export const ShareTokenJson = t.Object({
  id: t.Integer(),
  page_id: t.Integer(),
  label: t.String(),
  read_only: t.Boolean({ description: 'Read-only links show the default range without the range picker' }),
  created_at: t.String(),
  expires_at: t.Nullable(t.String()),
  revoked_at: t.Nullable(t.String()),
  usage_count: t.Integer({ description: 'Times the shared view was opened' }),
  last_used_at: t.Nullable(t.String()),
  state: t.Union([t.Literal('active'), t.Literal('expired'), t.Literal('revoked')]),
})

export const CreateShareTokenBody = t.Object({
  label: t.Optional(boundedText('label', MAX_LABEL)),
  expires_at: t.Optional(t.Nullable(t.String({ maxLength: 64, error: 'expires_at must be an RFC 3339 date-time' }))),
  read_only: t.Optional(t.Boolean({ error: 'read_only must be true or false' })),
})

/** What creating a token takes: the JSON body. */
export type CreateTokenInput = Static<typeof CreateShareTokenBody>

export const TokenParams = t.Object({
  id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'id must be a positive integer' }),
  token_id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'token_id must be a positive integer' }),
})

/** The named models of the OpenAPI document this module defines. */
export const analyticsModels = namedModels({ ShareToken: ShareTokenJson, AnalyticsReport: AnalyticsReportJson })
export const ShareTokenRef = modelRef(analyticsModels, 'ShareToken')
export const AnalyticsReportRef = modelRef(analyticsModels, 'AnalyticsReport')

export function shareTokenJson(token: ShareToken): Static<typeof ShareTokenJson> {
  return {
    id: token.id,
    page_id: token.pageId,
    label: token.label,
    read_only: token.readOnly,
    created_at: toIso(token.createdAt),
    expires_at: toIsoOrNull(token.expiresAt),
    revoked_at: toIsoOrNull(token.revokedAt),
    usage_count: token.usageCount,
    last_used_at: toIsoOrNull(token.lastUsedAt),
    state: token.state,
  }
}
