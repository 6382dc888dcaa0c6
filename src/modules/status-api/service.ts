/**
 * The status JSON of `GET /api/embed/status`: the overall status, active incidents,
 * response times from the check roll-ups and daily uptime of a page, from its snapshot
 * (status-pipeline). Returns data or throws a coded error; the prepared answer, its ETag and its place
 * in the public cache are built beside the route (cached-reads.ts).
 *
 * Public methods other features use:
 * - `statusJson(slug, query)`: the figures of a public page, plan checked;
 * - `buildStatusJson(page, query)`: the figures of a visible page without plan checks (private embeds).
 */
import type { Config } from '../../config.ts'
import type { Clock } from '../../lib/clock.ts'
import { notFound, PageHttpError } from '../../lib/errors.ts'
import { toIso } from '../../lib/time.ts'
import type { OverallStatus } from '../status-pipeline/overall.ts'
import { snapshotUptime, type PageSnapshot, type PageStatusService, type PublicPage } from '../status-pipeline/service.ts'
import { lowestPlanWith, planHas, planLabel, type Plan } from '../plans/matrix.ts'
import { statusPageUrl } from '../status-pages/urls.ts'
import { budgetPhrase, type PublicBudgetReader } from '../sla/public-budget.ts'
import type { SlaPeriod } from '../sla/tables.ts'
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../lib/i18n.ts'
import type { StatusQuery } from './query.ts'
import { widgetWords, type WidgetWords } from './widget-words.ts'

export interface StatusJson {
  page: string
  page_name: string
  page_url: string
  overall: OverallStatus
  updated: string
  incidents: Array<{ id: string; title: string; state: string; started: string; component: string | null }>
  rtm: Array<number | null>
  upd: Array<number | null>
  dns_only: boolean
  error_budgets: Array<{
    component: string
    target: number
    period: SlaPeriod
    period_start: string
    period_end: string
    allowed_seconds: number
    used_seconds: number
    left_seconds: number
    text: string
  }>
  /** With `lang`: the language of `words`, the one asked if we have it, else the page's default. */
  language?: Language
  /** With `lang`: the widget's words in `language`. */
  words?: WidgetWords
}

/** A page's status JSON and what a cache needs to keep it: the page, when it was computed, when it next changes. */
export interface StatusRead {
  body: StatusJson
  pageId: number
  computedAt: number
  /** The next maintenance boundary, when one is ahead. */
  nextBoundary: number | undefined
}

export const NO_PLAN = `Status API requires ${planLabel(lowestPlanWith('badge_widget'))} plan or higher`
export const NO_DETAILS = `Incidents and sparklines (inc, rtm, upd) require ${planLabel(lowestPlanWith('status_json_details'))} plan or higher`

/** Why the plan of a page refuses this status query (the 403 text), or undefined when it allows it. */
export function statusPlanRefusal(plan: Plan, query: Pick<StatusQuery, 'inc' | 'rtm' | 'upd'>): string | undefined {
  if (!planHas(plan, 'badge_widget')) return NO_PLAN
  const wantsDetails = query.inc || query.rtm > 0 || query.upd > 0
  return wantsDetails && !planHas(plan, 'status_json_details') ? NO_DETAILS : undefined
}

export class StatusService {
  constructor(
    private readonly pageStatus: PageStatusService,
    private readonly config: Pick<Config, 'scheme' | 'statusDomain'>,
    private readonly clock: Clock,
    /** The error budgets owners chose to show (the SLA service). */
    private readonly budgets: PublicBudgetReader,
  ) {}

  /**
   * The status JSON of a public page by its lookup slug. Throws 404 for an unknown, blocked or
   * private page, and a PageHttpError 403 when the owner's plan refuses the query.
   */
  async statusJson(slug: string, query: Omit<StatusQuery, 'slug'>): Promise<StatusRead> {
    const now = this.clock.now()
    // The page and its snapshot in one read: the plan is checked on what it returns.
    const found = await this.pageStatus.publicSnapshot(slug, { now, uptimeDays: query.upd, rtmMinutes: query.rtm })
    if (!found) throw notFound()
    const { page, snapshot } = found
    const refusal = statusPlanRefusal(page.plan, query)
    if (refusal !== undefined) throw new PageHttpError(403, refusal, page.id)
    const body = await this.buildStatusJson(page, query, now, snapshot)
    return { body, pageId: page.id, computedAt: now, nextBoundary: snapshot.nextBoundary }
  }

  /** The status JSON of a visible page (no plan checks): for private embeds and tests. */
  async buildStatusJson(
    page: PublicPage,
    query: Omit<StatusQuery, 'slug'>,
    now = this.clock.now(),
    snapshot?: PageSnapshot,
  ): Promise<StatusJson> {
    snapshot ??= await this.pageStatus.snapshot(page.id, { now, uptimeDays: query.upd, rtmMinutes: query.rtm })
    const upd = query.upd > 0 ? snapshotUptime(snapshot).daily : []
    const names = new Map(snapshot.components.map((c) => [c.id, c.name]))
    const budgets = (await this.budgets(page.id)).filter((budget) => names.has(budget.componentId))
    const language = query.lang ?? (isLanguage(page.language) ? page.language : DEFAULT_LANGUAGE)
    return {
      page: page.slug,
      page_name: page.name,
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
      rtm: snapshot.responseTimes,
      upd,
      dns_only: snapshot.components.length > 0 && snapshot.components.every((c) => c.type === 'dns'),
      error_budgets: budgets.map((budget) => ({
        component: names.get(budget.componentId)!,
        target: budget.targetPpm / 10_000,
        period: budget.period,
        period_start: toIso(budget.periodStart),
        period_end: toIso(budget.periodEnd),
        allowed_seconds: Math.floor(budget.allowedMs / 1000),
        used_seconds: Math.ceil(budget.usedMs / 1000),
        left_seconds: Math.floor(budget.leftMs / 1000),
        text: budgetPhrase(budget),
      })),
      ...(query.words ? { language, words: widgetWords(language) } : {}),
    }
  }
}
