/**
 * Embeds of a private page. The public badge, status JSON and widget treat a private page as
 * unknown (gray `Unknown`, 404): nothing leaks. An owner who wants to embed the status of a private
 * page creates a read-only embed token (`POST /user/api/v1/status-pages/:id/access/token`) and adds
 * `auth_token=lpt_…` to the URL:
 *
 *   /api/embed/status?slug=S&auth_token=T       (the widget: data-auth-token="T")
 *   /badge/S.svg?auth_token=T, /badge/S/uptime.svg?auth_token=T
 *   https://S.<STATUS_DOMAIN>/api/v2/summary.json?auth_token=T (and the other v2 documents, feeds)
 *
 * Requests that carry `auth_token` are answered here, before the public routes and their shared
 * cache: the token is checked on every request, and answers are `private, no-store`, never
 * stored in a shared cache. A wrong or revoked token gets exactly what an anonymous visitor gets.
 */
import type { Clock } from '../../lib/clock.ts'
import { errorResponse } from '../../lib/errors.ts'
import { requestPath } from '../../http/fast-lane.ts'
import { queryValues } from '../../lib/query.ts'
import { clampLabel, parseStyle, renderBadge, STATUS_LOOK, uptimeLook } from '../badge/render.ts'
import { parseDays } from '../badge/service.ts'
import { snapshotUptime, type PageStatusService } from '../page-status/service.ts'
import { planHas } from '../plans/matrix.ts'
import { parseStatusQuery } from '../status-api/query.ts'
import { statusPlanRefusal, type StatusService } from '../status-api/service.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import type { PageAccessService } from './access.ts'
import type { PublicPagesRepo } from './repo.ts'

const PRIVATE_HEADERS = {
  'cache-control': 'private, no-store',
  'access-control-allow-origin': '*',
  'x-robots-tag': 'noindex',
}
const SVG_HEADERS = {
  ...PRIVATE_HEADERS,
  'content-type': 'image/svg+xml; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
}

export class PrivateEmbeds {
  constructor(
    private readonly repo: PublicPagesRepo,
    private readonly access: PageAccessService,
    private readonly status: StatusService,
    private readonly pageStatus: PageStatusService,
    private readonly clock: Clock,
  ) {}

  /**
   * A response for a GET that carries `auth_token` on a private page's embed, or undefined (at
   * once, without a promise) when the request is not one: the public route answers it then.
   */
  answer(request: Request): Promise<Response | undefined> | undefined {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
    const url = request.url
    if (!url.includes('auth_token=')) return undefined
    const path = requestPath(url)
    if (path === '/api/embed/status') return this.statusJson(url)
    const badge = /^\/badge\/([^/]+?)(\.svg|\/uptime\.svg)$/.exec(path)
    if (badge) return this.badge(url, decodeURIComponent(badge[1]!), badge[2] === '.svg' ? 'status' : 'uptime')
    return undefined
  }

  /** The private page a slug and token open, or undefined (then the public answer applies). */
  private async grantedPage(rawSlug: string, tokens: readonly string[]) {
    const slug = slugForLookup(rawSlug)
    if (slug === undefined || tokens.length !== 1) return undefined
    const row = await this.repo.findSiteBySlug(slug)
    if (!row || row.blocked === 1 || row.visibility !== 'private') return undefined
    if (!(await this.access.embedTokenGrants(row.id, tokens[0]))) return undefined
    return { id: row.id, slug: row.slug, name: row.name, customDomain: row.custom_domain, plan: row.plan }
  }

  private async statusJson(url: string): Promise<Response | undefined> {
    const query = parseStatusQuery(url)
    if ('error' in query) return undefined
    const page = await this.grantedPage(query.slug, queryValues(url, 'auth_token'))
    if (!page) return undefined
    const refusal = statusPlanRefusal(page.plan, query)
    if (refusal !== undefined) return errorResponse(403, refusal, PRIVATE_HEADERS)
    const body = await this.status.buildStatusJson(page, query, this.clock.now())
    return new Response(JSON.stringify(body), { headers: { ...PRIVATE_HEADERS, 'content-type': 'application/json; charset=utf-8' } })
  }

  private async badge(url: string, slug: string, kind: 'status' | 'uptime'): Promise<Response | undefined> {
    const page = await this.grantedPage(slug, queryValues(url, 'auth_token'))
    if (!page || !planHas(page.plan, 'badge_widget')) return undefined
    const style = parseStyle(queryValues(url, 'style')[0])
    const label = queryValues(url, 'label')[0]
    if (kind === 'status') {
      const snapshot = await this.pageStatus.snapshot(page.id)
      return new Response(renderBadge(clampLabel(label, page.name || 'Status'), STATUS_LOOK[snapshot.overall], style), { headers: SVG_HEADERS })
    }
    const days = parseDays(queryValues(url, 'days'))
    if (typeof days !== 'number') return undefined
    const { total } = snapshotUptime(await this.pageStatus.snapshot(page.id, { uptimeDays: days }))
    return new Response(renderBadge(clampLabel(label, 'uptime'), uptimeLook(total), style), { headers: SVG_HEADERS })
  }
}
