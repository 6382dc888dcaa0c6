/**
 * createApp(deps) builds the whole HTTP application. It never listens and never reads the
 * environment: `main.ts` does that, and tests call `app.handle(request)` directly.
 */
import { swagger } from '@elysiajs/swagger'
import { Elysia, ValidationError } from 'elysia'
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { ChangeFeed } from './lib/change-feed.ts'
import type { Clock } from './lib/clock.ts'
import { MAX_BODY_DEPTH, nestedDeeperThan } from './lib/body-depth.ts'
import { badRequest, errorResponse, HttpError, noStoreOnError } from './lib/errors.ts'
import { corsPreflight, withAnyOrigin } from './http/cors.ts'
import { FastLane, requestPath } from './http/fast-lane.ts'
import { publicCacheOptions, type PublicCache } from './lib/http-cache.ts'
import { assertWellFormedText } from './lib/text.ts'
import { TtlCache } from './lib/ttl-cache.ts'
import { badgeRoutes } from './modules/badge/index.ts'
import { BadgeService } from './modules/badge/service.ts'
import { checksRoutes } from './modules/checks/index.ts'
import { componentsRoutes } from './modules/components/index.ts'
import { contentRoutes } from './modules/content/index.ts'
import { createContentService } from './modules/content/sources.ts'
import { embedRoutes } from './modules/embed/index.ts'
import { EmbedRepo } from './modules/embed/repo.ts'
import { EmbedService } from './modules/embed/service.ts'
import { apiKeysRoutes } from './modules/accounts/api-keys.ts'
import { analyticsRoutes } from './modules/analytics/index.ts'
import { healthRoutes } from './modules/health/index.ts'
import type { PageViewHook } from './modules/public-pages/index.ts'
import { createPublicPages } from './modules/public-pages/wire.ts'
import { incidentsRoutes } from './modules/incidents/index.ts'
import { maintenancesRoutes } from './modules/maintenances/index.ts'
import { metricsRoutes } from './modules/metrics/index.ts'
import { MeteredCache } from './modules/metrics/metered-cache.ts'
import { createRequestMeter } from './modules/metrics/meter.ts'
import { AppMetrics } from './modules/metrics/registry.ts'
import { databaseSizeBytes } from './modules/metrics/repo.ts'
import { statusApiRoutes } from './modules/status-api/index.ts'
import { StatusRepo } from './modules/status-api/repo.ts'
import { StatusService } from './modules/status-api/service.ts'
import { statusPagesRoutes } from './modules/status-pages/index.ts'
import { userAreaRoutes } from './modules/user-area/index.ts'
import { clientKey } from './modules/public-pages/context.ts'
import { WIDGET_JS } from './modules/widget/asset.ts'
import { widgetRoutes } from './modules/widget/index.ts'
import { previewRoutes } from './modules/embed/preview-routes.ts'
import { PreviewService } from './modules/embed/preview-service.ts'
import { WIDGET_PATH, WidgetService } from './modules/widget/service.ts'
import { createServices, type Services } from './services.ts'

export interface AppDeps {
  db: Db
  config: Config
  clock?: Clock
  changes?: ChangeFeed
  /** Off only for measuring the uncached path. */
  publicCache?: boolean
  /** Where unexpected errors are reported (defaults to stderr). */
  logError?: (error: unknown) => void
  /** Called for each view of a status page by a visitor allowed to see it (analytics). */
  onPageView?: PageViewHook
  /** Set when this process is one of several workers (WORKERS=N); labels its metrics. */
  workerId?: number
}

/** Service-host paths whose answers any site may read: status JSON, snippets, badges, the widget. */
const isCorsOpenPath = (path: string): boolean => path.startsWith('/api/embed/') || path.startsWith('/badge/') || path === WIDGET_PATH

const maybeNoStore = (response: Response | undefined) => response && noStoreOnError(response)

export const APP_VERSION = '0.1.0'

/**
 * Turns Elysia's validation error into the one line API users need: `field is required`, the
 * schema's own `error` text, or `field: what is wrong`. Array items read `history[3].at` when the
 * schema has a `title`.
 */
