import { Elysia, t } from 'elysia'
import { ErrorBody } from '../../http/schemas.ts'
import { errorResponse } from '../../lib/errors.ts'
import type { FastLane } from '../../http/fast-lane.ts'
import { servePrepared } from '../../lib/http-cache.ts'
import { queryValues } from '../../lib/query.ts'
import { BADGE_STYLES } from './render.ts'
import { MAX_UPTIME_DAYS, parseDays, type BadgeService } from './service.ts'

const BadgeQuery = t.Object({
  style: t.Optional(t.String({ description: `One of ${BADGE_STYLES.join(', ')} (default flat; anything else draws flat)` })),
  label: t.Optional(t.String({ description: 'Left-hand text (default: the page name), at most 32 characters' })),
})
const svgResponse = t.String({ description: 'An SVG image (image/svg+xml)' })

const last = (values: readonly string[]): string | undefined => values.at(-1)

export function badgeRoutes(badges: BadgeService, fastLane?: FastLane) {
  // Cache hits skip the router: /badge/<slug>.svg and /badge/<slug>/uptime.svg.
  fastLane?.registerPrefix('/badge/', (request, path) => {
    const url = request.url
    const options = { style: last(queryValues(url, 'style')), label: last(queryValues(url, 'label')) }
    const rest = path.slice('/badge/'.length)
    let cached
    if (rest.endsWith('/uptime.svg')) {
      const days = parseDays(queryValues(url, 'days'))
      if (typeof days === 'number') cached = badges.cachedUptimeBadge(rest.slice(0, -'/uptime.svg'.length), days, options)
    } else if (rest.endsWith('.svg') && !rest.includes('/')) {
      cached = badges.cachedStatusBadge(rest.slice(0, -4), options)
    }
    return cached && servePrepared(cached, request.headers.get('if-none-match'))
  })
  return new Elysia()
    .get(
      '/badge/:slug',
      async ({ params, query, request }) => {
        if (!params.slug.endsWith('.svg')) return errorResponse(404, 'not found')
        const prepared = await badges.statusBadge(params.slug.slice(0, -4), query)
        return servePrepared(prepared, request.headers.get('if-none-match'))
      },
      {
        params: t.Object({ slug: t.String({ description: '`<slug>.svg`' }) }),
        query: BadgeQuery,
        response: { 200: svgResponse, 304: t.Void(), 404: ErrorBody },
        detail: {
          tags: ['Embeds'],
          summary: 'Status badge (SVG)',
          description:
            'A shields-style badge: label = the page name (or `label`), value and colour from the overall status: Operational (green), Degraded (yellow), Partial Outage (orange), Down (red), Maintenance (blue). An unknown, blocked or private page, or a plan without badges, shows a gray `Unknown` (sent with `max-age=10`, so a page created later shows soon even behind image proxies). `Cache-Control: public, max-age=300`, ETag.',
        },
      },
    )
    .get(
      '/badge/:slug/uptime.svg',
      async ({ params, query, request }) => {
        const days = parseDays(queryValues(request.url, 'days'))
        if (typeof days !== 'number') return errorResponse(400, days.error)
        return servePrepared(await badges.uptimeBadge(params.slug, days, query), request.headers.get('if-none-match'))
      },
      {
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
      },
    )
}
