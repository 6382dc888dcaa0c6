/**
 * createApp(deps) assembles the HTTP application from the services of `services.ts`: the service
 * host's Elysia app, the status site's app, and the front door in front of both (src/http/front.ts).
 * It never listens and never reads the environment: `main.ts` does that, and tests call
 * `app.handle(request)`, the front door without a socket.
 */
import { configRoutes, configSchemaRoutes } from './modules/config-as-code/index.ts'
import { Elysia } from 'elysia'
import { servePrepared, type PublicCache } from './lib/http-cache.ts'
import { clientKey } from './http/context.ts'
import { guardBody, mapError } from './http/errors.ts'
import { FastLane } from './http/fast-lane.ts'
import { StatusJsonReads } from './modules/status-api/cached-reads.ts'
import { SnippetsReads } from './modules/embed/cached-reads.ts'
import { BadgeReads } from './modules/badge/cached-reads.ts'
import { createFront } from './http/front.ts'
import { createHostRouter } from './http/host-router.ts'
import type { OpenApiDoc } from './http/api-reference.ts'
import { openApi, SPEC_PATH } from './http/openapi.ts'
import { apiKeysRoutes } from './modules/accounts/api-keys.ts'
import { sessionsRoutes } from './modules/accounts/sessions-routes.ts'
import { planRoutes } from './modules/accounts/plan-routes.ts'
import { analyticsRoutes } from './modules/analytics/index.ts'
import { autoIncidentsRoutes } from './modules/auto-incidents/index.ts'
import { monitorAlertsRoutes } from './modules/monitor-alerts/index.ts'
import { badgeRoutes } from './modules/badge/index.ts'
import { checksRoutes } from './modules/component-checks/index.ts'
import { channelsRoutes } from './modules/channels/index.ts'
import { componentsRoutes } from './modules/components/index.ts'
import { contentRoutes } from './modules/content/index.ts'
import { createContentService } from './modules/content/sources.ts'
import { embedRoutes } from './modules/embed/index.ts'
import { previewRoutes } from './modules/embed/preview-routes.ts'
import { healthRoutes } from './modules/health/index.ts'
import { incidentsRoutes } from './modules/incidents/index.ts'
import { maintenanceSeriesRoutes, maintenancesRoutes } from './modules/maintenances/index.ts'
import { metricsRoutes } from './modules/metrics/index.ts'
import { monitorsRoutes, pushRoutes } from './modules/monitors/index.ts'
import { emailAuthRoutes } from './modules/email-auth/index.ts'
import { probeRoutes } from './modules/probes/index.ts'
import { lookupToolsRoutes } from './modules/lookup-tools/index.ts'
import { createRequestMeter } from './modules/metrics/meter.ts'
import { brandingRoutes } from './modules/branding/index.ts'
import type { BrandingService } from './modules/branding/service.ts'
import { pageAccessRoutes } from './modules/page-access/index.ts'
import { statusSiteApp as createStatusSiteApp, type PageViewHook } from './modules/status-site/index.ts'
import type { StatusSiteService } from './modules/status-site/service.ts'
import { createStatusSiteEntry } from './modules/status-site/site-entry.ts'
import { createStatusSiteFastLane } from './modules/status-site/site-fast-lane.ts'
import { tlsAskRoutes } from './modules/status-pages/tls-ask.ts'
import { privateEmbedHook } from './http/private-embed.ts'
import { statusApiRoutes } from './modules/status-api/index.ts'
import type { StatusService } from './modules/status-api/service.ts'
import { statusPagesRoutes } from './modules/status-pages/index.ts'
import { transfersRoutes } from './modules/transfers/index.ts'
import { teamsRoutes } from './modules/teams/index.ts'
import { auditRoutes } from './modules/audit/index.ts'
import { subscribersRoutes } from './modules/subscribers/index.ts'
import { subscribeSiteRoutes } from './modules/subscribers/site.ts'
import { analyticsDashboardRoutes, tooLargeAnswer, userAreaRoutes } from './web/index.ts'
import { widgetRoutes } from './modules/widget/index.ts'
import { slaRoutes } from './modules/sla/index.ts'
import { mcpRoutes } from './modules/mcp/index.ts'
import { vendorFeedRoutes } from './modules/vendor-feeds/index.ts'
import { WIDGET_PATH } from './modules/widget/script.ts'
import { createServices, type ServiceDeps, type Services } from './services.ts'

