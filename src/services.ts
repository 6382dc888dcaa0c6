/**
 * The composition root: every repo, service and cache, wired to one database, and the change-feed
 * subscriptions. Construction is grouped by wing; `wireEvents` at the bottom is the table of who hears
 * which event (every listener registered after construction). The HTTP app (`app.ts`), the server
 * (`main.ts`) and the CLI all build on it, so there is exactly one implementation of each action and
 * one place where objects are made.
 */
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import { ChangeFeed, type Change } from './lib/change-feed.ts'
import { joinedTransaction } from './db/joined-transaction.ts'
import { ConfigService, type ConfigWriters, type TransactionRunner } from './modules/config-as-code/service.ts'
import { systemClock, type Clock } from './lib/clock.ts'
import { argon2idHasher, type PasswordHasher } from './lib/password.ts'
import { AccountsRepo } from './modules/accounts/repo.ts'
import { AccountsService } from './modules/accounts/service.ts'
import { ChecksRepo } from './modules/component-checks/repo.ts'
import { ChecksService } from './modules/component-checks/service.ts'
import { ComponentsRepo } from './modules/components/repo.ts'
import { ComponentsService } from './modules/components/service.ts'
import { IncidentsRepo } from './modules/incidents/repo.ts'
import { IncidentsService } from './modules/incidents/service.ts'
import { MaintenanceSeriesRepo, MaintenancesRepo } from './modules/maintenances/repo.ts'
import { MaintenanceSeriesService, MaintenancesService } from './modules/maintenances/service.ts'
import { PageStatusRepo } from './modules/status-pipeline/repo.ts'
import { PageStatusService } from './modules/status-pipeline/service.ts'
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
import { WidgetScript } from './modules/widget/script.ts'
import { createAddressGuard } from './lib/address-guard.ts'
import { fetchSummary } from './modules/vendor-feeds/fetch-summary.ts'
import { VendorFeedsRepo } from './modules/vendor-feeds/repo.ts'
import { VendorFeedsService } from './modules/vendor-feeds/service.ts'
import { ImportService } from './modules/importers/service.ts'
import { componentStatusFromMonitors } from './modules/monitors/run/index.ts'
import { bootstrapLoader, DEFAULT_RDAP_BOOTSTRAP_PATH, pingSupport, type CheckDeps } from './modules/monitors/kinds/index.ts'
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
import { TeamsRepo } from './modules/teams/repo.ts'
import { TeamsService } from './modules/teams/service.ts'
import { AuditService } from './modules/audit/service.ts'
import { SsoRepo } from './modules/sso/repo.ts'
import { SsoService } from './modules/sso/service.ts'
import { PasswordResetsRepo } from './modules/password-resets/repo.ts'
import { PasswordResetsService } from './modules/password-resets/service.ts'
import { TwoFactorRepo } from './modules/two-factor/repo.ts'
import { TwoFactorService } from './modules/two-factor/service.ts'
import { PasskeysRepo } from './modules/passkeys/repo.ts'
import { PasskeysService } from './modules/passkeys/service.ts'
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
import { MonitorAlertsService } from './modules/monitor-alerts/service.ts'
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
  /** Set when this process is one of several workers (WORKERS=N); labels its metrics and answers. */
  workerId?: number
  /** What monitor checks use (address guard, resolvers, trusted CAs); default: the system's, with MONITOR_PRIVATE_TARGETS. */
  checkDeps?: CheckDeps
  /** DNS lookups of the custom-domain check (main.ts: node:dns); absent, domains are never verified and the check is not offered. */
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

  // ── Accounts and pages ──
  const attemptBudgets = new AttemptBudgetsRepo(deps.db)
  const accounts = createAccountsService({ db: deps.db, config: deps.config, clock, changes, passwords, attemptBudgets })
  // Private pages' gate passwords; a page may be created with its password (status-pages GatePasswords).
  const pageAccess = new PageAccessService({ repo: new PageAccessRepo(deps.db), clock, changes, passwords, attemptBudgets })
  const pagesRepo = new StatusPagesRepo(deps.db)
  const pages = new StatusPagesService({ repo: pagesRepo, clock, changes, config: deps.config, gatePasswords: pageAccess })
  const pageAccessSettings = new PageAccessSettingsService(pages, pageAccess)
  // Custom domains are linked only once verified by DNS (a background job runs the sweep).
  const domainVerifier = new DomainVerifier({ repo: pagesRepo, pages, resolver: deps.dns, clock, changes, config: deps.config })
  const branding = new BrandingService(new BrandingRepo(deps.db), pages, clock, changes)

  // ── Status writes: the producers of notification events ──
  // Producers emit notification events inside their transactions; the listeners are in wireEvents. Events
  // of one monitor change are held until the recorder flushes them, then go out as one message per channel.
  const notifier = new Notifier().holdWith(new HeldEventsRepo(deps.db, clock))
  const monitorsRepo = new MonitorsRepo(deps.db)
  // A monitored component's status follows its monitors (component-status.ts).
  const monitoredStatus = async (componentId: number) => componentStatusFromMonitors(await monitorsRepo.componentMonitorStates(componentId))
  // Status changes keep the analytics roll-ups in step, in the same transaction.
  const components = new ComponentsService({ repo: new ComponentsRepo(deps.db, refreshStatusRollup), pages, clock, changes, monitoredStatus, notifier })
  const incidents = new IncidentsService({ repo: new IncidentsRepo(deps.db), pages, clock, changes, notifier })
  const maintenances = new MaintenancesService({ repo: new MaintenancesRepo(deps.db), pages, clock, changes, notifier })
  const maintenanceSeries = new MaintenanceSeriesService({ repo: new MaintenanceSeriesRepo(deps.db), pages, clock, changes, notifier })
  const maintenanceSweeper = new MaintenanceSweeper(deps.db, notifier, clock)
  const checks = new ChecksService(new ChecksRepo(deps.db, recordResponseTimes), components, clock, changes)

  // ── Monitoring ──
  const checkDeps: CheckDeps = deps.checkDeps ?? {
    guard: createAddressGuard({ resolve: systemResolve, allowPrivate: deps.config.monitorPrivateTargets }),
    clock,
    dnsServers: systemDnsServers(),
    userAgent: `Lantern/${APP_VERSION} (monitor; +${deps.config.baseUrl})`,
    ...(deps.config.pingCommand ? { pingCommand: deps.config.pingCommand } : {}),
    rdapBootstrap: bootstrapLoader(deps.config.rdapBootstrapPath ?? DEFAULT_RDAP_BOOTSTRAP_PATH, () => clock.now()),
  }
  const autoIncidentsRepo = new AutoIncidentsRepo(deps.db)
  const autoIncidentSettings = new AutoIncidentSettingsService(autoIncidentsRepo, pages, clock)
  const autoIncidents = new AutoIncidents(autoIncidentsRepo, incidents, clock)
  // SSL and DNSBL monitors emit their events through the notifier, in the recorder's transaction.
  const monitorRecorder = new MonitorRecorder({ repo: monitorsRepo, checks, components, clock, changes, listener: autoIncidents, events: notifier })
  // Probes in other regions: instance-level tokens; their results go through the same recorder.
  const probesRepo = new ProbesRepo(deps.db)
  const monitors = new MonitorsService({ repo: monitorsRepo, pages, components, recorder: monitorRecorder, guard: checkDeps.guard, clock, regionDirectory: probesRepo, pingSupport: () => pingSupport(checkDeps.pingCommand) })
  const probes = new ProbesService(probesRepo, monitorsRepo, monitorRecorder, clock)
  const emailAuth = new EmailAuthService(new EmailAuthRepo(deps.db), monitors)
  const lookupTools = new LookupToolsService({ repo: new ToolChecksRepo(deps.db), checkDeps, clock, attemptBudgets })

  // ── Reads: the status of a page, analytics, the public cache and what embeds show ──
  // What is the status of a page, now and over N days: the one snapshot every public surface reads.
  const pageStatus = new PageStatusService(new PageStatusRepo(deps.db), clock)
  const analyticsRepo = new AnalyticsRepo(deps.db)
  const shareTokens = new ShareTokensService(analyticsRepo, clock)
  const analytics = new AnalyticsService(analyticsRepo, shareTokens, clock, responseTimesFrom(deps.db))
  const pageViews = new PageViewCounter(analyticsRepo, clock)
  const sla = new SlaService(new SlaRepo(deps.db), pages, components, clock, changes)
  // The public cache of prepared answers (status JSON, snippets, badges, pages); every write empties
  // what it touches through the change feed.
  const cacheOptions = publicCacheOptions({ clock })
  const publicCache: PublicCache | undefined =
    deps.publicCache === false ? undefined : metrics ? new MeteredCache(cacheOptions, metrics.cache) : new TtlCache(cacheOptions)
  publicCache?.follow(changes)
  const embed = new EmbedService(new EmbedRepo(deps.db), deps.config)
  const status = new StatusService(pageStatus, deps.config, clock, (pageId) => sla.publicBudgets(pageId))
  const badges = new BadgeService(pageStatus)
  const preview = new PreviewService(pageStatus, deps.config)
  const widget = new WidgetScript(WIDGET_JS)
  // Components that follow a third party's Statuspage-v2 summary (read through the monitors' guard).
  const vendorFeeds = new VendorFeedsService({
    repo: new VendorFeedsRepo(deps.db),
    components,
    guard: checkDeps.guard,
    read: (url) => fetchSummary(url, { guard: checkDeps.guard, userAgent: `Lantern/${APP_VERSION} (vendor status; +${deps.config.baseUrl})` }),
    clock,
    changes,
  })
  const statusSite = new StatusSiteService({
    repo: new StatusSiteRepo(deps.db),
    appearance: branding,
    events: pageEventsSource({ incidents, maintenances, maintenanceSeries }),
    pageStatus,
    cache: publicCache,
    clock,
    changes,
    config: deps.config,
    budgets: (pageId) => sla.publicBudgets(pageId),
    vendorFeeds: (pageId) => vendorFeeds.ofPage(pageId),
  })
  // Answers to embeds of private pages that carry `auth_token` (src/http/private-embed.ts).
  const privateStatusJson = new PrivateStatusJson(pageAccess, status, clock)
  const privateBadges = new PrivateBadges(pageAccess, pageStatus)

  // ── Delivery: the outbox, its worker and the targets it delivers to ──
  // Producers emit in their transaction, fan-outs write the outbox, the worker delivers (a background
  // job runs its loop; tests call drain()).
  const mail = Object.freeze({ enabled: deps.config.mail.enabled, from: deps.config.mail.from })
  const outbox = new Outbox(mail.enabled, clock, messageIdMaker(mail.from ?? 'lantern.invalid', deps.config.baseUrl))
  const outboxWorker = new OutboxWorker({
    db: deps.db,
    clock,
    mail: mail.enabled ? createSmtpSender(deps.config.mail) : undefined,
    guard: checkDeps.guard,
    userAgent: `Lantern/${APP_VERSION} (notifications; +${deps.config.baseUrl})`,
  })
  // The delivery log of channels and subscribers (their outbox rows), pruned by the worker.
  const deliveryLog = new DeliveryLog(deps.db, clock)
  // Owner notification channels, and page subscribers.
  const channels = new ChannelsService({ repo: new ChannelsRepo(deps.db), outbox, clock, config: deps.config, deliveries: deliveryLog })
  const subscribers = new SubscribersService({ repo: new SubscribersRepo(deps.db), pages, outbox, clock, config: deps.config, deliveries: deliveryLog })
  const importer = new ImportService({ db: deps.db, clock, changes, guard: checkDeps.guard, config: deps.config, outbox })
  // Ownership transfer of a page: mails through the outbox, caches through the feed.
  const transfers = new TransfersService({ repo: new TransfersRepo(deps.db), pages, accounts, outbox, clock, changes, baseUrl: deps.config.baseUrl })
  // Teams: members, roles and invitations (mailed through the outbox).
  const teams = new TeamsService({ repo: new TeamsRepo(deps.db), outbox, clock, baseUrl: deps.config.baseUrl, hasSecondFactor: (userId) => accounts.hasSecondFactor(userId) })
  // "Forgot password?": single-use links mailed through the outbox.
  const passwordResets = new PasswordResetsService({ repo: new PasswordResetsRepo(deps.db), outbox, passwords, clock, attemptBudgets, baseUrl: deps.config.baseUrl })
  // Two-factor sign-in: an authenticator app and recovery codes (guesses counted like passwords).
  const twoFactor = new TwoFactorService({ repo: new TwoFactorRepo(deps.db), accounts, clock, attemptBudgets, issuer: `Lantern (${new URL(deps.config.baseUrl).host})` })
  // Passkeys (WebAuthn): a second factor, and a password-free sign-in; the relying party is BASE_URL.
  const passkeys = new PasskeysService({ repo: new PasskeysRepo(deps.db), clock, attemptBudgets, baseUrl: deps.config.baseUrl })
  // Owner routes record their successful writes in the audit log and ask two-factor of teams that require it.
  const audit = new AuditService({ db: deps.db, clock })
  // A second factor is the authenticator app or at least one passkey.
  accounts.connect({ audit, hasSecondFactor: async (userId) => (await twoFactor.isEnabled(userId)) || (await passkeys.has(userId)) })
  // Single sign-on through the instance's OpenID provider (OIDC_*): accounts linked by verified address.
  const sso = new SsoService({ config: deps.config.oidc, repo: new SsoRepo(deps.db), accounts, teams, audit, clock })
  // SLA breach alerts and the monthly report mail.
  const slaChecker = new SlaChecker({ db: deps.db, sla, notifier, outbox, clock, baseUrl: deps.config.baseUrl })

  // A monitor's own alerts (its state changes, reminders while down, a snooze), to the channels it picked.
  const monitorAlerts = new MonitorAlertsService({ db: deps.db, notifier, clock })

  wireEvents({ db: deps.db, metrics, notifier, monitorRecorder, outboxWorker, outbox, deliveryLog, channels, subscribers, transfers, monitorAlerts })

  // Configuration as code applies a whole file through these services, in one transaction.
  const inOneTransaction = transactionalServices({ ...deps, clock, changes, passwords, checkDeps })
  const configAsCode = new ConfigService({ services: { pages, components, channels, monitors, monitorAlerts, sla, branding, autoIncidentSettings, maintenances, maintenanceSeries, incidents, audit }, inOneTransaction })

  return {
    configAsCode,
    config: deps.config,
    clock,
    changes,
    accounts,
    pages,
    domainVerifier,
    components,
    vendorFeeds,
    incidents,
    maintenances,
    maintenanceSeries,
    checks,
    checkDeps,
    monitorsRepo,
    monitorRecorder,
    monitors,
    importer,
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
    monitorAlerts,
    maintenanceSweeper,
    transfers,
    teams,
    audit,
    sso,
    passwordResets,
    twoFactor,
    passkeys,
    slaChecker,
    emailAuth,
    lookupTools,
    subscribers,
    deliveryLog,
    attemptBudgets,
  }
}

