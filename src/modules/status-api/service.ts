/**
 * `GET /api/embed/status` (DESIGN §5.2): the overall status, active incidents, response times from
 * the check roll-ups and daily uptime of a page, from its snapshot (page-status). Prepared once per
 * page and query and cached 15 s (less when a maintenance window starts or ends sooner).
 *
 * Public methods other features use:
 * - `statusJson(url)`: the prepared answer of the status endpoint;
 * - `buildStatusJson(page, query)`: the figures of a visible page without plan checks (private embeds).
 */
import type { Config } from '../../config.ts'
import type { Clock } from '../../lib/clock.ts'
import { etagFor, prepareJsonError, prepareWithoutEtag, type PreparedResponse, type PublicCache } from '../../lib/http-cache.ts'
import type { CacheFill } from '../../lib/ttl-cache.ts'
import { toIso } from '../../lib/time.ts'
import type { OverallStatus } from '../page-status/overall.ts'
import { snapshotUptime, type PageSnapshot, type PageStatusService, type PublicPage } from '../page-status/service.ts'
import { ttlUntil } from '../page-status/windows.ts'
import { lowestPlanWith, planHas, planLabel, type Plan } from '../plans/matrix.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import { statusPageUrl } from '../status-pages/urls.ts'
import { parseStatusQuery, type StatusQuery } from './query.ts'

export const STATUS_TTL_MS = 15_000
export const STATUS_CACHE_CONTROL = 'public, max-age=15'
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
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
    private readonly pageStatus: PageStatusService,
    private readonly cache: PublicCache | undefined,
    private readonly config: Pick<Config, 'scheme' | 'statusDomain'>,
    private readonly clock: Clock,
  ) {}

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
    snapshot ??= await this.pageStatus.snapshot(page.id, { now, uptimeDays: query.upd, rtmMinutes: query.rtm })
    const rtm = snapshot.responseTimes
    const upd = query.upd > 0 ? snapshotUptime(snapshot).daily : []
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
    const now = this.clock.now()
    // The page and its snapshot in one read: the plan is checked on what it returns.
    const found = await this.pageStatus.publicSnapshot(slug, { now, uptimeDays: query.upd, rtmMinutes: query.rtm })
    // Kept briefly, so an unknown slug costs no query on every request; a new page drops it.
    if (!found) return { value: this.notFound, negative: true }
    const { page, snapshot } = found
    const refusal = statusPlanRefusal(page.plan, query)
    if (refusal !== undefined) return { value: refusal === NO_PLAN ? this.noPlan : this.noDetails, pageId: page.id, ttlMs: STATUS_TTL_MS }
    const body = await this.buildStatusJson(page, query, now, snapshot)
    const value = await prepareStatusJson(body)
    const ttlMs = ttlUntil(snapshot.nextBoundary, now, STATUS_TTL_MS)
    return { value, pageId: page.id, ttlMs }
  }
}
