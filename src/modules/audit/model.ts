/** The audit API's schemas: the filters of a read and a row as JSON. */
import { t, type Static } from 'elysia'
import { namedModels } from '../../http/schemas.ts'
import { badRequest } from '../../lib/errors.ts'
import { DAY_MS, parseRfc3339, toIso } from '../../lib/time.ts'
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE, type AuditEntry, type AuditFilters } from './service.ts'

const positiveInteger = (field: string, description: string) =>
  t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, description, error: `${field} must be a positive integer` })

const When = (field: string, description: string) =>
  t.String({ maxLength: 40, description: `${description} (2026-12-01T00:00:00Z or 2026-12-01)`, error: `${field} must be an RFC 3339 date-time or a date YYYY-MM-DD` })

export const AuditFilterQuery = t.Object({
  actor: t.Optional(positiveInteger('actor', 'The person (a user id, as `actor_user_id` shows): their sessions\' and their API keys\' changes')),
  page_id: t.Optional(positiveInteger('page_id', 'Changes to this status page and what it holds')),
  action: t.Optional(
    t.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_.-]+$', description: 'Exactly, as `action` shows (`status-pages.patch`): the route and the method', error: 'action must be 1 to 100 of a-z, 0-9, _, . and -' }),
  ),
  from: t.Optional(When('from', 'From this moment (inclusive); a date is its UTC midnight')),
  to: t.Optional(When('to', 'Until this moment (exclusive); a date counts whole (up to the next UTC midnight)')),
})

export const AuditListQuery = t.Composite([
  AuditFilterQuery,
  t.Object({
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_AUDIT_PAGE, multipleOf: 1, default: DEFAULT_AUDIT_PAGE, description: `Rows per page, at most ${MAX_AUDIT_PAGE}`, error: `limit must be an integer from 1 to ${MAX_AUDIT_PAGE}` })),
    cursor: t.Optional(positiveInteger('cursor', 'The `meta.next_cursor` of the page before: the next, older rows')),
  }),
])

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** A bound of the range in ms; a date alone is its UTC midnight (`to`: the next one). A bad value is a 400. */
function bound(field: 'from' | 'to', value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined
  const ms = DATE.test(value) ? parseRfc3339(`${value}T00:00:00Z`) : parseRfc3339(value)
  if (ms === undefined) throw badRequest(`${field} must be an RFC 3339 date-time or a date YYYY-MM-DD`)
  return field === 'to' && DATE.test(value) ? ms + DAY_MS : ms
}

/** The filters of a query, checked: a range that ends before it starts is a 400. */
export function auditFilters(query: Static<typeof AuditFilterQuery>): AuditFilters {
  const from = bound('from', query.from)
  const to = bound('to', query.to)
  if (from !== undefined && to !== undefined && to <= from) throw badRequest('to must be after from')
  return { actorUserId: query.actor, pageId: query.page_id, action: query.action, from, to }
}

export const AuditEntryJson = t.Object({
  id: t.Integer(),
  created_at: t.String({ description: 'RFC 3339' }),
  actor_kind: t.Union([t.Literal('person'), t.Literal('api_key'), t.Literal('sso'), t.Literal('probe'), t.Literal('system')], { description: 'person (a signed-in session), api_key, sso, probe or system' }),
  actor_user_id: t.Nullable(t.Integer({ description: 'The person, or the member whose API key it was' })),
  actor_label: t.String({ description: 'Who, as shown', examples: ['ops@example.com (API key deploy)'] }),
  page_id: t.Nullable(t.Integer({ description: 'The status page the change was made to, when the route names one' })),
  action: t.String({ examples: ['status-pages.patch'] }),
  object_type: t.String({ description: 'The route pattern that was called', examples: ['/user/api/v1/status-pages/:id'] }),
  object_id: t.Nullable(t.String({ description: 'The id the route named', examples: ['42'] })),
  fields: t.Array(t.String(), { description: 'The names of the fields sent; never their values', examples: [['name']] }),
  address: t.Nullable(t.String({ description: 'The client\'s address', examples: ['203.0.113.7'] })),
  client: t.Nullable(t.String({ description: 'The client, from its User-Agent', examples: ['Firefox on Linux'] })),
})

export const auditModels = namedModels({ AuditEntry: AuditEntryJson })

export const auditEntryJson = (entry: AuditEntry): Static<typeof AuditEntryJson> => ({
  id: entry.id,
  created_at: toIso(entry.createdAt),
  actor_kind: entry.actorKind,
  actor_user_id: entry.actorUserId,
  actor_label: entry.actorLabel,
  page_id: entry.pageId,
  action: entry.action,
  object_type: entry.objectType,
  object_id: entry.objectId,
  fields: entry.fields,
  address: entry.address,
  client: entry.client,
})
