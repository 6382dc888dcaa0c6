/**
 * Analytics over HTTP: the report API (owner by API key or session, or a share token) and the share
 * token management routes. The dashboards people open are the web app's (src/web/analytics/).
 */
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { unauthorized } from '../../lib/errors.ts'
import { apiKeySecurity, authenticateOwner, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { analyticsModels, AnalyticsQuery, AnalyticsReportRef, CreateShareTokenBody, ShareTokenJson, shareTokenJson, ShareTokenRef, TokenParams } from './model.ts'
import type { AnalyticsService } from './service.ts'
import type { ShareTokensService } from './share-tokens.ts'

export interface AnalyticsDeps {
  accounts: AccountsService
  analytics: AnalyticsService
  shareTokens: ShareTokensService
  config: Config
}

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }

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

export function analyticsRoutes(deps: AnalyticsDeps) {
  return new Elysia().use(reportRoute(deps)).use(tokenRoutes(deps))
}
