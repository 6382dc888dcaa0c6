/**
 * Everything a status host serves, prepared once and kept in the public cache: the page, the
 * incident history, the theme stylesheet, favicon and logo, robots.txt, the feeds and the
 * Statuspage-shaped JSON. Each entry is tagged with its page, so a change to the page (or to
 * anything shown on it) drops it at once.
 */
import type { Config } from '../../config.ts'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { LIVE_CACHE_CONTROL, NEGATIVE_TTL_MS, prepareJson, prepareResponse, type PreparedResponse, type PublicCache } from '../../lib/http-cache.ts'
import { TtlCache, type CacheFill } from '../../lib/ttl-cache.ts'
import { planHas, type Plan } from '../plans/matrix.ts'
import { statusPageUrl } from '../status-pages/urls.ts'
import type { PageEventsSource, PublicIncident } from './events.ts'
import { renderAtom, renderRss } from './feeds.ts'
import type { HostRoute } from '../../http/host-router.ts'
import { IMAGE_CONTENT_TYPES } from '../branding/images.ts'
import { DEFAULT_FAVICON_SVG, IMMUTABLE, prepareCss, shortHash, siteImageHeaders, themeCss } from './look.ts'
import { renderGatePage } from './render/gate.ts'
import { renderHistoryPage } from './render/history.ts'
import { renderIncidentPage } from './render/incident.ts'
import { renderBlockedPage, renderNotFoundPage } from './render/not-found.ts'
import type { PublicBudgetReader } from '../sla/public-budget.ts'
import type { VendorFeed } from '../vendor-feeds/service.ts'
import { groupInPageOrder, renderStatusPage, type ComponentView } from './render/page.ts'
import { speechOf, type Assets } from './render/shared.ts'
import type { StatusSiteRepo } from './repo.ts'
import { apiSnapshot, documentBody, type StatusApiDocument } from './statuspage-api.ts'
import type { PageStatusService } from '../status-pipeline/service.ts'
import { worstOf } from '../status-pipeline/status.ts'
import { nextBoundary, ttlUntil } from '../status-pipeline/windows.ts'
import { PAGE_CSS } from './styles.ts'
import { takesVisitorSubscriptions } from './subscriptions.ts'
import { calendarKey, feedKey, historyKey, incidentKey, pageKey, statusApiKey } from './keys.ts'
import { visitorChoice, type VisitorChoice } from './visitor.ts'
import { renderCalendar } from './calendar.ts'
import type { ImageType } from '../branding/tables.ts'
import type { BrandingService } from '../branding/service.ts'

export const UPTIME_DAYS = 90
export const RECENT_DAYS = 7
export const HISTORY_PAGE_SIZE = 20
/** Maintenance windows not yet over that the page and the JSON list, soonest first. */
const MAINTENANCES_SHOWN = 20
/** Incidents with one start time shown together on an archive page, at most. */
const MAX_SAME_START = 500
/** Page HTML and JSON are rebuilt at least this often (uptime bars and times move). */
const PAGE_TTL_MS = 60_000
const SITE_TTL_MS = 60_000
const ASSET_TTL_MS = 10 * 60_000

type Bounded = { value: PreparedResponse; boundary: number | undefined }

export interface Site {
  pageId: number
  slug: string
  name: string
  customDomain: string | null
  visibility: 'public' | 'private'
  blocked: boolean
  plan: Plan
  /** The host the visitor used (normalised). */
  host: string
  /** Where the page lives: its custom domain when it has one. */
  url: string
  updatedAt: number
  /** What visitors read when they ask for nothing else (visitor.ts): a language of ours, an IANA zone. */
  language: string
  timeZone: string
  /** Markdown shown under the page's name ('' for none). */
  description: string
}

export interface Look {
  assets: Assets
  theme: PreparedResponse
  /** The page's own favicon, or Lantern's. */
  favicon: PreparedResponse
  customFavicon: boolean
  logo: PreparedResponse | undefined
}

const HTML = 'text/html; charset=utf-8'
/**
 * Status pages need nothing but their own stylesheets, images and the gate form: no script at all.
 * (Framing is left to the instance's security headers.)
 */
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'"
/**
 * Baked in at preparation, so the fast lane adds nothing per request: what the edge's security
 * headers would add to a status host's HTML (its own policy is kept; framing stays open).
 */
