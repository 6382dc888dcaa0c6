/**
 * The audit log in the management API: the acting team's rows, newest first, filtered and paged,
 * as JSON and as CSV. Read only: no route writes, changes or deletes a row (the retention pruning
 * is a background job). Admins and owners (accounts/route-permissions.ts).
 *
 *   GET /user/api/v1/team/audit?actor=&page_id=&action=&from=&to=&limit=&cursor=
 *   GET /user/api/v1/team/audit.csv?actor=&page_id=&action=&from=&to=
 */
import { Elysia, t } from 'elysia'
import { errorResponses, modelRef, sharedModels, textAnswer } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { auditCsv } from './csv.ts'
import { AuditFilterQuery, auditEntryJson, auditFilters, AuditListQuery, auditModels } from './model.ts'
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_CSV_ROWS, type AuditService } from './service.ts'

const NO_STORE = { 'cache-control': 'no-store' }
const EntryRef = modelRef(auditModels, 'AuditEntry')
const FILTERS_TEXT =
  'Filters: `actor` (a user id), `page_id`, `action` (exact), `from` and `to` (RFC 3339, or a date YYYY-MM-DD in UTC; `to` is exclusive, a date counts whole). A bad filter is a 400. Only the team you act in; admins and owners.'

export function auditRoutes(deps: { accounts: AccountsService; audit: AuditService }) {
  const { audit } = deps
  const detail = (summary: string, description: string) => ({ tags: ['Teams'], summary, description, security: apiKeySecurity })
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(auditModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/team/audit',
      async ({ owner, query, set }) => {
        Object.assign(set.headers, NO_STORE)
        const page = await audit.list(owner.id, auditFilters(query), { limit: query.limit ?? DEFAULT_AUDIT_PAGE, cursor: query.cursor })
        return { data: page.entries.map(auditEntryJson), meta: { count: page.entries.length, next_cursor: page.nextCursor } }
      },
      {
        query: AuditListQuery,
        response: {
          200: t.Object({
            data: t.Array(EntryRef),
            meta: t.Object({ count: t.Integer(), next_cursor: t.Nullable(t.Integer({ description: 'Pass as `cursor` for the next, older page; null on the last page' })) }),
          }),
          ...errorResponses,
        },
        detail: detail(
          'The team\'s audit log',
          `Every change made to the team through the API or by a session, newest first: who, from which address and client, the action and object, and the names of the fields sent (never their values). ${FILTERS_TEXT} Rows are kept for the plan's retention, then pruned.`,
        ),
      },
    )
    .get(
      '/team/audit.csv',
      async ({ owner, query }) => {
        const page = await audit.list(owner.id, auditFilters(query), { limit: MAX_AUDIT_CSV_ROWS })
        return new Response(auditCsv(page.entries), {
          headers: { ...NO_STORE, 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="audit-team-${owner.id}.csv"` },
        })
      },
      {
        query: AuditFilterQuery,
        response: { 200: textAnswer('text/csv', `The rows, newest first, at most ${MAX_AUDIT_CSV_ROWS}`), ...errorResponses },
        detail: detail('The team\'s audit log as CSV', `The same rows as the JSON read, newest first, at most ${MAX_AUDIT_CSV_ROWS.toLocaleString('en')} (narrow the range for more). Cells a spreadsheet would run as formulas get a leading apostrophe. ${FILTERS_TEXT}`),
      },
    )
}
