/**
 * Live status of a page: the overall status (overall.ts), daily uptime from the status history
 * (components/uptime.ts), response times from the check roll-ups, and `GET /api/embed/status` (DESIGN §5.2).
 *
 * Public methods other features use:
 * - `findPublicPage(slug)`: the page if visitors may see it (exists, public, not blocked);
 * - `snapshot(pageId)`: components, active incidents and maintenances, the overall status, and
 *   when it changes by itself (the next maintenance boundary);
 * - `uptime(pageId, componentIds, days, now)`: daily uptime % (today last) and the total;
 * - `statusJson(url)`: the prepared answer of the status endpoint (cached 15 s per page and query).
 */
import type { Config } from '../../config.ts'
import type { Clock } from '../../lib/clock.ts'
import { etagFor, prepareJsonError, prepareWithoutEtag, type PreparedResponse, type PublicCache } from '../../lib/http-cache.ts'
import type { CacheFill } from '../../lib/ttl-cache.ts'
import { toIso } from '../../lib/time.ts'
import type { ChecksService } from '../checks/service.ts'
import type { Incident, IncidentsService } from '../incidents/service.ts'
import { isMaintenanceActive, type Maintenance, type MaintenancesService } from '../maintenances/service.ts'
import { lowestPlanWith, planHas, planLabel, type Plan } from '../plans/matrix.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import { statusPageUrl } from '../status-pages/urls.ts'
import { overallStatus, type OverallStatus } from './overall.ts'
import { parseStatusQuery, type StatusQuery } from './query.ts'
import type { StatusRepo } from './repo.ts'
import { combinedUptime, dailyUptime, windowStart } from '../components/uptime.ts'

export interface UptimeResult {
  /** Per UTC day, oldest first (today last): % available, null without data. */
  daily: Array<number | null>
  /** Over the whole window. */
  total: number | null
}

export const STATUS_TTL_MS = 15_000
export const STATUS_CACHE_CONTROL = 'public, max-age=15'
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
}

export interface PublicPage {
  id: number
  slug: string
  name: string
  customDomain: string | null
  plan: Plan
}

export interface PageSnapshot {
  overall: OverallStatus
  components: Array<{ id: number; name: string; type: 'site' | 'api' | 'dns'; status: 'up' | 'degraded' | 'down' }>
  incidents: Incident[]
  /** Maintenance windows in progress now. */
  maintenances: Maintenance[]
  /** When this snapshot may change without any write: the next maintenance start or end. */
  nextBoundary: number | undefined
}

export interface StatusJson {
  page: string
  page_url: string
  overall: OverallStatus
  updated: string
  incidents: Array<{ id: string; title: string; state: string; started: string; component: string | null }>
  rtm: Array<number | null>
  upd: Array<number | null>
  dns_only: boolean
}

/** A cache lifetime that ends no later than `boundary` (when the answer changes by itself). */
export const ttlUntil = (boundary: number | undefined, now: number, ttlMs: number): number =>
  boundary === undefined ? ttlMs : Math.max(1, Math.min(ttlMs, boundary - now))

type Window = { startAt: number; endAt: number }

/** When an answer built at `now` from these maintenance windows changes by itself: the next start or end. */
export function nextBoundary(maintenances: readonly Window[], now: number): number | undefined {
  const times = maintenances.flatMap((m) => [m.startAt, m.endAt]).filter((t) => t > now)
  return times.length > 0 ? Math.min(...times) : undefined
}

/** The windows that cover component `id` (a window without components covers the whole page), as uptime wants them. */
export const maintenanceWindowsOf = (maintenances: ReadonlyArray<Window & { components: ReadonlyArray<{ id: number }> }>, id: number) =>
  maintenances.filter((m) => m.components.length === 0 || m.components.some((c) => c.id === id)).map((m) => ({ start: m.startAt, end: m.endAt }))

const statusKey = (slug: string, query: StatusQuery) => `status:${slug}:${query.inc ? 1 : 0}:${query.rtm}:${query.upd}`

