/**
 * What the badges of a page say: `GET /badge/<slug>.svg` (the overall status) and
 * `GET /badge/<slug>/uptime.svg?days=N` (uptime over N days, from the status history). Returns a
 * badge model (label, value, colour, and what a cache needs to know) or throws 404 when the page is
 * unknown, blocked, private or on a plan without badges; drawing, caching and the gray "Unknown"
 * badge are the HTTP side's (cached-reads.ts).
 */
import { notFound } from '../../lib/errors.ts'
import { planHas } from '../plans/matrix.ts'
import { snapshotUptime, type PageStatusService, type SnapshotOptions } from '../status-pipeline/service.ts'
import { clampLabel, STATUS_LOOK, uptimeLook } from './render.ts'

export type BadgeKind = 'status' | 'uptime'

export interface BadgeModel {
  /** The label as drawn: the requested one (clamped), else the default. */
  label: string
  look: { text: string; color: string }
  pageId: number
  /** The next maintenance boundary, when one is ahead: the badge may change then. */
  nextBoundary: number | undefined
}

/** What the badge of a page nobody may see says: the same for every such slug, so never a hint that a private page exists. */
export function unknownBadge(kind: BadgeKind, requestedLabel: string | undefined): Pick<BadgeModel, 'label' | 'look'> {
  return { label: clampLabel(requestedLabel, kind === 'status' ? 'Status' : 'uptime'), look: STATUS_LOOK.unknown }
}

export class BadgeService {
  constructor(private readonly pageStatus: PageStatusService) {}

  /** The status badge of a page by its lookup slug: the page name (or `label`) and its overall status. */
  async statusBadge(slug: string, requestedLabel: string | undefined): Promise<BadgeModel> {
    const { page, snapshot } = await this.visible(slug, {})
    return { label: clampLabel(requestedLabel, page.name || 'Status'), look: STATUS_LOOK[snapshot.overall], pageId: page.id, nextBoundary: snapshot.nextBoundary }
  }

  /** The uptime badge: % of time available over the last `days` days. */
  async uptimeBadge(slug: string, days: number, requestedLabel: string | undefined): Promise<BadgeModel> {
    const { page, snapshot } = await this.visible(slug, { uptimeDays: days })
    const { total } = snapshotUptime(snapshot)
    return { label: clampLabel(requestedLabel, 'uptime'), look: uptimeLook(total), pageId: page.id, nextBoundary: snapshot.nextBoundary }
  }

  /** A visible page whose plan has badges, and its snapshot (one read); else 404. */
  private async visible(slug: string, options: SnapshotOptions) {
    const found = await this.pageStatus.publicSnapshot(slug, options)
    if (!found || !planHas(found.page.plan, 'badge_widget')) throw notFound()
    return found
  }
}
