/**
 * The HTTP shape of the badges, shared by their routes and the fast lane: one `badgeRequest` reads
 * the URL once (path and query), and the prepared SVG (bytes, ETag, `Cache-Control`, CSP, CORS) and
 * its cache fill are built here. Answers are kept 5 minutes in the server (less when a maintenance
 * window starts or ends sooner), tagged with the page so any change drops them at once; clients
 * and image proxies revalidate every use (LIVE_CACHE_CONTROL), so a badge in a README shows a
 * status change as soon as the page does. The gray "Unknown" badge
 * (unknown, blocked or private page, plan without badges) is a negative answer: kept briefly
 * (NEGATIVE_TTL_MS, dropped when a page appears) and sent with a short max-age, since image
 * proxies keep what they get.
 */
import type { Clock } from '../../lib/clock.ts'
import { HttpError } from '../../lib/errors.ts'
import { LIVE_CACHE_CONTROL, NEGATIVE_CACHE_CONTROL, type PreparedResponse, prepareJsonError, prepareResponse, type PublicCache, readThrough } from '../../lib/http-cache.ts'
import { queryParams } from '../../lib/query.ts'
import { carriesToken, memoizeByText } from '../../lib/memo.ts'
import type { CacheFill } from '../../lib/ttl-cache.ts'
import { requestPath } from '../../http/fast-lane.ts'
import { ttlUntil } from '../status-pipeline/windows.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import { clampLabel, parseStyle, renderBadge, type BadgeStyle } from './render.ts'
import { unknownBadge, type BadgeKind, type BadgeModel, type BadgeService } from './service.ts'

export const BADGE_TTL_MS = 5 * 60_000
export const BADGE_CACHE_CONTROL = LIVE_CACHE_CONTROL
export const MAX_UPTIME_DAYS = 90
export const BADGE_PREFIX = '/badge/'
const UPTIME_SUFFIX = '/uptime.svg'
const HEADERS = {
  'access-control-allow-origin': '*',
  // Opened directly, an SVG is a document: allow nothing but its own styles.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
}

/** Reads `days` for the uptime badge: absent → 30; else an integer 1–90, or an error text. */
export function parseDays(values: readonly string[]): number | { error: string } {
  if (values.length === 0) return 30
  if (values.length > 1) return { error: 'days must be given only once' }
  const raw = values[0]!
  const value = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN
  return value >= 1 && value <= MAX_UPTIME_DAYS ? value : { error: `days must be an integer from 1 to ${MAX_UPTIME_DAYS}` }
}

/** A badge request read from its URL. `slug` is undefined when it cannot name a page (the Unknown badge). */
export interface BadgeRead {
  kind: BadgeKind
  key: string
  slug: string | undefined
  days: number
  style: BadgeStyle
  label: string | undefined
}

function pathSlug(segment: string): string | undefined {
  if (!segment.includes('%')) return slugForLookup(segment)
  try {
    return slugForLookup(decodeURIComponent(segment))
  } catch {
    return undefined
  }
}

/**
 * Reads a badge request's path and query once: undefined when the path is no badge (404), a 400
 * answer for a malformed `days`, else the read with its cache key. Keys hold the label as drawn
 * (at most 32 characters), so huge labels cannot bloat the cache; a slug no page can have is keyed
 * as '', which no page has. Of repeated `style` or `label`, the last counts.
 */
export const badgeRequest: (url: string) => BadgeRead | { refused: PreparedResponse } | undefined = memoizeByText((url) => readBadgeUrl(url), { keepOut: carriesToken })

/** The same without remembering the URL: for requests that carry a secret (`auth_token`). */
export const readBadgeUrl = (url: string) => readBadgeRequest(requestPath(url), url)

function readBadgeRequest(path: string, url: string): BadgeRead | { refused: PreparedResponse } | undefined {
  if (!path.startsWith(BADGE_PREFIX)) return undefined
  const rest = path.slice(BADGE_PREFIX.length)
  let kind: BadgeKind
  let segment: string
  if (rest.endsWith(UPTIME_SUFFIX)) [kind, segment] = ['uptime', rest.slice(0, -UPTIME_SUFFIX.length)]
  else if (rest.endsWith('.svg')) [kind, segment] = ['status', rest.slice(0, -'.svg'.length)]
  else return undefined
  if (segment.includes('/') || (segment === '' && kind === 'uptime')) return undefined
  const params = queryParams(url)
  let days = 0
  if (kind === 'uptime') {
    const parsed = parseDays(params.get('days') ?? [])
    if (typeof parsed !== 'number') return { refused: prepareJsonError(400, parsed.error) }
    days = parsed
  }
  const slug = pathSlug(segment)
  const style = parseStyle(params.get('style')?.at(-1))
  const label = params.get('label')?.at(-1)
  const labelKey = label === undefined ? '' : clampLabel(label, '')
  const key = kind === 'status' ? `badge:${slug ?? ''}:${style}:${labelKey}` : `badge-uptime:${slug ?? ''}:${days}:${style}:${labelKey}`
  return { kind, key, slug, days, style, label }
}

/** The cache key of a badge request URL, or undefined when it is not a badge or is refused. */
export function badgeKey(url: string): string | undefined {
  const read = badgeRequest(url)
  return read && 'key' in read ? read.key : undefined
}

type Fill = CacheFill<PreparedResponse>

const svg = (body: string, cacheControl = BADGE_CACHE_CONTROL) =>
  prepareResponse(200, body, { contentType: 'image/svg+xml; charset=utf-8', cacheControl, extraHeaders: HEADERS })

export class BadgeReads {
  constructor(
    private readonly badges: BadgeService,
    private readonly cache: PublicCache | undefined,
    private readonly clock: Clock,
  ) {}

  /** The fast lane: the prepared badge when it is cached; never touches the database. */
  cached(url: string): PreparedResponse | undefined {
    if (this.cache === undefined) return undefined
    const key = badgeKey(url)
    return key === undefined ? undefined : this.cache.get(key)
  }

  /** The prepared badge for a read: cached, or loaded and cached. */
  prepared(read: BadgeRead): PreparedResponse | Promise<PreparedResponse> {
    return readThrough(this.cache, read.key, () => this.load(read))
  }

  private async load(read: BadgeRead): Promise<Fill> {
    let model: BadgeModel
    try {
      if (read.slug === undefined) return await this.unknown(read)
      model = read.kind === 'status' ? await this.badges.statusBadge(read.slug, read.label) : await this.badges.uptimeBadge(read.slug, read.days, read.label)
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return await this.unknown(read)
      throw error
    }
    const value = await svg(await renderBadge(model.label, model.look, read.style))
    return { value, pageId: model.pageId, ttlMs: ttlUntil(model.nextBoundary, this.clock.now(), BADGE_TTL_MS) }
  }

  /** The gray badge does not depend on the slug: random slugs share its rendering. */
  private async unknown(read: BadgeRead): Promise<Fill> {
    const labelKey = read.label === undefined ? '' : clampLabel(read.label, '')
    const value = await readThrough(this.cache, `badge-unknown:${read.kind}:${read.style}:${labelKey}`, async () => {
      const { label, look } = unknownBadge(read.kind, read.label)
      return { value: await svg(await renderBadge(label, look, read.style), NEGATIVE_CACHE_CONTROL), negative: true }
    })
    return { value, negative: true }
  }
}