const errorBody = (status: number, error: string) => prepareJsonError(status, error, CORS_HEADERS)

const NO_PLAN = `Status API requires ${planLabel(lowestPlanWith('badge_widget'))} plan or higher`
const NO_DETAILS = `Incidents and sparklines (inc, rtm, upd) require ${planLabel(lowestPlanWith('status_json_details'))} plan or higher`

/** Why the plan of a page refuses this status query (the 403 text), or undefined when it allows it. */
export function statusPlanRefusal(plan: Plan, query: Pick<StatusQuery, 'inc' | 'rtm' | 'upd'>): string | undefined {
  if (!planHas(plan, 'badge_widget')) return NO_PLAN
  const wantsDetails = query.inc || query.rtm > 0 || query.upd > 0
  return wantsDetails && !planHas(plan, 'status_json_details') ? NO_DETAILS : undefined
}

const encoder = new TextEncoder()

/**
 * The encoded status JSON with an ETag of everything but `updated`: the body is rebuilt (with a new
 * `updated`) whenever the 15 s cache entry expires, yet an unchanged status must keep its ETag so
 * that clients revalidate with a 304. Bytes differ while the meaning is the same, hence a weak ETag.
 */
export async function prepareStatusJson(body: StatusJson): Promise<PreparedResponse> {
  const prepared = prepareWithoutEtag(200, JSON.stringify(body), {
    contentType: 'application/json; charset=utf-8',
    cacheControl: STATUS_CACHE_CONTROL,
    extraHeaders: CORS_HEADERS,
  })
  const { updated: _computedAt, ...figures } = body
  const etag = `W/${await etagFor(encoder.encode(JSON.stringify(figures)))}`
  return { ...prepared, etag, headers: { ...prepared.headers, etag } }
}

export class StatusService {
  private readonly notFound = errorBody(404, 'not found')
  private readonly noPlan = errorBody(403, NO_PLAN)
  private readonly noDetails = errorBody(403, NO_DETAILS)

  constructor(
    private readonly repo: StatusRepo,
    private readonly incidents: IncidentsService,
    private readonly maintenances: MaintenancesService,
    private readonly checks: ChecksService,
    private readonly cache: PublicCache | undefined,
    private readonly config: Pick<Config, 'scheme' | 'statusDomain'>,
    private readonly clock: Clock,
  ) {}

  /** The page for a slug from a URL when visitors may see it; private and blocked pages are unknown. */
  async findPublicPage(rawSlug: string): Promise<PublicPage | undefined> {
    const slug = slugForLookup(rawSlug)
    if (slug === undefined) return undefined
    const row = await this.repo.findPageBySlug(slug)
    if (!row || row.blocked === 1 || row.visibility !== 'public') return undefined
    return { id: row.id, slug: row.slug, name: row.name, customDomain: row.custom_domain, plan: row.plan }
  }

  /** Components, active incidents and maintenances of a page at `now`, and its overall status. */
  async snapshot(pageId: number, now = this.clock.now()): Promise<PageSnapshot> {
    const [components, incidents, upcoming] = await Promise.all([
      this.repo.components(pageId),
      this.incidents.activeForPage(pageId),
      this.maintenances.upcomingForPage(pageId, now),
    ])
    const maintenances = upcoming.filter((m) => isMaintenanceActive(m, now))
    return {
      overall: overallStatus({ components, activeIncidents: incidents.length, activeMaintenances: maintenances.length }),
      components: components.map((c) => ({ id: c.id, name: c.name, type: c.type, status: c.status })),
      incidents,
      maintenances,
      nextBoundary: nextBoundary(upcoming, now),
    }
  }