export function validationMessage(error: Readonly<ValidationError>): string {
  const root = (error.validator as { schema?: { title?: string } } | undefined)?.schema
  let first: { path?: string; value?: unknown; schema?: { error?: unknown }; message?: string } | undefined
  try {
    first = error.all[0]
  } catch {
    // Elysia's summaries print the value; one that cannot be printed must not turn into a 500.
    return `request ${error.type} is not valid`
  }
  if (!first) return 'invalid request'
  const segments = (first.path ?? '').split('/').filter(Boolean)
  const field = segments.reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), root?.title ?? '')
  if (!field) return typeof first.schema?.error === 'string' ? first.schema.error : `request ${error.type} is not valid`
  if (first.value === undefined) return `${field} is required`
  if (typeof first.schema?.error === 'string') return first.schema.error
  return `${field}: ${first.message ?? 'invalid value'}`
}

export function createApp(deps: AppDeps): App {
  const services = createServices(deps)
  const logError = deps.logError ?? ((error: unknown) => console.error('[lantern] unexpected error:', error))
  // `/metrics` only with METRICS_TOKEN: otherwise nothing is counted at all.
  const metrics = deps.config.metricsToken === undefined ? undefined : new AppMetrics({
    version: APP_VERSION,
    workerId: deps.workerId,
    databaseSizeBytes: () => databaseSizeBytes(deps.db),
    pageViewsBuffered: () => services.pageViews.pending,
    cacheEntries: () => cache?.size ?? 0,
  })
  const cacheOptions = publicCacheOptions({ clock: services.clock })
  const cache: PublicCache | undefined =
    deps.publicCache === false ? undefined : metrics ? new MeteredCache(cacheOptions, metrics.cache) : new TtlCache(cacheOptions)
  cache?.follow(services.changes)
  const embed = new EmbedService(new EmbedRepo(deps.db), cache, deps.config)
  const fastLane = new FastLane()
  const status = new StatusService(new StatusRepo(deps.db), services.incidents, services.maintenances, services.checks, cache, deps.config, services.clock)
  const badges = new BadgeService(status, cache, services.clock)
  const preview = new PreviewService(status, deps.config)
  // Page views feed the analytics (buffered; written in batches by main.ts's timer).
  const onPageView = deps.onPageView ?? ((pageId: number, request: Request) => void services.pageViews.record(pageId, request, { clientAddress: clientKey(request) }))
  const publicPages = createPublicPages({ db: deps.db, config: deps.config, services, cache, status, onPageView, logError })

  const app = new Elysia()
    .onError(({ code, error }) => {
      if (error instanceof HttpError) return errorResponse(error.status, error.message)
      switch (code) {
        case 'VALIDATION':
          return errorResponse(400, validationMessage(error))
        case 'PARSE':
          return errorResponse(400, 'request body is not valid JSON')
        case 'NOT_FOUND':
          return errorResponse(404, 'not found')
        default:
          logError(error)
          return errorResponse(500, 'internal error')
      }
    })
    // Between parsing and validation, for every body route and every parser (multipart fields that
    // look like JSON are parsed as JSON too). Depth first: the text walk then never meets a deep body.
    // One text rule for every body: a lone surrogate anywhere is a 400 (src/lib/text.ts).
    .onTransform({ as: 'global' }, ({ body }) => {
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) throw badRequest(`request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`)
      assertWellFormedText(body)
    })
    .use(
      swagger({
        path: '/swagger',
        // Badges and the widget script have a dot in their paths: list them too.
        excludeStaticFile: false,
        documentation: {
          info: {
            title: 'Lantern API',
            version: APP_VERSION,
            description:
              'Status pages, embeds and the management API of a Lantern instance. Management routes take an API key (`Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`) created with `lantern key create`. Errors are `{"error": "…"}` with the status code.',
          },
          tags: [
            { name: 'Embeds', description: 'Public snippets, badges, widget and status JSON' },
            { name: 'Status pages', description: 'Manage your status pages' },
            { name: 'Components', description: 'Components of a page and their status history' },
            { name: 'Incidents', description: 'Incidents with affected components and a timeline of updates' },
            { name: 'Incident templates', description: 'Reusable incident texts with {{component}} and {{page}}' },
            { name: 'Maintenances', description: 'Scheduled maintenance windows' },
            { name: 'Checks', description: 'Check results reported for components (response times, up/down)' },
            { name: 'API keys', description: 'List and revoke your API keys' },
            { name: 'Operations', description: 'Health and operations' },
            { name: 'Analytics', description: 'Page views, uptime and share tokens of your status pages' },
            { name: 'User area', description: 'Login, logout and the server-rendered user area' },
            { name: 'Site', description: 'Docs, blog, changelog, robots.txt and sitemap of the service host' },
          ],
          components: {
            securitySchemes: {
              bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: lnt_…' },
              apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
              sessionCookie: { type: 'apiKey', in: 'cookie', name: 'lantern_session', description: 'The login session (user area)' },
            },
          },
        },
      }),
    )
    .use(healthRoutes(deps.db))
    .use(metricsRoutes(metrics, deps.config.metricsToken))
    .use(embedRoutes(embed, fastLane))
    .use(statusApiRoutes(status, fastLane))
    .use(badgeRoutes(badges, fastLane))
    .use(widgetRoutes(new WidgetService(WIDGET_JS)))
    .use(previewRoutes((slugs) => preview.render(slugs)))
    .use(statusPagesRoutes({ accounts: services.accounts, pages: services.pages, config: deps.config }))
    .use(componentsRoutes({ accounts: services.accounts, components: services.components }))
    .use(incidentsRoutes({ accounts: services.accounts, incidents: services.incidents }))
    .use(maintenancesRoutes({ accounts: services.accounts, maintenances: services.maintenances }))
    .use(checksRoutes({ accounts: services.accounts, checks: services.checks }))
    .use(apiKeysRoutes({ accounts: services.accounts }))
    .use(userAreaRoutes({ accounts: services.accounts, pages: services.pages, config: deps.config }))
    .use(analyticsRoutes({ accounts: services.accounts, analytics: services.analytics, shareTokens: services.shareTokens, config: deps.config }))
    .use(publicPages.routes)
    .use(contentRoutes(createContentService(deps.config.baseUrl)))

  const routed = app.handle
  /**
   * Service-host requests: cache hits on the fast lane, everything else through Elysia. Embeds are
   * read from any site: their preflights are answered here and every answer of theirs is opened.
   */
  const serviceHandle = (request: Request): Response | Promise<Response> => {
    if (!isCorsOpenPath(requestPath(request.url))) return fastLane.answer(request) ?? routed(request)
    if (request.method === 'OPTIONS') return corsPreflight(request)
    const answer = fastLane.answer(request) ?? routed(request)
    return answer instanceof Promise ? answer.then(withAnyOrigin) : withAnyOrigin(answer)
  }
  // The single entry for every request: host routing in front of both apps, so status hosts never
  // reach service routes (fast lane included) and the service host never reaches status-host routes.
  const dispatch = publicPages.dispatch(serviceHandle)
  const noStoreErrors = (request: Request): Response | Promise<Response> => {
    const result = dispatch(request)
    return result instanceof Promise ? result.then(noStoreOnError) : noStoreOnError(result)
  }
  /**
   * A pre-encoded cache hit for the service host, or undefined. The server calls this before its
   * edge (rate limits, peer address), which costs more than the hit itself; see README "Fast lane".
   * Requests with an `auth_token` always take the full path (private embeds are never cached).
   */
  const fromCache = (request: Request): Response | undefined =>
    publicPages.isForServiceHost(request) && !publicPages.asksPrivateEmbed(request) ? maybeNoStore(fastLane.answer(request)) : undefined
  const meter = metrics && createRequestMeter({
    metrics,
    serviceRoutes: app.routes.map((route) => route.path),
    statusRoutes: publicPages.app.routes.map((route) => route.path),
    isForServiceHost: publicPages.isForServiceHost,
  })
  const handle = meter ? meter.handle(noStoreErrors) : noStoreErrors
  const answerFromCache = meter ? meter.answerFromCache(fromCache) : fromCache
  return { handle, answerFromCache, services, publicCache: cache, status, publicPages }
}

/** What createApp hands out: one entry for every request, and the services behind it. */
export interface App {
  handle(request: Request): Response | Promise<Response>
  answerFromCache(request: Request): Response | undefined
  services: Services
  publicCache: PublicCache | undefined
  status: StatusService
  publicPages: ReturnType<typeof createPublicPages>
}
