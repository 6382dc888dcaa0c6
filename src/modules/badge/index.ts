import { Elysia, t } from 'elysia'
import { ErrorBody, textAnswer } from '../../http/schemas.ts'
import { errorResponse } from '../../lib/errors.ts'
import type { FastLane } from '../../http/fast-lane.ts'
import { serveMaybePending, servePrepared } from '../../lib/http-cache.ts'
import { BADGE_STYLES } from './render.ts'
import { BADGE_PREFIX, badgeRequest, MAX_UPTIME_DAYS, type BadgeReads } from './cached-reads.ts'
import type { BadgeKind } from './service.ts'

const BadgeQuery = t.Object({
  style: t.Optional(t.String({ description: `One of ${BADGE_STYLES.join(', ')} (default flat; anything else draws flat)` })),
  label: t.Optional(t.String({ description: 'Left-hand text (default: the page name), at most 32 characters' })),
})
const svgResponse = textAnswer('image/svg+xml', 'An SVG image')

/** The routes and their fast-lane reader: all answer through `reads` (cached-reads.ts), keyed by one `badgeRequest`. */
export function badgeRoutes(reads: BadgeReads, fastLane?: FastLane) {
  // Cache hits skip the router: /badge/<slug>.svg and /badge/<slug>/uptime.svg.
  fastLane?.registerPrefix(BADGE_PREFIX, (_request, _path, url) => reads.cached(url))
  const answer = (request: Request, kind: BadgeKind) => {
    const read = badgeRequest(request.url)
    if (read === undefined || ('kind' in read && read.kind !== kind)) return errorResponse(404, 'not found')
    if ('refused' in read) return servePrepared(read.refused, null)
    return serveMaybePending(reads.prepared(read), request.headers.get('if-none-match'))
  }
  return new Elysia()
    .get('/badge/:slug', ({ request }) => answer(request, 'status'), {
      params: t.Object({ slug: t.String({ description: '`<slug>.svg`' }) }),
      query: BadgeQuery,
      response: { 200: svgResponse, 304: t.Void(), 404: ErrorBody },
      detail: {
        tags: ['Embeds'],
        summary: 'Status badge (SVG)',
        description:
          'A shields-style badge: label = the page name (or `label`), value and colour from the overall status: Operational (green), Degraded (yellow), Partial Outage (orange), Down (red), Maintenance (blue), the colours of the status page and the widget. An unknown, blocked or private page, or a plan without badges, shows a gray `Unknown` (sent with `max-age=10`, so a page created later shows soon even behind image proxies). ETag and `Cache-Control: public, no-cache`: browsers and image proxies keep the badge but ask again (304 when unchanged) before each use, so a status change shows on the next view.',
      },
    })
    .get('/badge/:slug/uptime.svg', ({ request }) => answer(request, 'uptime'), {
      params: t.Object({ slug: t.String() }),
      query: t.Object({
        ...BadgeQuery.properties,
        days: t.Optional(t.String({ description: `Days of history, 1–${MAX_UPTIME_DAYS} (default 30)` })),
      }),
      response: { 200: svgResponse, 304: t.Void(), 400: ErrorBody },
      detail: {
        tags: ['Embeds'],
        summary: 'Uptime badge (SVG)',
        description: `Uptime over the last \`days\` days (1–${MAX_UPTIME_DAYS}, default 30) from the status history; a component counts as unavailable only while down. Same caching and Unknown rules as the status badge.`,
      },
    })
}