  /**
   * Daily uptime of the page's components over the `days` UTC days ending today (today last) and
   * the total, by the same rules as the status page (components/uptime.ts): maintenance left out.
   */
  async uptime(pageId: number, componentIds: readonly number[], days: number, now = this.clock.now()): Promise<UptimeResult> {
    const from = windowStart(now, days)
    const [histories, maintenances] = await Promise.all([
      this.repo.histories(componentIds, from, now + 1),
      this.maintenances.betweenForPage(pageId, from, now),
    ])
    const perComponent = componentIds.map((id) => {
      const history = histories.get(id) ?? []
      const startsBefore = history[0] !== undefined && history[0].at < from
      return dailyUptime({
        changes: startsBefore ? history.slice(1) : history,
        statusAtStart: startsBefore ? history[0]!.status : undefined,
        maintenance: maintenanceWindowsOf(maintenances, id),
        days,
        now,
      })
    })
    return combinedUptime(perComponent, days)
  }

  /** The prepared answer of `GET /api/embed/status` for a request URL. */
  statusJson(url: string): PreparedResponse | Promise<PreparedResponse> {
    const parsed = parseStatusQuery(url)
    if ('error' in parsed) return errorBody(400, parsed.error)
    const query = parsed
    const slug = slugForLookup(query.slug)
    if (slug === undefined) return this.notFound
    const key = statusKey(slug, query)
    const hit = this.cache?.get(key)
    if (hit) return hit
    const load = () => this.loadStatus(slug, query)
    return this.cache ? this.cache.getOrLoad(key, load) : load().then((fill) => fill.value)
  }

  /** The cached answer for a request URL if there is one; never touches the database. */
  cachedStatus(url: string): PreparedResponse | undefined {
    if (!this.cache) return undefined
    const parsed = parseStatusQuery(url)
    if ('error' in parsed) return undefined
    const slug = slugForLookup(parsed.slug)
    return slug === undefined ? undefined : this.cache.get(statusKey(slug, parsed))
  }

  /** The status JSON of a visible page (no plan checks): for the preview page and tests. */
  async buildStatusJson(
    page: PublicPage,
    query: Omit<StatusQuery, 'slug'>,
    now = this.clock.now(),
    snapshot?: PageSnapshot,
  ): Promise<StatusJson> {
    snapshot ??= await this.snapshot(page.id, now)
    const ids = snapshot.components.map((c) => c.id)
    const [rtm, upd] = await Promise.all([
      query.rtm > 0 ? this.checks.minuteSeries(ids, now, query.rtm) : [],
      query.upd > 0 ? this.uptime(page.id, ids, query.upd, now).then((u) => u.daily) : [],
    ])
    return {
      page: page.slug,
      page_url: statusPageUrl(page, this.config),
      overall: snapshot.overall,
      updated: toIso(now),
      incidents: query.inc
        ? snapshot.incidents.map((i) => ({
            id: String(i.id),
            title: i.title,
            state: i.state,
            started: toIso(i.startedAt),
            component: i.components.length > 0 ? i.components.map((c) => c.name).join(', ') : null,
          }))
        : [],
      rtm,
      upd,
      dns_only: snapshot.components.length > 0 && snapshot.components.every((c) => c.type === 'dns'),
    }
  }

  private async loadStatus(slug: string, query: StatusQuery): Promise<CacheFill<PreparedResponse>> {
    const page = await this.findPublicPage(slug)
    // Kept briefly, so an unknown slug costs no query on every request; a new page drops it.
    if (!page) return { value: this.notFound, negative: true }
    const refusal = statusPlanRefusal(page.plan, query)
    if (refusal !== undefined) return { value: refusal === NO_PLAN ? this.noPlan : this.noDetails, pageId: page.id, ttlMs: STATUS_TTL_MS }
    const now = this.clock.now()
    const snapshot = await this.snapshot(page.id, now)
    const body = await this.buildStatusJson(page, query, now, snapshot)
    const value = await prepareStatusJson(body)
    const ttlMs = ttlUntil(snapshot.nextBoundary, now, STATUS_TTL_MS)
    return { value, pageId: page.id, ttlMs }
  }
}
