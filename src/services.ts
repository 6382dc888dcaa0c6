/**
 * The composition root: every repo, service and cache, wired to one database, and the change-feed
 * subscriptions. The HTTP app (`app.ts`), the server (`main.ts`) and the CLI all build on it, so
 * there is exactly one implementation of each action and one place where objects are made.
 */
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import { ChangeFeed } from './lib/change-feed.ts'
import { systemClock, type Clock } from './lib/clock.ts'
import { argon2idHasher, type PasswordHasher } from './lib/password.ts'
import { AccountsRepo } from './modules/accounts/repo.ts'
import { AccountsService } from './modules/accounts/service.ts'
import { ChecksRepo } from './modules/checks/repo.ts'
import { ChecksService } from './modules/checks/service.ts'
import { ComponentsRepo } from './modules/components/repo.ts'
import { ComponentsService } from './modules/components/service.ts'
import { IncidentsRepo } from './modules/incidents/repo.ts'
import { IncidentsService } from './modules/incidents/service.ts'
import { MaintenancesRepo } from './modules/maintenances/repo.ts'
import { MaintenancesService } from './modules/maintenances/service.ts'
import { PageStatusRepo } from './modules/page-status/repo.ts'
import { PageStatusService } from './modules/page-status/service.ts'
import { PageAccessRepo } from './modules/page-access/repo.ts'
import { PageAccessService } from './modules/page-access/service.ts'
import { AttemptBudgetsRepo } from './modules/attempt-budgets/repo.ts'
import { PageAccessSettingsService } from './modules/page-access/settings.ts'
import { PageViewCounter } from './modules/analytics/page-views.ts'
import { AnalyticsRepo } from './modules/analytics/repo.ts'
import { AnalyticsService } from './modules/analytics/service.ts'
import { ShareTokensService } from './modules/analytics/share-tokens.ts'
import { recordResponseTimes, responseTimesFrom } from './modules/analytics/response-times.ts'
import { refreshStatusRollup } from './modules/analytics/status-aggregator.ts'
import { StatusPagesRepo } from './modules/status-pages/repo.ts'
import { StatusPagesService } from './modules/status-pages/service.ts'
import { DomainVerifier } from './modules/status-pages/domain-verifier.ts'
import type { DnsResolver } from './modules/status-pages/dns-check.ts'
import { publicCacheOptions, type PublicCache } from './lib/http-cache.ts'
import { TtlCache } from './lib/ttl-cache.ts'
import { APP_VERSION } from './lib/version.ts'
import { BadgeService } from './modules/badge/service.ts'
import { EmbedRepo } from './modules/embed/repo.ts'
import { EmbedService } from './modules/embed/service.ts'
import { PreviewService } from './modules/embed/preview-service.ts'
import { MeteredCache } from './modules/metrics/metered-cache.ts'
import { AppMetrics } from './modules/metrics/registry.ts'
import { MetricsRepo } from './modules/metrics/repo.ts'
import { PrivateBadges } from './modules/badge/private.ts'
import { BrandingRepo } from './modules/branding/repo.ts'
import { BrandingService } from './modules/branding/service.ts'
import { pageEventsSource } from './modules/status-site/events-source.ts'
import { StatusSiteRepo } from './modules/status-site/repo.ts'
import { StatusSiteService } from './modules/status-site/service.ts'
import { PrivateStatusJson } from './modules/status-api/private.ts'
import { StatusService } from './modules/status-api/service.ts'
import { WIDGET_JS } from './modules/widget/asset.ts'
import { WidgetScript } from './modules/widget/http.ts'
import { createAddressGuard } from './lib/address-guard.ts'
import { componentStatusFromMonitors } from './modules/monitors/run/index.ts'
import type { CheckDeps } from './modules/monitors/kinds/index.ts'
import { MonitorRecorder } from './modules/monitors/run/index.ts'
import { AutoIncidents } from './modules/auto-incidents/automation.ts'
import { AutoIncidentsRepo } from './modules/auto-incidents/repo.ts'
import { AutoIncidentSettingsService } from './modules/auto-incidents/service.ts'
import { emailAuthResultHook } from './modules/email-auth/notices.ts'
import { EmailAuthRepo } from './modules/email-auth/repo.ts'
import { EmailAuthService } from './modules/email-auth/service.ts'
import { ToolChecksRepo } from './modules/lookup-tools/repo.ts'
import { LookupToolsService } from './modules/lookup-tools/service.ts'
import { MonitorsRepo } from './modules/monitors/repo.ts'
import { MonitorsService } from './modules/monitors/service.ts'
import { ProbesRepo } from './modules/probes/repo.ts'
import { ProbesService } from './modules/probes/service.ts'
import { systemDnsServers, systemResolve } from './lib/dns/index.ts'
import { TransfersRepo } from './modules/transfers/repo.ts'
import { TransfersService } from './modules/transfers/service.ts'
import { detachPageFromOwnerChannels } from './modules/transfers/hooks.ts'
import { SlaRepo } from './modules/sla/repo.ts'
import { SlaService } from './modules/sla/service.ts'
import { SlaChecker } from './modules/sla/checker.ts'
import { Notifier } from './modules/notify/contract.ts'
import { Outbox } from './modules/notify/outbox.ts'
import { HeldEventsRepo } from './modules/notify/held-events.ts'
import { subscriberFanout } from './modules/subscribers/fanout.ts'
import { SubscriberFanoutExpander } from './modules/subscribers/expansion.ts'
import { SubscribersRepo } from './modules/subscribers/repo.ts'
import { SubscribersService } from './modules/subscribers/service.ts'
import { createSmtpSender } from './modules/notify/smtp-transport.ts'
import { messageIdMaker } from './modules/notify/mail.ts'
import { OutboxWorker } from './modules/notify/worker.ts'
import { DeliveryLog } from './modules/notify/delivery-log.ts'
import { ChannelsRepo } from './modules/channels/repo.ts'
import { ChannelsService } from './modules/channels/service.ts'
import { MaintenanceSweeper } from './modules/maintenances/sweeper.ts'