export type Services = ReturnType<typeof createServices>

/**
 * Runs `work` against services built on one database transaction: every write it makes through
 * them (checks, plan limits and events as the API's) commits together or not at all. The caches
 * hear of the changes only after the commit; a rollback leaves them untouched.
 */
function transactionalServices(deps: ServiceDeps & { clock: Clock; changes: ChangeFeed; passwords: PasswordHasher; checkDeps: CheckDeps }): TransactionRunner {
  return <T>(work: (scoped: ConfigWriters) => Promise<T>): Promise<T> =>
    deps.db
      .transaction()
      .execute(async (trx) => {
        const heard: Change[] = []
        const feed = new ChangeFeed()
        feed.subscribe((change) => heard.push(change))
        const scoped = createServices({ ...deps, db: joinedTransaction(trx), config: { ...deps.config, metricsToken: undefined }, changes: feed, publicCache: false })
        return { result: await work(scoped), heard }
      })
      .then(({ result, heard }) => {
        for (const change of heard) deps.changes.publish(change)
        return result
      })
}

/**
 * Who hears which event: every listener registered after construction, grouped by the event it hears.
 * Within a group, listeners run in the order written here.
 */
function wireEvents(parts: {
  db: Db
  metrics: AppMetrics | undefined
  notifier: Notifier
  monitorRecorder: MonitorRecorder
  outboxWorker: OutboxWorker
  outbox: Outbox
  deliveryLog: DeliveryLog
  channels: ChannelsService
  subscribers: SubscribersService
  transfers: TransfersService
  monitorAlerts: MonitorAlertsService
}): void {
  const { db, metrics, notifier, monitorRecorder, outboxWorker, outbox, deliveryLog, channels, subscribers, transfers, monitorAlerts } = parts

  // A monitor result, in the recorder's transaction → the email-authentication report (it keeps the last
  // one and announces changes); the monitor metrics.
  monitorRecorder.onResult(emailAuthResultHook(notifier))
  if (metrics) monitorRecorder.onResult(metrics.monitors.resultHook)
  // A monitor's confirmed state changed, in the recorder's transaction → its own alert (held under the
  // cause its component's events share: one outage, one message per channel).
  monitorRecorder.onStateChange(monitorAlerts.stateChanged)

  // A notification event, in the producer's transaction → the owner's channels; the page's subscribers
  // (one pending row per event, which the worker expands before claiming).
  notifier.use(channels.fanout)
  notifier.use(subscriberFanout(subscribers, () => outboxWorker.wake()))

  // The outbox worker is about to claim rows → prune the delivery log; send the causes a crash left
  // unflushed (after a minute); expand the subscribers' pending rows into deliveries.
  outboxWorker.beforeClaim(deliveryLog.pruneStep)
  outboxWorker.beforeClaim(notifier.flushStale)
  outboxWorker.beforeClaim(new SubscriberFanoutExpander(db, subscribers, outbox).step)

  // A webhook request is about to go out → signed with its channel's or subscription's key.
  outboxWorker.signRequestsWith('channel', channels.signingKeys)
  outboxWorker.signRequestsWith('subscriber', subscribers.signingKeys)

  // A delivery target gave up (dead address) → the channel is disabled and its owner mailed; the
  // subscriber is unsubscribed.
  outboxWorker.onTargetDisabled(channels.onTargetDisabled)
  outboxWorker.onTargetDisabled((trx, target) => subscribers.disableTarget(trx, target))

  // A delivery to a channel succeeded → a webhook or chat channel waiting for its test is verified
  // (in the transaction that records the success).
  outboxWorker.onTargetSent(channels.onTargetSent)

  // A delivery went out → the outbox metrics.
  if (metrics) outboxWorker.onDelivered(metrics.outbox.delivered)

  // A page moved to another owner → it leaves the previous owner's notification channels.
  transfers.onPageMoved(detachPageFromOwnerChannels)
}

/**
 * The accounts service. The supervisor of several workers builds it too (to print the first-run link
 * once), so it is made here and nowhere else.
 */
export function createAccountsService(deps: {
  db: Db
  config: Config
  clock: Clock
  changes: ChangeFeed
  passwords: PasswordHasher
  attemptBudgets?: AttemptBudgetsRepo
}): AccountsService {
  return new AccountsService({
    repo: new AccountsRepo(deps.db),
    clock: deps.clock,
    changes: deps.changes,
    passwords: deps.passwords,
    defaultPlan: deps.config.defaultPlan,
    serviceOrigin: deps.config.baseUrl,
    attemptBudgets: deps.attemptBudgets ?? new AttemptBudgetsRepo(deps.db),
  })
}