/** The services' dependencies, and what only the HTTP app needs. */
export interface AppDeps extends ServiceDeps {
  /** Where unexpected errors are reported (defaults to stderr). */
  logError?: (error: unknown) => void
  /** Called for each view of a status page by a visitor allowed to see it (analytics). */
  onPageView?: PageViewHook
  /** Where request log lines go (default stdout). */
  log?: (line: string) => void
}

/** Service-host paths whose answers any site may read: status JSON, snippets, badges, the widget. */
const isCorsOpenPath = (path: string): boolean => path.startsWith('/api/embed/') || path.startsWith('/badge/') || path === WIDGET_PATH

export function createApp(deps: AppDeps): App {
  const { config } = deps
  const services = createServices(deps)
  const logError = deps.logError ?? ((error: unknown) => console.error('[lantern] unexpected error:', error))
  const fastLane = new FastLane()
  // Page views feed the analytics (buffered; written in batches by main.ts's timer).
  const onPageView = deps.onPageView ?? ((pageId: number, request: Request) => void services.pageViews.record(pageId, request, { clientAddress: clientKey(request) }))

  const content = createContentService(config.baseUrl, { statusDomain: config.statusDomain, signupOpen: config.signup === 'open' })
  // Page subscribers' routes on status hosts (subscribe, confirm, manage, one-click unsubscribe).
  const subscribeRoutes = subscribeSiteRoutes({ site: services.statusSite, subscribers: services.subscribers, config, clock: services.clock, attemptBudgets: services.attemptBudgets })
  const statusSiteApp = createStatusSiteApp({ service: services.statusSite, access: services.pageAccess, config, onPageView, logError, routes: subscribeRoutes })

  // The reference page reads the document as /swagger/json answers it, from the app being built here.
  let documentSource: { handle: (request: Request) => Promise<Response> } | undefined
  const serviceApp = new Elysia()
    .onError(mapError(logError, async () => servePrepared(await content.notFound(), null)))
    .onTransform({ as: 'global' }, guardBody)
    .use(
      openApi({
        baseUrl: config.baseUrl,
        scheme: config.scheme,
        statusDomain: config.statusDomain,
        statusRoutes: () => statusSiteApp.routes,
        loadDocument: async () => (await documentSource!.handle(new Request(`${config.baseUrl}${SPEC_PATH}`))).json() as Promise<OpenApiDoc>,
      }),
    )
    .use(healthRoutes(deps.db))
    .use(metricsRoutes(services.metrics, config.metricsToken))
    .use(embedRoutes(new SnippetsReads(services.embed, services.publicCache), fastLane))
    .use(statusApiRoutes(new StatusJsonReads(services.status, services.publicCache, services.clock), fastLane))
    .use(badgeRoutes(new BadgeReads(services.badges, services.publicCache, services.clock), fastLane))
    .use(widgetRoutes(services.widget))
    .use(previewRoutes((slugs) => services.preview.render(slugs)))
    .use(statusPagesRoutes({ accounts: services.accounts, pages: services.pages, domains: services.domainVerifier, config }))
    .use(transfersRoutes({ accounts: services.accounts, transfers: services.transfers }))
    .use(componentsRoutes({ accounts: services.accounts, components: services.components }))
    .use(incidentsRoutes({ accounts: services.accounts, incidents: services.incidents }))
    .use(maintenancesRoutes({ accounts: services.accounts, maintenances: services.maintenances }))
    .use(maintenanceSeriesRoutes({ accounts: services.accounts, maintenanceSeries: services.maintenanceSeries }))
    .use(checksRoutes({ accounts: services.accounts, checks: services.checks }))
    .use(channelsRoutes({ accounts: services.accounts, channels: services.channels }))
    .use(monitorsRoutes({ accounts: services.accounts, monitors: services.monitors, baseUrl: config.baseUrl }))
    .use(pushRoutes(services.monitors))
    .use(probeRoutes(services.probes))
    .use(emailAuthRoutes({ accounts: services.accounts, emailAuth: services.emailAuth }))
    .use(lookupToolsRoutes({ accounts: services.accounts, tools: services.lookupTools }))
    .use(apiKeysRoutes({ accounts: services.accounts }))
    .use(sessionsRoutes({ accounts: services.accounts }))
    .use(teamsRoutes({ accounts: services.accounts, teams: services.teams }))
    .use(auditRoutes({ accounts: services.accounts, audit: services.audit }))
    .use(planRoutes({ accounts: services.accounts }))
    .use(userAreaRoutes({ services, config }))
    .use(analyticsRoutes({ accounts: services.accounts, analytics: services.analytics, shareTokens: services.shareTokens, config }))
    .use(analyticsDashboardRoutes({ accounts: services.accounts, analytics: services.analytics }))
    .use(tlsAskRoutes(services.pages))
    .use(brandingRoutes({ accounts: services.accounts, branding: services.branding }))
    .use(pageAccessRoutes({ accounts: services.accounts, settings: services.pageAccessSettings }))
    .use(autoIncidentsRoutes({ accounts: services.accounts, settings: services.autoIncidentSettings }))
    .use(monitorAlertsRoutes({ accounts: services.accounts, alerts: services.monitorAlerts }))
    .use(slaRoutes({ accounts: services.accounts, sla: services.sla }))
    .use(configRoutes({ accounts: services.accounts, config: services.configAsCode }))
    .use(configSchemaRoutes(config.baseUrl))
    .use(
      mcpRoutes({
        accounts: services.accounts,
        baseUrl: config.baseUrl,
        services: { pages: services.pages, pageStatus: services.pageStatus, incidents: services.incidents, maintenances: services.maintenances, monitors: services.monitors, config: config, now: () => services.clock.now() },
      }),
    )
    .use(vendorFeedRoutes({ accounts: services.accounts, vendorFeeds: services.vendorFeeds }))
    .use(subscribersRoutes({ accounts: services.accounts, subscribers: services.subscribers }))
    .use(contentRoutes(content))

  documentSource = serviceApp

  const front = createFront({
    // The one host router of the program.
    router: createHostRouter(config),
    fastLane,
    serviceApp: serviceApp.handle,
    isCorsOpenPath,
    privateEmbed: privateEmbedHook({
      statusJson: (url) => services.privateStatusJson.answer(url),
      badge: (url) => services.privateBadges.answer(url),
    }),
    statusSiteHit: createStatusSiteFastLane({ service: services.statusSite, onPageView, logError }),
    statusSite: createStatusSiteEntry({ service: services.statusSite, publicHandle: statusSiteApp.handle, logError }),
    meter: services.metrics && createRequestMeter({
      metrics: services.metrics,
      serviceRoutes: serviceApp.routes.map((route) => route.path),
      statusRoutes: statusSiteApp.routes.map((route) => route.path),
    }),
    operations: config.operations,
    serviceOrigin: config.baseUrl,
    workerId: deps.workerId,
    log: deps.log,
    logError,
    tooLarge: tooLargeAnswer,
  })

  return {
    fetch: front.fetch,
    handle: front.handle,
    answerFromCache: front.answerFromCache,
    services,
    routes: { service: serviceApp.routes, statusHost: statusSiteApp.routes },
    publicCache: services.publicCache,
    status: services.status,
    statusSite: services.statusSite,
    branding: services.branding,
  }
}

/** What createApp hands out: the front door (with and without a socket) and the services behind it. */
export interface App {
  /** The server's entry: `peer` is the connection's address, or a function that reads it. */
  fetch(request: Request, peer: string | undefined | (() => string | undefined)): Response | Promise<Response>
  /** The front door without a socket (tests, tools). */
  handle(request: Request): Response | Promise<Response>
  answerFromCache(request: Request): Response | undefined
  services: Services
  /** The routes of the service host and of the status hosts, with their schemas (`hooks`). */
  routes: Record<'service' | 'statusHost', ReadonlyArray<{ method: string; path: string; hooks: Record<string, any> }>>
  publicCache: PublicCache | undefined
  status: StatusService
  statusSite: StatusSiteService
  branding: BrandingService
}
