/**
 * The analytics dashboards people open: the owner's (/user/analytics/:id, with the share link
 * manager), the shared read-only view (/analytics/:id?token=), the access-revoked page, and the
 * legacy redirect to the report API. The report they load is the analytics module's API.
 */
import { Elysia, t } from 'elysia'
import { ErrorBody, HtmlPage, IdParams } from '../../http/schemas.ts'
import { errorResponse } from '../../lib/errors.ts'
import { apiKeySecurity, authenticateOwner } from '../../modules/accounts/auth.ts'
import type { AccountsService } from '../../modules/accounts/service.ts'
import { DEFAULT_PRESET, parseRange } from '../../modules/analytics/range.ts'
import type { AnalyticsService } from '../../modules/analytics/service.ts'
import { ShareTokenRefused } from '../../modules/analytics/share-tokens.ts'
import { htmlPage, loginRedirect, redirect, sessionUser } from '../responses.ts'
import { messagePage } from '../views.ts'
import { accessRevokedPage, dashboardPage, noPagesPage } from './views.ts'

export interface AnalyticsDashboardDeps {
  accounts: AccountsService
  analytics: AnalyticsService
}

const HtmlResponse = HtmlPage
/** The dashboards and the shared view: a token may be in the URL, so no referrer ever leaves. */
const NO_REFERRER = { 'referrer-policy': 'no-referrer' }

/** The range the dashboard opens with: what the URL asks for when it is valid, else 90 days. */
function initialRange(query: { range?: string; from?: string; to?: string }, now: number) {
  try {
    const range = parseRange(query, now)
    return range.key === 'custom' ? { range: 'custom', from: query.from, to: query.to } : { range: range.key }
  } catch {
    return { range: DEFAULT_PRESET }
  }
}

export function analyticsDashboardRoutes(deps: AnalyticsDashboardDeps) {
  const { accounts, analytics } = deps
  /**
   * The report the dashboard opens with, put in its HTML; undefined when it cannot be made here
   * (the script then asks the API, which says why).
   */
  const firstReport = async (pageId: number, range: ReturnType<typeof initialRange>) => {
    try {
      return await analytics.report(pageId, range.range === 'custom' ? { from: range.from, to: range.to } : { range: range.range })
    } catch {
      return undefined
    }
  }
  const detail = (summary: string, description?: string) => ({ tags: ['Analytics'], summary, description })
  // HTML dashboards for people: not part of the API reference.
  return new Elysia({ detail: { hide: true } })
    .get(
      '/user/analytics',
      async ({ request }) => {
        const user = await sessionUser(accounts, request)
        if (!user) return loginRedirect(request)
        const first = await analytics.firstPageOf(user)
        return first ? redirect(`/user/analytics/${first.id}`, 302) : htmlPage(noPagesPage(user))
      },
      { response: { 200: HtmlResponse, 302: t.Void() }, detail: detail('Analytics: opens the dashboard of your first active page') },
    )
    .get(
      '/user/analytics/statuspage',
      async ({ request, headers }) => {
        const owner = await authenticateOwner(accounts, request, headers)
        if (!owner) return (headers.accept ?? '').includes('text/html') ? loginRedirect(request) : errorResponse(401, 'unauthorized')
        const first = await analytics.firstPageOf(owner)
        if (!first) return errorResponse(404, 'no active status page')
        return redirect(`/api/analytics/status-pages/${first.id}`, 302)
      },
      {
        response: { 302: t.Void(), 401: ErrorBody, 404: ErrorBody },
        detail: { ...detail('Legacy: redirects to the analytics JSON of your first active page'), security: apiKeySecurity },
      },
    )
    .get(
      '/user/analytics/:id',
      async ({ request, params, query }) => {
        const user = await sessionUser(accounts, request)
        if (!user) return loginRedirect(request)
        const page = (await analytics.pagesOf(user)).find((p) => p.id === params.id)
        if (!page) return htmlPage(messagePage('Not found', 'There is no such status page in your account.', user), 404)
        const range = initialRange(query, analytics.clock.now())
        return htmlPage(dashboardPage({ page, ...range, mode: { kind: 'owner', user }, report: await firstReport(page.id, range) }), 200, NO_REFERRER)
      },
      {
        params: IdParams,
        query: t.Object({ range: t.Optional(t.String()), from: t.Optional(t.String()), to: t.Optional(t.String()) }),
        response: { 200: HtmlResponse, 404: HtmlResponse },
        detail: detail('Analytics dashboard of one of your pages (90 days by default)'),
      },
    )
    .get(
      '/analytics/:id',
      async ({ params, query }) => {
        try {
          const viewer = await analytics.authorize(params.id, { token: query.token ?? '', countUse: true })
          if (viewer.kind !== 'token') throw new ShareTokenRefused('invalid')
          const page = await analytics.pageSummary(params.id)
          const picker = !viewer.token.readOnly
          const range = picker ? initialRange(query, analytics.clock.now()) : { range: DEFAULT_PRESET }
          return htmlPage(
            dashboardPage({
              page,
              ...range,
              mode: { kind: 'shared', token: query.token ?? '', rangePicker: picker },
              report: await firstReport(page.id, range),
            }),
            200,
            { 'x-robots-tag': 'noindex, nofollow', ...NO_REFERRER },
          )
        } catch (error) {
          if (error instanceof ShareTokenRefused) return htmlPage(accessRevokedPage(), 403, { 'x-robots-tag': 'noindex, nofollow', ...NO_REFERRER })
          throw error
        }
      },
      {
        params: IdParams,
        query: t.Object({
          token: t.Optional(t.String({ maxLength: 200 })),
          range: t.Optional(t.String()),
          from: t.Optional(t.String()),
          to: t.Optional(t.String()),
        }),
        response: { 200: HtmlResponse, 403: HtmlResponse },
        detail: detail(
          'Shared read-only analytics view',
          'Opens with a share token; each opening counts once in its usage count. Invalid, revoked or expired tokens get the access-revoked page (403, noindex).',
        ),
      },
    )
}
