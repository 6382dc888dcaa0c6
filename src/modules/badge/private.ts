/** Badges of a private page for a request with its embed token (`auth_token`); see src/http/private-embed.ts. */
import { PRIVATE_EMBED_HEADERS } from '../../http/private-embed.ts'
import { queryValues } from '../../lib/query.ts'
import type { PageAccessService } from '../page-access/service.ts'
import { snapshotUptime, type PageStatusService } from '../page-status/service.ts'
import { planHas } from '../plans/matrix.ts'
import { clampLabel, parseStyle, renderBadge, STATUS_LOOK, uptimeLook } from './render.ts'
import { parseDays } from './http.ts'

const SVG_HEADERS = {
  ...PRIVATE_EMBED_HEADERS,
  'content-type': 'image/svg+xml; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
}

export class PrivateBadges {
  constructor(
    private readonly access: PageAccessService,
    private readonly pageStatus: PageStatusService,
  ) {}

  /** The badge, or undefined when the token opens no private page with badges (the public answer applies). */
  async answer(url: string, slug: string, kind: 'status' | 'uptime'): Promise<Response | undefined> {
    const page = await this.access.grantedEmbedPage(slug, queryValues(url, 'auth_token'))
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