const HTML_HEADERS = { 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin' }
/** The page, history and incident pages speak the visitor's language, so caches on the way key on it too. */
const VISITOR_HTML_HEADERS = { ...HTML_HEADERS, vary: 'Accept-Language' }
/** The JSON and the feeds are read from any site (the status site's entry opens them too). */
const JSON_CORS = { 'access-control-allow-origin': '*' }
const lookKey = (pageId: number): string => `look:${pageId}`

export const NO_SUCH_INCIDENT = 'There is no such incident.'

export interface StatusSiteServiceDeps {
  repo: StatusSiteRepo
  appearance: Pick<BrandingService, 'publicAppearance'>
  events: PageEventsSource
  pageStatus: PageStatusService
  cache: PublicCache | undefined
  clock: Clock
  changes: ChangeFeed
  config: Pick<Config, 'scheme' | 'statusDomain' | 'mail'>
  /** The error budgets owners chose to show (the SLA service). */
  budgets: PublicBudgetReader
  /** The vendor feeds the page's components follow (vendor-feeds). */
  vendorFeeds: (pageId: number) => Promise<ReadonlyMap<number, VendorFeed>>
}

/** The page as a visitor who asks for nothing reads it: its default language, its zone. */
export const defaultChoice = (site: Pick<Site, 'language' | 'timeZone'>): VisitorChoice => visitorChoice('', null, site)

/** What the footer says of zones: the page's own, and the visitor's pick kept in its form. */
const zonesOf = (choice: VisitorChoice) => ({ pageZone: choice.pageZone, visitorZone: choice.pickedZone !== undefined, lang: choice.pickedLang })

export class StatusSiteService {
  /** Host → page; `null` is a negative answer (no page at this host), kept briefly. */
  private readonly sites: TtlCache<Site | null> | undefined
  private readonly looks: TtlCache<Look> | undefined
  readonly pageCssUrl: Promise<string>
  readonly pageCss: Promise<PreparedResponse>
  /** The same, once prepared: what the fast lane serves (undefined only in the first moment). */
  private pageCssReady: PreparedResponse | undefined
  private readonly robotsFiles: Promise<{ open: PreparedResponse; closed: PreparedResponse }>
  private robotsReady: { open: PreparedResponse; closed: PreparedResponse } | undefined
  private readonly defaultFavicon: Promise<PreparedResponse>
  private readonly defaultFaviconUrl: Promise<string>

  constructor(private readonly deps: StatusSiteServiceDeps) {
    const { cache, clock, changes } = deps
    if (cache) {
      this.sites = new TtlCache<Site | null>({ maxEntries: 10_000, defaultTtlMs: SITE_TTL_MS, negativeTtlMs: NEGATIVE_TTL_MS, clock })
      this.looks = new TtlCache({ maxEntries: 2_000, defaultTtlMs: ASSET_TTL_MS, clock })
      this.sites.follow(changes)
      this.looks.follow(changes)
    }
    this.pageCss = prepareCss(PAGE_CSS)
    void this.pageCss.then((css) => (this.pageCssReady = css))
    const robots = (body: string) => prepareResponse(200, body, { contentType: 'text/plain; charset=utf-8', cacheControl: 'public, max-age=300' })
    this.robotsFiles = Promise.all([robots('User-agent: *\nAllow: /\n'), robots('User-agent: *\nDisallow: /\n')]).then(([open, closed]) => (this.robotsReady = { open, closed }))
    this.pageCssUrl = shortHash(PAGE_CSS).then((v) => `/_lantern/page.css?v=${v}`)
    this.defaultFavicon = prepareResponse(200, DEFAULT_FAVICON_SVG, {
      contentType: IMAGE_CONTENT_TYPES.svg,
      cacheControl: 'public, max-age=86400',
      // Lantern's own icon, the same for every page.
      extraHeaders: siteImageHeaders('public'),
    })
    this.defaultFaviconUrl = shortHash(DEFAULT_FAVICON_SVG).then((v) => `/_lantern/favicon?v=${v}`)
  }

  /** The page a status host shows, or undefined (unknown slug or domain, or a plan without custom domains). */
  resolve(route: Extract<HostRoute, { kind: 'status' | 'custom' }>): Promise<Site | undefined> {
    const key = route.host
    const load = async (): Promise<CacheFill<Site | null>> => {
      const row = route.kind === 'status' ? await this.deps.repo.findSiteBySlug(route.slug) : await this.deps.repo.findSiteByDomain(route.host)
      if (!row) return { value: null, negative: true }
      if (route.kind === 'custom' && !planHas(row.plan, 'custom_domain_private')) return { value: null, negative: true, pageId: row.id }
      const site: Site = {
        pageId: row.id,
        slug: row.slug,
        name: row.name,
        customDomain: row.custom_domain,
        visibility: row.visibility,
        blocked: row.blocked === 1,
        plan: row.plan,
        host: route.host,
        url: statusPageUrl({ slug: row.slug, customDomain: row.custom_domain, customDomainState: row.custom_domain_state, plan: row.plan }, this.deps.config),
        updatedAt: row.updated_at,
        language: row.language,
        timeZone: row.time_zone,
        description: row.description,
      }
      return { value: site, pageId: row.id }
    }
    const found = this.sites ? this.sites.getOrLoad(key, load) : load().then((fill) => fill.value)
    return found.then((site) => site ?? undefined)
  }

  /**
   * What the fast lane reads, synchronously, and only what is already there: the page a host
   * shows (null: no page there), a prepared answer under its key (keys.ts), the stylesheets and
   * robots.txt. Undefined means "not known yet": the route loads it.
   */
  knownSite(host: string): Site | null | undefined {
    return this.sites?.get(host)
  }

  cachedAnswer(key: string): PreparedResponse | undefined {
    return this.deps.cache?.get(key)
  }

  readyAsset(path: string, site: Site): PreparedResponse | undefined {
    if (path === '/_lantern/page.css') return this.pageCssReady
    if (path === '/_lantern/theme.css') return this.looks?.get(lookKey(site.pageId))?.theme
    if (path === '/robots.txt') return this.robotsReady && this.robotsFor(site, this.robotsReady)
    return undefined
  }

  private cached(key: string, pageId: number, ttlMs: number, build: () => Promise<PreparedResponse>): Promise<PreparedResponse> {
    return this.cachedUntil(key, pageId, ttlMs, async () => ({ value: await build(), boundary: undefined }))
  }

  /** Like `cached`, but kept no later than `boundary`, when the answer changes by itself (a maintenance starts or ends). */
  private cachedUntil(key: string, pageId: number, ttlMs: number, build: () => Promise<Bounded>): Promise<PreparedResponse> {
    if (!this.deps.cache) return build().then((built) => built.value)
    return this.deps.cache.getOrLoad(key, async () => {
      const { value, boundary } = await build()
      // Error answers (an unknown incident id…) are not kept: made-up URLs must not crowd the cache.
      const keep = value.status < 400 ? ttlUntil(boundary, this.deps.clock.now(), ttlMs) : 0
      return { value, pageId, ttlMs: keep }
    })
  }

  async look(site: Site): Promise<Look> {
    const load = async () => {
      const branding = await this.deps.appearance.publicAppearance(site.pageId)
      const customCss = planHas(site.plan, 'custom_css') ? branding.customCss : null
      const css = themeCss(branding.palette, customCss)
      const theme = await prepareCss(css)
      const image = async (bytes: Uint8Array | null | undefined, type: ImageType | null | undefined) => {
        if (!bytes || !type) return undefined
        return prepareResponse(200, bytes, {
          contentType: IMAGE_CONTENT_TYPES[type],
          cacheControl: IMMUTABLE,
          extraHeaders: siteImageHeaders(site.visibility),
        })
      }
      const custom = planHas(site.plan, 'custom_css') ? await image(branding.favicon?.bytes, branding.favicon?.type) : undefined
      const logo = await image(branding.logo?.bytes, branding.logo?.type)
      const assets: Assets = {
        pageCss: await this.pageCssUrl,
        themeCss: `/_lantern/theme.css?v=${await shortHash(css)}`,
        favicon: custom ? `/_lantern/favicon?v=${await shortHash(custom.body)}` : await this.defaultFaviconUrl,
        logo: logo ? `/_lantern/logo?v=${await shortHash(logo.body)}` : undefined,
      }
      return { value: { assets, theme, favicon: custom ?? (await this.defaultFavicon), customFavicon: custom !== undefined, logo }, pageId: site.pageId }
    }
    if (!this.looks) return (await load()).value
    return this.looks.getOrLoad(lookKey(site.pageId), load)
  }

  /** The page's status (status-pipeline) as the page and the Statuspage-shaped JSON show it. */
  async snapshot(site: Site, withUptime: boolean) {
    const status = await this.deps.pageStatus.snapshot(site.pageId, { uptimeDays: withUptime ? UPTIME_DAYS : 0 })
    // The page and the JSON list the soonest windows only.
    const maintenances = status.maintenances.slice(0, MAINTENANCES_SHOWN)
    const api = apiSnapshot(site, status, maintenances)
    return { now: status.now, overall: status.overall, components: status.components, maintenances, activeIncidents: status.incidents, api, nextBoundary: status.nextBoundary }
  }

  /** Renders the page without any cache (what a cache miss costs). */
  async renderPage(site: Site, choice: VisitorChoice = defaultChoice(site)): Promise<string> {
    return (await this.renderPageUntil(site, choice)).html
  }

  private async renderPageUntil(site: Site, choice: VisitorChoice): Promise<{ html: string; boundary: number | undefined }> {
    const snap = await this.snapshot(site, true)
    const look = await this.look(site)
    const recentSince = snap.now - (RECENT_DAYS - 1) * 86_400_000 - (snap.now % 86_400_000)
    const [recentIncidents, budgets, feeds] = await Promise.all([
      this.deps.events.incidentHistory(site.pageId, { since: recentSince, limit: 50 }),
      this.deps.budgets(site.pageId),
      this.deps.vendorFeeds(site.pageId),
    ])
    const budgetOf = new Map(budgets.map((budget) => [budget.componentId, budget]))
    const groups = groupInPageOrder(
      snap.components.map((c): [string | null, ComponentView] => {
        const feed = feeds.get(c.id)
        const vendor = feed && { name: feed.vendorName, unknown: c.feedUnknown, incidents: feed.state === 'ok' ? feed.incidents : [] }
        return [c.group, { id: c.id, name: c.name, description: c.description, type: c.type, status: c.display, days: c.days, budget: budgetOf.get(c.id), vendor }]
      }),
    )
    // A vendor component whose feed cannot be read does not colour its group (nor the page).
    for (const g of groups) g.status = worstOf(g.components.filter((c) => !c.vendor?.unknown).map((c) => c.status))
    const html = renderStatusPage({
      name: site.name,
      description: site.description,
      canonicalUrl: site.url,
      noindex: site.visibility === 'private',
      overall: snap.overall,
      groups,
      activeIncidents: snap.activeIncidents,
      maintenances: snap.maintenances,
      recentIncidents,
      recentDays: RECENT_DAYS,
      now: snap.now,
      assets: look.assets,
      subscribe: this.offersSubscription(site),
      speech: speechOf(choice),
      zones: zonesOf(choice),
    })
    return { html, boundary: snap.nextBoundary }
  }

  async page(site: Site, choice: VisitorChoice = defaultChoice(site)): Promise<PreparedResponse> {
    const build = async () => {
      const { html, boundary } = await this.renderPageUntil(site, choice)
      return { value: await prepareResponse(200, html, { contentType: HTML, cacheControl: this.htmlCacheControl(site), extraHeaders: VISITOR_HTML_HEADERS }), boundary }
    }
    // A zone of the visitor's own (`?tz=`) is rendered for them and not kept: hundreds of zones
    // times six languages must not push the pages everyone reads out of the cache.
    if (choice.pickedZone !== undefined) return (await build()).value
    return this.cachedUntil(pageKey(site.pageId, choice), site.pageId, PAGE_TTL_MS, build)
  }

  /** The header's "Subscribe to updates" link: on every HTML page of a host that takes visitors' subscriptions. */
  offersSubscription(site: Site): boolean {
    return takesVisitorSubscriptions(site, this.deps.config.mail.enabled)
  }

  private htmlCacheControl(site: Site): string {
    return site.visibility === 'private' ? 'private, no-cache' : LIVE_CACHE_CONTROL
  }

  async historyPage(site: Site, before: number | undefined, choice: VisitorChoice = defaultChoice(site)): Promise<PreparedResponse> {
    const key = historyKey(site.pageId, before, choice)
    // Only the first archive page is cached: any `before` cursor is a valid URL, and caching each
    // one would let made-up cursors push everything else out of the cache.
    return this.cached(key, site.pageId, before === undefined && choice.pickedZone === undefined ? PAGE_TTL_MS : 0, async () => {
      const { shown, older } = await this.historySlice(site.pageId, before)
      const look = await this.look(site)
      const body = renderHistoryPage({
        name: site.name,
        canonicalUrl: site.url,
        noindex: site.visibility === 'private',
        incidents: shown,
        olderCursor: older,
        newer: before !== undefined,
        now: this.deps.clock.now(),
        assets: look.assets,
        subscribe: this.offersSubscription(site),
        speech: speechOf(choice),
        zones: zonesOf(choice),
      })
      return prepareResponse(200, body, { contentType: HTML, cacheControl: this.htmlCacheControl(site), extraHeaders: VISITOR_HTML_HEADERS })
    })
  }

  /**
   * One page of the archive and the cursor of the next. The cursor is a start time (exclusive), so
   * incidents that share the last shown start time all go on this page: the next would skip them.
   */
  private async historySlice(pageId: number, before: number | undefined): Promise<{ shown: PublicIncident[]; older: number | undefined }> {
    const incidents = await this.deps.events.incidentHistory(pageId, { before, limit: HISTORY_PAGE_SIZE + 1 })
    if (incidents.length <= HISTORY_PAGE_SIZE) return { shown: incidents, older: undefined }
    const shown = incidents.slice(0, HISTORY_PAGE_SIZE)
    const cut = shown[shown.length - 1]!.startedAt
    if (incidents[HISTORY_PAGE_SIZE]!.startedAt !== cut) return { shown, older: cut }
    const ties = await this.deps.events.incidentHistory(pageId, { since: cut, before: cut + 1, limit: MAX_SAME_START })
    const next = await this.deps.events.incidentHistory(pageId, { before: cut, limit: 1 })
    return { shown: [...shown.filter((i) => i.startedAt !== cut), ...ties], older: next.length > 0 ? cut : undefined }
  }

  async incidentPage(site: Site, id: number, choice: VisitorChoice = defaultChoice(site)): Promise<PreparedResponse> {
    return this.cached(incidentKey(site.pageId, id, choice), site.pageId, choice.pickedZone === undefined ? PAGE_TTL_MS : 0, async () => {
      const incident = await this.deps.events.incident(site.pageId, id)
      if (!incident) return this.pageNotFound(site, NO_SUCH_INCIDENT)
      const look = await this.look(site)
      const body = renderIncidentPage({
        name: site.name,
        incident,
        noindex: site.visibility === 'private',
        canonicalUrl: site.url,
        now: this.deps.clock.now(),
        assets: look.assets,
        subscribe: this.offersSubscription(site),
        speech: speechOf(choice),
        zones: zonesOf(choice),
      })
      return prepareResponse(200, body, { contentType: HTML, cacheControl: this.htmlCacheControl(site), extraHeaders: VISITOR_HTML_HEADERS })
    })
  }

  async gatePage(site: Site, options: { error?: string; next: string; status: number; passwordConfigured: boolean }): Promise<Response> {
    const look = await this.look(site)
    const body = renderGatePage({ name: site.name, error: options.error, next: options.next, assets: look.assets, passwordConfigured: options.passwordConfigured })
    return new Response(body, { status: options.status, headers: { 'content-type': HTML, 'cache-control': 'no-store', ...HTML_HEADERS } })
  }

  async blockedPage(): Promise<Response> {
    return new Response(renderBlockedPage(await this.pageCssUrl), {
      status: 503,
      headers: { 'content-type': HTML, 'cache-control': 'no-store', 'retry-after': '3600', ...HTML_HEADERS },
    })
  }

  /** The 404 of a host that is no status page. */
  async notFoundPage(): Promise<PreparedResponse> {
    const body = renderNotFoundPage(await this.pageCssUrl, { message: 'There is no status page at this address.' })
    return prepareResponse(404, body, { contentType: HTML, cacheControl: 'no-store', extraHeaders: HTML_HEADERS })
  }

  /** The 404 of an address on a page's own host: in the page's look, with a link back to it. */
  async pageNotFound(site: Site, message = 'There is no page at this address.'): Promise<PreparedResponse> {
    const page = { name: site.name, assets: (await this.look(site)).assets }
    const body = renderNotFoundPage(await this.pageCssUrl, { message, page })
    return prepareResponse(404, body, { contentType: HTML, cacheControl: 'no-store', extraHeaders: HTML_HEADERS })
  }

  async robots(site: Site): Promise<PreparedResponse> {
    return this.robotsFor(site, await this.robotsFiles)
  }

  private robotsFor(site: Site, files: { open: PreparedResponse; closed: PreparedResponse }): PreparedResponse {
    return site.visibility === 'public' && !site.blocked ? files.open : files.closed
  }

  private jsonHeaders(site: Site) {
    return {
      cacheControl: site.visibility === 'private' ? 'private, no-store' : LIVE_CACHE_CONTROL,
      extraHeaders: JSON_CORS,
    }
  }

  /** One of the Statuspage-shaped documents: summary, status, components, incidents, … */
  statusApi(site: Site, document: StatusApiDocument): Promise<PreparedResponse> {
    return this.cachedUntil(statusApiKey(site.pageId, document), site.pageId, 15_000, async () => {
      const snap = await this.snapshot(site, false)
      const body = await documentBody(document, {
        ...snap,
        incidentHistory: () => this.deps.events.incidentHistory(site.pageId, { limit: 50 }),
        recentMaintenances: () => this.deps.events.recentMaintenances(site.pageId, 50),
      })
      return { value: await prepareJson(200, body, this.jsonHeaders(site)), boundary: snap.nextBoundary }
    })
  }

  feed(site: Site, format: 'rss' | 'atom'): Promise<PreparedResponse> {
    return this.cachedUntil(feedKey(site.pageId, format), site.pageId, PAGE_TTL_MS, async () => {
      const [incidents, maintenances] = await Promise.all([
        this.deps.events.incidentHistory(site.pageId, { limit: 50 }),
        this.deps.events.recentMaintenances(site.pageId, 20),
      ])
      const input = { name: site.name, url: site.url, incidents, maintenances, now: this.deps.clock.now(), pageUpdatedAt: site.updatedAt }
      const body = format === 'rss' ? renderRss(input) : renderAtom(input)
      const value = await prepareResponse(200, body, {
        contentType: format === 'rss' ? 'application/rss+xml; charset=utf-8' : 'application/atom+xml; charset=utf-8',
        cacheControl: site.visibility === 'private' ? 'private, no-store' : 'public, max-age=60',
        extraHeaders: JSON_CORS,
      })
      return { value, boundary: nextBoundary(maintenances, input.now) }
    })
  }

  /** The maintenance calendar (iCalendar), cached like the feeds; it changes only when the owner writes. */
  calendar(site: Site): Promise<PreparedResponse> {
    return this.cached(calendarKey(site.pageId), site.pageId, PAGE_TTL_MS, async () => {
      const [series, maintenances, cancelled] = await Promise.all([
        this.deps.events.maintenanceSeries(site.pageId),
        this.deps.events.recentMaintenances(site.pageId, 200),
        this.deps.events.cancelledMaintenances(site.pageId),
      ])
      const body = renderCalendar({ name: site.name, url: site.url, pageId: site.pageId, series, maintenances, cancelled })
      return prepareResponse(200, body, {
        contentType: 'text/calendar; charset=utf-8',
        cacheControl: site.visibility === 'private' ? 'private, no-store' : 'public, max-age=60',
        extraHeaders: JSON_CORS,
      })
    })
  }
}
