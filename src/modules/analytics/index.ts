/**
 * Analytics over HTTP: the report API (owner by API key or session, or a share token), the share
 * token management routes, the owner dashboard, the legacy redirect and the shared read-only view.
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { errorResponses, ErrorBody, HtmlPage, IdParams, sharedModels } from '../../http/schemas.ts'
import { errorResponse, unauthorized } from '../../lib/errors.ts'
import { apiKeySecurity, authenticateOwner, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { htmlPage, loginRedirect, redirect, sessionUser } from '../../web/http.ts'
import { messagePage } from '../../web/views.ts'
import { analyticsModels, AnalyticsQuery, AnalyticsReportRef, CreateShareTokenBody, ShareTokenJson, shareTokenJson, ShareTokenRef, TokenParams } from './model.ts'
import { DEFAULT_PRESET, parseRange } from './range.ts'
import type { AnalyticsService } from './service.ts'
import { ShareTokenRefused, type ShareTokensService } from './share-tokens.ts'
import { accessRevokedPage, dashboardPage, noPagesPage } from '../../web/analytics/views.ts'

export interface AnalyticsDeps {
  accounts: AccountsService
  analytics: AnalyticsService
  shareTokens: ShareTokensService
  config: Config
}

const HtmlResponse = HtmlPage
const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }
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

function reportRoute(deps: AnalyticsDeps) {
  const { accounts, analytics } = deps
  return new Elysia().model(sharedModels).model(analyticsModels).get(
    '/api/analytics/status-pages/:id',
    async ({ params, query, request, headers, set }) => {
      Object.assign(set.headers, NO_STORE)
      const owner = query.token === undefined ? await authenticateOwner(accounts, request, headers) : undefined
      if (query.token === undefined && !owner) throw unauthorized()
      await analytics.authorize(params.id, { owner, token: query.token })
      return { data: await analytics.report(params.id, query) }
    },
    {
      params: IdParams,
      query: AnalyticsQuery,
      response: { 200: t.Object({ data: AnalyticsReportRef }), ...errorResponses },
      detail: {
        tags: ['Analytics'],
        summary: 'Analytics of a status page',
        description:
          'Views, unique visitors (privacy-first: daily salted hashes, no cookies), incident-period views, uptime, time per status per component, outages (incidents), downtime, MTTR, MTBF, response times where monitors exist, and a daily series. `range` = 7d, 30d, 90d (default), 365d, or `from`/`to` (whole UTC days, at most two years). Credentials: an API key, the session cookie, or `?token=` (a share token of this page). 401 without credentials, 404 for a page that is not yours, 403 for an invalid, revoked or expired token.',
        security: [...apiKeySecurity, {}],
      },
    },
  )
}

function tokenRoutes(deps: AnalyticsDeps) {
  const { shareTokens, config } = deps
  const detail = (summary: string, description?: string) => ({ tags: ['Analytics'], summary, description, security: apiKeySecurity })
  return new Elysia({ prefix: '/user/analytics' })
    .model(sharedModels)
    .model(analyticsModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/:id/tokens',
      async ({ owner, params, set }) => {
        Object.assign(set.headers, NO_STORE)
        const list = (await shareTokens.list(owner, params.id)).map(shareTokenJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Array(ShareTokenRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List the share tokens of a page', 'Never includes the secrets.'),
      },
    )
    .post(
      '/:id/tokens',
      async ({ owner, params, body, status, set }) => {
        Object.assign(set.headers, NO_STORE)
        const { token, secret } = await shareTokens.create(owner, params.id, body)
        const url = `${config.baseUrl}/analytics/${params.id}?token=${encodeURIComponent(secret)}`
        return status(201, { data: { ...shareTokenJson(token), token: secret, url } })
      },
      {
        params: IdParams,
        body: CreateShareTokenBody,
        response: {
          201: t.Object({
            data: t.Composite([
              ShareTokenJson,
              t.Object({ token: t.String({ description: 'The secret, shown only in this answer' }), url: t.String({ description: 'The shared view' }) }),
            ]),
          }),
          ...errorResponses,
        },
        detail: detail('Create a share token', 'Optional `label`, `expires_at` (RFC 3339, in the future) and `read_only` (default true). The secret is in this answer only.'),
      },
    )
    .delete(
      '/:id/tokens/:token_id',
      async ({ owner, params }) => ({ data: shareTokenJson(await shareTokens.revoke(owner, params.id, params.token_id)) }),
      {
        params: TokenParams,
        response: { 200: t.Object({ data: ShareTokenRef }), ...errorResponses },
        detail: detail('Revoke a share token', 'The shared view and API calls with it answer 403 from now on.'),
      },
    )
}

function pageRoutes(deps: AnalyticsDeps) {
  const { accounts, analytics } = deps
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
        return htmlPage(dashboardPage({ page, ...initialRange(query, analytics.clock.now()), mode: { kind: 'owner', user } }), 200, NO_REFERRER)
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
          return htmlPage(
            dashboardPage({
              page,
              ...(picker ? initialRange(query, analytics.clock.now()) : { range: DEFAULT_PRESET }),
              mode: { kind: 'shared', token: query.token ?? '', rangePicker: picker },
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

export function analyticsRoutes(deps: AnalyticsDeps) {
  return new Elysia().use(reportRoute(deps)).use(tokenRoutes(deps)).use(pageRoutes(deps))
}
