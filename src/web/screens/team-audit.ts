/**
 * The audit log screen of the team the browser acts in (views in views/team-audit.ts), on the
 * AuditService reads the API's /user/api/v1/team/audit calls:
 *
 *   GET /user/team/audit?actor=&page_id=&action=&from=&to=&cursor=    filters, rows, paging
 *
 * Admins and owners (`manage`, route-permissions.ts). A bad filter is shown on the page (400).
 */
import { Elysia, t } from 'elysia'
import { HttpError } from '../../lib/errors.ts'
import { auditFilters } from '../../modules/audit/model.ts'
import { DEFAULT_AUDIT_PAGE, type AuditFilters } from '../../modules/audit/service.ts'
import { auditRetentionDays } from '../../modules/plans/roles.ts'
import type { FormState } from '../kit/forms.ts'
import { screens } from '../kit/guard.ts'
import { zoneOf } from '../kit/zones.ts'
import { teamAuditView } from '../views/team-audit.ts'
import { TEAM_HEAD } from '../views/team-members.ts'
import type { ScreenDeps } from './deps.ts'

const HtmlResponse = t.String({ description: 'An HTML page' })
const CRUMBS = [{ label: 'Teams', href: '/user/teams' }, { label: 'Members', href: '/user/team' }, { label: 'Audit log' }]
const ID = /^[1-9]\d{0,14}$/

/** The filters of the screen's query, checked as the API checks them; the errors for the form. */
function readFilters(query: Record<string, string | undefined>): { form: FormState; filters?: AuditFilters; cursor?: number } {
  const values: Record<string, string> = {}
  for (const name of ['actor', 'page_id', 'action', 'from', 'to', 'cursor']) values[name] = (query[name] ?? '').trim().slice(0, 100)
  const errors: Record<string, string> = {}
  for (const name of ['actor', 'page_id', 'cursor']) if (values[name] !== '' && !ID.test(values[name]!)) errors[name] = `${name === 'page_id' ? 'page' : name} must be one of the list`
  if (values.action !== '' && !/^[a-z0-9_.-]{1,100}$/.test(values.action!)) errors.action = 'action must be a-z, 0-9, _, . and - only'
  for (const name of ['from', 'to']) if (values[name] !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(values[name]!)) errors[name] = `${name} must be a date`
  const form = { values, errors }
  if (Object.keys(errors).length > 0) return { form }
  try {
    const filters = auditFilters({
      actor: values.actor ? Number(values.actor) : undefined,
      page_id: values.page_id ? Number(values.page_id) : undefined,
      action: values.action || undefined,
      from: values.from || undefined,
      to: values.to || undefined,
    })
    return { form, filters, cursor: values.cursor ? Number(values.cursor) : undefined }
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return { form: { values, errors: { _form: error.message } } }
    throw error
  }
}

export function teamAuditScreens(deps: ScreenDeps<'accounts' | 'audit' | 'pages'>) {
  const { services, config } = deps
  const screen = screens({ accounts: services.accounts, config })
  return new Elysia().get(
    '/user/team/audit',
    screen(async ({ user, request, query, render }) => {
      const { form, filters, cursor } = readFilters(query)
      const [page, actors, pages] = await Promise.all([
        filters ? services.audit.list(user.id, filters, { limit: DEFAULT_AUDIT_PAGE, cursor }) : Promise.resolve({ entries: [], nextCursor: null }),
        services.audit.actors(user.id),
        services.pages.list(user),
      ])
      const body = teamAuditView({
        teamName: user.teamName,
        entries: page.entries,
        nextCursor: page.nextCursor,
        form,
        actors,
        pages: pages.map((p) => ({ id: p.id, name: p.name })),
        zone: zoneOf(request),
        retentionDays: auditRetentionDays(user.plan),
        paged: cursor !== undefined,
      })
      return render({ title: `Audit log of ${user.teamName}`, crumbs: CRUMBS, head: TEAM_HEAD }, body, filters ? 200 : 400)
    }),
    { response: { 200: HtmlResponse, 400: HtmlResponse }, detail: { tags: ['User area'], summary: 'The team\'s audit log: filters, entries, CSV' } },
  )
}
