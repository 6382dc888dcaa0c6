/** Badges of a private page for a request with its embed token (`auth_token`); see src/http/private-embed.ts. */
import { PRIVATE_EMBED_HEADERS } from '../../http/private-embed.ts'
import { queryValues } from '../../lib/query.ts'
import type { PageAccessService } from '../page-access/service.ts'
import { snapshotUptime, type PageStatusService } from '../status-pipeline/service.ts'
import { planHas } from '../plans/matrix.ts'
import { clampLabel, renderBadge, STATUS_LOOK, uptimeLook } from './render.ts'
import { readBadgeUrl } from './cached-reads.ts'

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

  /**
   * The badge of a request URL (read as the public routes read it), or undefined
   * when it is no badge or the token opens no private page with badges (the public answer applies).
   */
  async answer(url: string): Promise<Response | undefined> {
    // Not the remembering reader: these URLs carry a secret.
    const read = readBadgeUrl(url)
    if (read === undefined || 'refused' in read || read.slug === undefined) return undefined
    const page = await this.access.grantedEmbedPage(read.slug, queryValues(url, 'auth_token'))
    if (!page || !planHas(page.plan, 'badge_widget')) return undefined
    if (read.kind === 'status') {
      const snapshot = await this.pageStatus.snapshot(page.id)
      return new Response(await renderBadge(clampLabel(read.label, page.name || 'Status'), STATUS_LOOK[snapshot.overall], read.style), { headers: SVG_HEADERS })
    }
    const { total } = snapshotUptime(await this.pageStatus.snapshot(page.id, { uptimeDays: read.days }))
    return new Response(await renderBadge(clampLabel(read.label, 'uptime'), uptimeLook(total), read.style), { headers: SVG_HEADERS })
  }
}
