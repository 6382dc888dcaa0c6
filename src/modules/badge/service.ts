/**
 * `GET /badge/<slug>.svg` and `GET /badge/<slug>/uptime.svg?days=N`. Answers are prepared once
 * (bytes, ETag, headers) and kept in the public cache for 5 minutes (less when a maintenance window
 * starts or ends sooner), tagged with the page so any change drops them at once. An unknown,
 * blocked or private page, or a plan without badges, gets a gray "Unknown" badge: an image that
 * renders, never a broken one, and never a hint that a private page exists. That answer is a
 * negative one: kept briefly (NEGATIVE_TTL_MS, dropped when a page appears) and sent with a short
 * max-age, since image proxies keep what they get.
 */
import { NEGATIVE_CACHE_CONTROL, prepareResponse, type PreparedResponse, type PublicCache } from '../../lib/http-cache.ts'
import type { Clock } from '../../lib/clock.ts'
import type { CacheFill } from '../../lib/ttl-cache.ts'
import { planHas } from '../plans/matrix.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import { snapshotUptime, type PageStatusService, type SnapshotOptions } from '../page-status/service.ts'
import { ttlUntil } from '../page-status/windows.ts'
import { clampLabel, parseStyle, renderBadge, STATUS_LOOK, uptimeLook, type BadgeStyle } from './render.ts'

export const BADGE_TTL_MS = 5 * 60_000
export const BADGE_CACHE_CONTROL = 'public, max-age=300'
export const MAX_UPTIME_DAYS = 90
const HEADERS = {
  'access-control-allow-origin': '*',
  // Opened directly, an SVG is a document: allow nothing but its own styles.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
}

export interface BadgeOptions {
  style?: string
  label?: string
}

// Keys hold the label as drawn (at most 32 characters), so huge labels cannot bloat the cache.
// A malformed slug (undefined) is keyed as '', which no page has: all of them share one answer.
const labelKey = (label: string | undefined) => (label === undefined ? '' : clampLabel(label, ''))
const statusKey = (slug: string | undefined, style: BadgeStyle, label: string | undefined) => `badge:${slug ?? ''}:${style}:${labelKey(label)}`
const uptimeKey = (slug: string | undefined, days: number, style: BadgeStyle, label: string | undefined) =>
  `badge-uptime:${slug ?? ''}:${days}:${style}:${labelKey(label)}`
/** The gray badge does not depend on the slug: random slugs share its rendering. */
const unknownKey = (kind: string, style: BadgeStyle, label: string | undefined) => `badge-unknown:${kind}:${style}:${labelKey(label)}`

type Fill = CacheFill<PreparedResponse>

const svg = (body: string, cacheControl = BADGE_CACHE_CONTROL) =>
  prepareResponse(200, body, { contentType: 'image/svg+xml; charset=utf-8', cacheControl, extraHeaders: HEADERS })

/** Reads `days` for the uptime badge: absent → 30; else an integer 1–90, or an error text. */
export function parseDays(values: readonly string[]): number | { error: string } {
  if (values.length === 0) return 30
  if (values.length > 1) return { error: 'days must be given only once' }
  const raw = values[0]!
  const value = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN
  return value >= 1 && value <= MAX_UPTIME_DAYS ? value : { error: `days must be an integer from 1 to ${MAX_UPTIME_DAYS}` }
}

export class BadgeService {
  constructor(
    private readonly pageStatus: PageStatusService,
    private readonly cache: PublicCache | undefined,
    private readonly clock: Clock,
  ) {}

  /** The cached status badge if there is one; never touches the database (the fast lane). */
  cachedStatusBadge(rawSlug: string, options: BadgeOptions): PreparedResponse | undefined {
    return this.cache?.get(statusKey(slugForLookup(rawSlug), parseStyle(options.style), options.label))
  }

  /** The cached uptime badge if there is one; never touches the database (the fast lane). */
  cachedUptimeBadge(rawSlug: string, days: number, options: BadgeOptions): PreparedResponse | undefined {
    return this.cache?.get(uptimeKey(slugForLookup(rawSlug), days, parseStyle(options.style), options.label))
  }

  /** The status badge for a slug (as written in the URL, without `.svg`). */
  statusBadge(rawSlug: string, options: BadgeOptions): Promise<PreparedResponse> {
    const style = parseStyle(options.style)
    const slug = slugForLookup(rawSlug)
    const key = statusKey(slug, style, options.label)
    return this.cached(key, async () => {
      const found = slug === undefined ? undefined : await this.visible(slug, {})
      if (!found) return { value: await this.unknown('status', style, options.label, 'Status', STATUS_LOOK.unknown), negative: true }
      const { page, snapshot } = found
      const label = clampLabel(options.label, page.name || 'Status')
      return this.fill(page.id, snapshot.nextBoundary, await svg(renderBadge(label, STATUS_LOOK[snapshot.overall], style)))
    })
  }

  /** The uptime badge: % of time available over the last `days` days (from the status history). */
  uptimeBadge(rawSlug: string, days: number, options: BadgeOptions): Promise<PreparedResponse> {
    const style = parseStyle(options.style)
    const slug = slugForLookup(rawSlug)
    const key = uptimeKey(slug, days, style, options.label)
    return this.cached(key, async () => {
      const found = slug === undefined ? undefined : await this.visible(slug, { uptimeDays: days })
      if (!found) return { value: await this.unknown('uptime', style, options.label, 'uptime', { text: 'Unknown', color: 'lightgrey' }), negative: true }
      const { page, snapshot } = found
      const { total } = snapshotUptime(snapshot)
      const label = clampLabel(options.label, 'uptime')
      return this.fill(page.id, snapshot.nextBoundary, await svg(renderBadge(label, uptimeLook(total), style)))
    })
  }

  /** A visible page whose plan has badges, and its snapshot (one read). */
  private async visible(slug: string, options: SnapshotOptions) {
    const found = await this.pageStatus.publicSnapshot(slug, options)
    return found && planHas(found.page.plan, 'badge_widget') ? found : undefined
  }

  private fill(pageId: number, boundary: number | undefined, value: PreparedResponse): Fill {
    return { value, pageId, ttlMs: ttlUntil(boundary, this.clock.now(), BADGE_TTL_MS) }
  }

  private unknown(kind: string, style: BadgeStyle, label: string | undefined, fallback: string, look: { text: string; color: string }) {
    return this.cached(unknownKey(kind, style, label), async () => ({
      value: await svg(renderBadge(clampLabel(label, fallback), look, style), NEGATIVE_CACHE_CONTROL),
      negative: true,
    }))
  }

  private cached(key: string, load: () => Promise<Fill>): Promise<PreparedResponse> {
    if (!this.cache) return load().then((f) => f.value)
    return this.cache.getOrLoad(key, load)
  }
}