export interface ServiceDeps {
  db: Db
  config: Config
  clock?: Clock
  changes?: ChangeFeed
  /** argon2id unless a test passes a faster one. */
  passwords?: PasswordHasher
  /** Off only for measuring the uncached path. */
  publicCache?: boolean
  /** Set when this process is one of several workers (WORKERS=N); labels its metrics. */
  workerId?: number
  /** What monitor checks use (address guard, resolvers, trusted CAs); default: the system's, with MONITOR_PRIVATE_TARGETS. */
  checkDeps?: CheckDeps
  /** DNS lookups of the custom-domain check (main.ts: node:dns); absent, domains are never verified. */
  dns?: DnsResolver
}

export function createServices(input: ServiceDeps) {
  // `/metrics` only with METRICS_TOKEN: otherwise nothing is counted at all (and prom-client is never loaded).
  const metrics = input.config.metricsToken === undefined ? undefined : new AppMetrics({
    version: APP_VERSION,
    workerId: input.workerId,
    repo: new MetricsRepo(input.db),
    settings: input.config.metrics,
    pageViewsBuffered: () => pageViews.pending,
    cacheEntries: () => publicCache?.size ?? 0,
  })
  // With metrics on, every query the services make is timed by operation (the scrape's own are not).
  const deps: ServiceDeps = metrics ? { ...input, db: input.db.withPlugin(metrics.queries) } : input
  const clock = deps.clock ?? systemClock
  const changes = deps.changes ?? new ChangeFeed()
  const passwords = deps.passwords ?? argon2idHasher
  const attemptBudgets = new AttemptBudgetsRepo(deps.db)
  const accounts = new AccountsService(new AccountsRepo(deps.db), clock, changes, passwords, deps.config.defaultPlan, deps.config.baseUrl, attemptBudgets)
  // Private pages' gate passwords; a page may be created with its password (status-pages GatePasswords).
  const pageAccess = new PageAccessService(new PageAccessRepo(deps.db), clock, changes, passwords, attemptBudgets)
  const pagesRepo = new StatusPagesRepo(deps.db)
  const pages = new StatusPagesService(pagesRepo, clock, changes, deps.config, pageAccess)
  // Custom domains are linked only once verified by DNS (main.ts runs the sweep).
  const domainVerifier = new DomainVerifier(pagesRepo, pages, deps.dns, clock, changes, deps.config)
  // Status changes keep the analytics roll-ups in step, in the same transaction.
  const monitorsRepo = new MonitorsRepo(deps.db)
  // A monitored component's status follows its monitors (component-status.ts).
  const monitoredStatus = async (componentId: number) => componentStatusFromMonitors(await monitorsRepo.componentMonitorStates(componentId))
  // Producers emit notification events inside their transactions; fan-outs register below. Events of
  // one monitor change are held until the recorder flushes them, then go out as one message per channel.
  const notifier = new Notifier().holdWith(new HeldEventsRepo(deps.db, clock))
  const components = new ComponentsService(new ComponentsRepo(deps.db, refreshStatusRollup), pages, clock, changes, monitoredStatus, notifier)
  const incidents = new IncidentsService(new IncidentsRepo(deps.db), pages, clock, changes, notifier)
  const maintenances = new MaintenancesService(new MaintenancesRepo(deps.db), pages, clock, changes, notifier)
  const maintenanceSweeper = new MaintenanceSweeper(deps.db, notifier, clock)
  const checks = new ChecksService(new ChecksRepo(deps.db, recordResponseTimes), components, clock, changes)
  const checkDeps: CheckDeps = deps.checkDeps ?? {
    guard: createAddressGuard({ resolve: systemResolve, allowPrivate: deps.config.monitorPrivateTargets }),
    clock,
    dnsServers: systemDnsServers(),
    userAgent: `Lantern/${APP_VERSION} (monitor; +${deps.config.baseUrl})`,
  }
  const autoIncidentsRepo = new AutoIncidentsRepo(deps.db)
  const autoIncidentSettings = new AutoIncidentSettingsService(autoIncidentsRepo, pages, clock)
  const autoIncidents = new AutoIncidents(autoIncidentsRepo, incidents, clock)
  // SSL and DNSBL monitors emit their events through the notifier, in the recorder's transaction.
  const monitorRecorder = new MonitorRecorder(monitorsRepo, checks, components, clock, changes, autoIncidents, notifier)
  // Probes in other regions: instance-level tokens; their results go through the same recorder.
  const probesRepo = new ProbesRepo(deps.db)
  const monitors = new MonitorsService(monitorsRepo, pages, components, monitorRecorder, checkDeps.guard, clock, probesRepo)
  const probes = new ProbesService(probesRepo, monitorsRepo, monitorRecorder, clock)
  // Email-authentication monitors keep their last report and announce changes in the recorder's transaction.
  monitorRecorder.onResult(emailAuthResultHook(notifier))
  if (metrics) monitorRecorder.onResult(metrics.monitors.resultHook)
  const emailAuth = new EmailAuthService(new EmailAuthRepo(deps.db), monitors)
  const lookupTools = new LookupToolsService(new ToolChecksRepo(deps.db), checkDeps, clock, attemptBudgets)
  // What is the status of a page, now and over N days: the one snapshot every public surface reads.
  const pageStatus = new PageStatusService(new PageStatusRepo(deps.db), clock)
  const pageAccessSettings = new PageAccessSettingsService(pages, pageAccess)
  const analyticsRepo = new AnalyticsRepo(deps.db)
  const shareTokens = new ShareTokensService(analyticsRepo, clock)
  const analytics = new AnalyticsService(analyticsRepo, shareTokens, clock, responseTimesFrom(deps.db))
  const pageViews = new PageViewCounter(analyticsRepo, clock)

  // The public cache of prepared answers (status JSON, snippets, badges, pages); every write empties
  // what it touches through the change feed.
  const cacheOptions = publicCacheOptions({ clock })
  const publicCache: PublicCache | undefined =
    deps.publicCache === false ? undefined : metrics ? new MeteredCache(cacheOptions, metrics.cache) : new TtlCache(cacheOptions)
  publicCache?.follow(changes)

  const embed = new EmbedService(new EmbedRepo(deps.db), deps.config)
  const status = new StatusService(pageStatus, deps.config, clock)
  const badges = new BadgeService(pageStatus)
  const preview = new PreviewService(pageStatus, deps.config)
  const widget = new WidgetScript(WIDGET_JS)
  const branding = new BrandingService(new BrandingRepo(deps.db), pages, clock, changes)
  const statusSite = new StatusSiteService(new StatusSiteRepo(deps.db), branding, pageEventsSource({ incidents, maintenances }), pageStatus, publicCache, clock, changes, deps.config)
  // Answers to embeds of private pages that carry `auth_token` (src/http/private-embed.ts).
  const privateStatusJson = new PrivateStatusJson(pageAccess, status, clock)
  const privateBadges = new PrivateBadges(pageAccess, pageStatus)
  const sla = new SlaService(new SlaRepo(deps.db), pages, components, clock)

  // Notifications (issue 14): producers emit in their transaction, fan-outs write the outbox, the
  // worker delivers (main.ts runs its loop; tests call drain()).
  const mail = Object.freeze({ enabled: deps.config.mail.enabled, from: deps.config.mail.from })
  const outbox = new Outbox(mail.enabled, clock, messageIdMaker(mail.from ?? 'lantern.invalid', deps.config.baseUrl))
  const outboxWorker = new OutboxWorker({
    db: deps.db,
    clock,
    mail: mail.enabled ? createSmtpSender(deps.config.mail) : undefined,
    guard: checkDeps.guard,
    userAgent: `Lantern/${APP_VERSION} (notifications; +${deps.config.baseUrl})`,
  })
  // Owner notification channels: the fan-out of every event, and "channel disabled" mails.
  // The delivery log of channels and subscribers (their outbox rows), pruned by the worker.
  const deliveryLog = new DeliveryLog(deps.db, clock)
  outboxWorker.beforeClaim(deliveryLog.pruneStep)
  const channels = new ChannelsService(new ChannelsRepo(deps.db), outbox, clock, deps.config, deliveryLog)
  notifier.use(channels.fanout)
  // A cause left unflushed by a crash goes out after a minute.
  outboxWorker.beforeClaim(notifier.flushStale)
  outboxWorker.onTargetDisabled(channels.onTargetDisabled).signRequestsWith('channel', channels.signingKeys)
  // Ownership transfer of a page (issue 14 item 5): mails through the outbox, caches through the feed.
  const transfers = new TransfersService(new TransfersRepo(deps.db), pages, accounts, outbox, clock, changes, deps.config.baseUrl).onPageMoved(
    detachPageFromOwnerChannels,
  )
  // Page subscribers: their fan-out, and dead targets unsubscribed.
  const subscribers = new SubscribersService(new SubscribersRepo(deps.db), pages, outbox, clock, deps.config, deliveryLog)
  outboxWorker.signRequestsWith('subscriber', subscribers.signingKeys)
  // One pending row per event in the producer's transaction; the worker expands it before claiming.
  notifier.use(subscriberFanout(subscribers, () => outboxWorker.wake()))
  outboxWorker.beforeClaim(new SubscriberFanoutExpander(deps.db, subscribers, outbox).step)
  outboxWorker.onTargetDisabled((db, target) => subscribers.disableTarget(db, target))
  if (metrics) outboxWorker.onDelivered(metrics.outbox.delivered)
  return {
    config: deps.config,
    clock,
    changes,
    accounts,
    pages,
    domainVerifier,
    components,
    incidents,
    maintenances,
    checks,
    checkDeps,
    monitorsRepo,
    monitorRecorder,
    monitors,
    probes,
    autoIncidents,
    autoIncidentSettings,
    pageStatus,
    pageAccess,
    pageAccessSettings,
    shareTokens,
    analytics,
    pageViews,
    metrics,
    publicCache,
    embed,
    status,
    badges,
    preview,
    widget,
    statusSite,
    branding,
    privateStatusJson,
    privateBadges,
    sla,
    mail,
    outbox,
    notifier,
    outboxWorker,
    channels,
    maintenanceSweeper,
    transfers,
    slaChecker: new SlaChecker({ db: deps.db, sla, notifier, outbox, clock, baseUrl: deps.config.baseUrl }),
    emailAuth,
    lookupTools,
    subscribers,
    deliveryLog,
    attemptBudgets,
  }
}

export type Services = ReturnType<typeof createServices>
