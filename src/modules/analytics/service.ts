/**
 * The analytics report of a status page, for its owner or a share-token holder. Every figure comes
 * from aggregates kept as data is written (daily status roll-ups with running totals, daily view
 * counts), so a year costs a few more rows than a week and nothing grows with stored history.
 */
import type { Clock } from '../../lib/clock.ts'
import { notFound } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import { parseRange, type ReportRange } from './range.ts'
import { buildReport, cumRowsNeeded, type AnalyticsReport, type ResponseTimes } from './report.ts'
import type { AnalyticsRepo } from './repo.ts'
import { dayOf } from './rollup.ts'
import type { ShareToken, ShareTokensService } from './share-tokens.ts'
import { backfillStatusRollup } from './status-aggregator.ts'

/**
 * Where average and p95 response times come from: monitor check roll-ups. Answers null
 * when the page has no checks; the report then shows null for every response-time figure.
 */
export type ResponseTimeSource = (pageId: number, componentIds: readonly number[], range: ReportRange) => Promise<ResponseTimes | null>

const noResponseTimes: ResponseTimeSource = async () => null

export type Viewer = { kind: 'owner'; owner: Owner } | { kind: 'token'; token: ShareToken }

export class AnalyticsService {
  constructor(
    private readonly repo: AnalyticsRepo,
    private readonly tokens: ShareTokensService,
    readonly clock: Clock,
    private readonly responseTimes: ResponseTimeSource = noResponseTimes,
  ) {}

  /** Who may read page `pageId`: its owner (else 404) or a live token of that page (else 403). */
  async authorize(pageId: number, credentials: { owner?: Owner; token?: string; countUse?: boolean }): Promise<Viewer> {
    if (credentials.token !== undefined) {
      return { kind: 'token', token: await this.tokens.verify(pageId, credentials.token, { countUse: credentials.countUse }) }
    }
    if (!credentials.owner) throw notFound()
    await this.tokens.ownedPage(credentials.owner, pageId)
    return { kind: 'owner', owner: credentials.owner }
  }

  async report(pageId: number, query: { range?: string; from?: string; to?: string }): Promise<AnalyticsReport> {
    const now = this.clock.now()
    const range = parseRange(query, now)
    const page = await this.repo.findPage(pageId)
    if (!page) throw notFound()
    const components = await this.repo.componentsOfPage(pageId)
    let cursors = await this.repo.cursorsOfPage(pageId)
    if (cursors.length < components.length) {
      // Components whose history was written before the roll-ups existed: roll them up once.
      const known = new Set(cursors.map((c) => c.component_id))
      for (const component of components) if (!known.has(component.id)) await backfillStatusRollup(this.repo.db, component.id)
      cursors = await this.repo.cursorsOfPage(pageId)
    }
    const [cumRows, pageDays, viewDays, responseTimes] = await Promise.all([
      this.repo.dailyRowsAt(cumRowsNeeded(range, cursors, (cursor) => dayOf(cursor.since))),
      this.repo.pageStatusDays(pageId, range.fromDay, range.toDay),
      this.repo.pageViewDays(pageId, range.fromDay, range.toDay),
      this.responseTimes(
        pageId,
        components.map((c) => c.id),
        range,
      ),
    ])
    return buildReport({ range, page, components, cursors, cumRows, pageDays, viewDays, responseTimes, generatedAt: now })
  }

  async pageSummary(pageId: number): Promise<{ id: number; name: string; slug: string }> {
    const page = await this.repo.findPage(pageId)
    if (!page) throw notFound()
    return { id: page.id, name: page.name, slug: page.slug }
  }

  firstPageOf(owner: Owner) {
    return this.repo.firstPageOfOwner(owner.id)
  }

  pagesOf(owner: Owner) {
    return this.repo.pagesOfOwner(owner.id)
  }
}
