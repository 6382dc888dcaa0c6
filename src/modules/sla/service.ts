/**
 * SLA targets, page settings and reports. Every owner-facing method checks ownership first (someone
 * else's page or component is a 404); `reportOfPage` is the unchecked read the checker and the
 * monthly mail use. The numbers come from compute.ts; the SQL lives in repo.ts.
 */
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import { DAY_MS } from '../../lib/time.ts'
import type { Owner } from '../accounts/service.ts'
import { backfillStatusRollup } from '../analytics/status-aggregator.ts'
import type { ComponentsService } from '../components/service.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import {
  bucketDaysFor,
  computeSlaReport,
  DEFAULT_POLICY,
  daysNeeded,
  describePolicy,
  type SlaComponentInput,
  type SlaComponentReport,
  type SlaTarget,
  type Cumulative,
} from './compute.ts'
import { parseReportRange, periodOf, type Span } from './period.ts'
import type { PublicBudget } from './public-budget.ts'
import type { SlaRepo, TargetRow } from './repo.ts'
import type { DegradedCountsAs, SlaPeriod } from './tables.ts'

export interface SlaTargetInput {
  target_percent: number
  period?: SlaPeriod
  degraded_counts_as?: DegradedCountsAs
  exclude_maintenance?: boolean
  min_outage_seconds?: number
  breach_alerts?: boolean
  public_budget?: boolean
}

export interface SlaReport {
  page: { id: number; name: string; slug: string }
  from: number
  to: number
  generatedAt: number
  bucketDays: number
  /** Each distinct accounting policy of the report, in words. */
  policies: string[]
  components: SlaComponentReport[]
  incidents: Array<{ id: number; title: string; startedAt: number; resolvedAt: number | null; durationMs: number; components: string[] }>
  maintenance: Array<{ id: number; title: string; start: number; end: number; excludedMs: number; components: string[] }>
}

/** Bucketing: `auto` draws a strip of at most 92 bars; `day` is one bucket per day (the CSV). */
export type StripMode = 'auto' | 'day'

/** The highest target a budget can be kept for (100 % would leave no budget at all). */
export const MAX_TARGET_PERCENT = 99.9999
export const MIN_TARGET_PERCENT = 50
export const MAX_MIN_OUTAGE_SECONDS = 3600

export function targetOf(row: TargetRow): SlaTarget {
  return {
    targetPpm: row.target_ppm,
    period: row.period,
    policy: { degradedCountsAs: row.degraded_counts_as, excludeMaintenance: row.exclude_maintenance === 1, minOutageSeconds: row.min_outage_s },
    breachAlerts: row.breach_alerts === 1,
    publicBudget: row.public_budget === 1,
  }
}

/** A target as stored, the API's defaults filled in: a 400 naming the field out of range. Pure. */
export function parseSlaTarget(input: SlaTargetInput): Omit<TargetRow, 'component_id' | 'page_id'> {
  const percent = input.target_percent
  if (!Number.isFinite(percent) || percent < MIN_TARGET_PERCENT || percent > MAX_TARGET_PERCENT) {
    throw badRequest(`target_percent must be a number from ${MIN_TARGET_PERCENT} to ${MAX_TARGET_PERCENT}`)
  }
  const ppm = Math.round(percent * 10_000)
  if (Math.abs(ppm / 10_000 - percent) > 1e-9) throw badRequest('target_percent has at most 4 decimals')
  const minOutage = input.min_outage_seconds ?? DEFAULT_POLICY.minOutageSeconds
  if (!Number.isInteger(minOutage) || minOutage < 0 || minOutage > MAX_MIN_OUTAGE_SECONDS) {
    throw badRequest(`min_outage_seconds must be a whole number from 0 to ${MAX_MIN_OUTAGE_SECONDS}`)
  }
  return {
    target_ppm: ppm,
    period: input.period ?? 'month',
    degraded_counts_as: input.degraded_counts_as ?? DEFAULT_POLICY.degradedCountsAs,
    exclude_maintenance: (input.exclude_maintenance ?? DEFAULT_POLICY.excludeMaintenance) ? 1 : 0,
    min_outage_s: minOutage,
    breach_alerts: (input.breach_alerts ?? true) ? 1 : 0,
    public_budget: input.public_budget ? 1 : 0,
  }
}

const times = (row: { cum_up_ms: number; cum_degraded_ms: number; cum_down_ms: number; cum_outages: number }): Cumulative => ({
  upMs: row.cum_up_ms,
  degradedMs: row.cum_degraded_ms,
  downMs: row.cum_down_ms,
  outages: row.cum_outages,
})

export class SlaService {
  constructor(
    private readonly repo: SlaRepo,
    private readonly pages: StatusPagesService,
    private readonly components: ComponentsService,
    private readonly clock: Clock,
    /** A target's public budget is on the page: a change empties the page's cached answers. */
    private readonly changes: Pick<ChangeFeed, 'pageChanged'>,
  ) {}

  now(): number {
    return this.clock.now()
  }

  async targets(owner: Owner, pageId: number): Promise<Array<{ componentId: number; componentName: string; target: SlaTarget | null }>> {
    await this.pages.get(owner, pageId)
    const [components, targets] = await Promise.all([this.repo.componentsOfPage(pageId), this.repo.targetsOfPage(pageId)])
    const byComponent = new Map(targets.map((row) => [row.component_id, targetOf(row)]))
    return components.map((c) => ({ componentId: c.id, componentName: c.name, target: byComponent.get(c.id) ?? null }))
  }

  async setTarget(owner: Owner, componentId: number, input: SlaTargetInput): Promise<SlaTarget> {
    const component = await this.components.get(owner, componentId)
    const row = { component_id: component.id, page_id: component.pageId, ...parseSlaTarget(input) }
    await this.repo.upsertTarget({ ...row, now: this.clock.now() })
    this.changes.pageChanged(component.pageId)
    return targetOf(row)
  }

  async deleteTarget(owner: Owner, componentId: number): Promise<void> {
    const component = await this.components.get(owner, componentId)
    if (!(await this.repo.deleteTarget(componentId))) throw notFound('this component has no SLA target')
    this.changes.pageChanged(component.pageId)
  }

  async settings(owner: Owner, pageId: number): Promise<{ monthlyReport: boolean }> {
    await this.pages.get(owner, pageId)
    return { monthlyReport: await this.repo.monthlyReport(pageId) }
  }

  async setSettings(owner: Owner, pageId: number, input: { monthly_report: boolean }): Promise<{ monthlyReport: boolean }> {
    await this.pages.get(owner, pageId)
    await this.repo.setMonthlyReport(pageId, input.monthly_report, this.clock.now())
    return { monthlyReport: input.monthly_report }
  }

  /**
   * The running period's budget of each component whose owner shows it (in page order); none
   * without such a target, at the cost of one query.
   */
  async publicBudgets(pageId: number): Promise<PublicBudget[]> {
    const shown = (await this.repo.targetsOfPage(pageId)).filter((row) => row.public_budget === 1)
    if (shown.length === 0) return []
    const now = this.clock.now()
    const budgets: PublicBudget[] = []
    for (const period of new Set(shown.map((row) => row.period))) {
      const span = periodOf(now, period)
      // The report's page fields name it in documents; the figures need only its id.
      const report = await this.reportOfPage({ id: pageId, name: '', slug: '' }, span)
      for (const component of report.components) {
        if (!component.target?.publicBudget || component.target.period !== period || !component.budget) continue
        const { allowedMs, usedMs, leftMs } = component.budget
        budgets.push({ componentId: component.id, period, targetPpm: component.target.targetPpm, periodStart: span.start, periodEnd: span.end, allowedMs, usedMs, leftMs })
      }
    }
    return budgets
  }

  /** The owner's report of a page over `from`..`to` (whole UTC days; default: this month). */
  async report(owner: Owner, pageId: number, query: { from?: string; to?: string }, strip: StripMode = 'auto'): Promise<SlaReport> {
    const page = await this.pages.get(owner, pageId)
    const range = parseReportRange(query, this.clock.now())
    return this.reportOfPage({ id: page.id, name: page.name, slug: page.slug }, range, strip)
  }

  /** A page's report over a range, without an ownership check (the checker, the monthly mail). */
  async reportOfPage(page: SlaReport['page'], range: Span, strip: StripMode = 'auto'): Promise<SlaReport> {
    const now = this.clock.now()
    const bucketDays = strip === 'day' ? 1 : bucketDaysFor(Math.round((range.end - range.start) / DAY_MS))
    let [components, cursors] = await Promise.all([this.repo.componentsOfPage(page.id), this.repo.cursorsOfPage(page.id)])
    const withCursor = new Set(cursors.map((c) => c.component_id))
    const missing = components.filter((c) => c.known_from !== null && !withCursor.has(c.id))
    if (missing.length > 0) {
      // History written before the roll-ups existed: roll it up once (as analytics does).
      for (const component of missing) await backfillStatusRollup(this.repo.db, component.id)
      cursors = await this.repo.cursorsOfPage(page.id)
    }
    const end = Math.min(range.end, now)
    const targets = await this.repo.targetsOfPage(page.id)
    const minOutageMs = Math.max(0, ...targets.map((row) => row.min_outage_s * 1000))
    const [cumRows, spans, windows, incidents] = await Promise.all([
      this.repo.cumulativeRows(page.id, daysNeeded(range.start, range.end, now, bucketDays)),
      end > range.start ? this.repo.spans(page.id, range.start, end, minOutageMs) : Promise.resolve({ longest: [], spans: [] }),
      this.repo.maintenances(page.id, range.start, end),
      this.repo.incidents(page.id, range.start, range.end),
    ])
    const inputs = new Map<number, SlaComponentInput>()
    const targetBy = new Map(targets.map((row) => [row.component_id, targetOf(row)]))
    const cursorBy = new Map(cursors.map((c) => [c.component_id, c]))
    const latestBy = new Map(cumRows.latest.map((row) => [row.component_id, row]))
    for (const c of components) {
      const cursor = cursorBy.get(c.id)
      const latest = latestBy.get(c.id)
      inputs.set(c.id, {
        id: c.id,
        name: c.name,
        target: targetBy.get(c.id) ?? null,
        knownFrom: c.known_from,
        rollup: cursor && latest ? { firstDay: cursor.first_day, cumByDay: new Map(), last: { status: cursor.status, since: cursor.since, cum: times(latest) } } : null,
        spans: [],
        longestDownMs: 0,
        maintenance: [],
        incidents: [],
      })
    }
    for (const row of cumRows.atDays) (inputs.get(row.component_id)?.rollup?.cumByDay as Map<number, Cumulative> | undefined)?.set(row.day, times(row))
    for (const row of spans.longest) {
      const input = inputs.get(row.component_id)
      if (input) input.longestDownMs = row.longest
    }
    for (const span of spans.spans) {
      const list = inputs.get(span.component_id)?.spans as SlaComponentInput['spans'][number][] | undefined
      if (!list) continue
      const previous = list[list.length - 1]
      // A repeated status (an import may record one twice) continues the span it repeats.
      if (previous && previous.status === span.status && previous.end === span.at) previous.end = span.until
      else list.push({ status: span.status as 'down' | 'degraded', start: span.at, end: span.until })
    }
    const names = new Map(components.map((c) => [c.id, c.name]))
    const covered = (ids: number[]) => (ids.length === 0 ? components.map((c) => c.id) : ids)
    for (const window of windows) {
      for (const id of covered(window.components)) (inputs.get(id)?.maintenance as Array<{ start: number; end: number }> | undefined)?.push({ start: window.start_at, end: window.end_at })
    }
    for (const incident of incidents) {
      for (const id of incident.components) (inputs.get(id)?.incidents as Array<{ startedAt: number; resolvedAt: number | null }> | undefined)?.push({ startedAt: incident.started_at, resolvedAt: incident.resolved_at })
    }
    const reports = computeSlaReport({ from: range.start, to: range.end, now, bucketDays, components: [...inputs.values()] })
    const nameList = (ids: number[]) => covered(ids).map((id) => names.get(id)).filter((name): name is string => name !== undefined)
    return {
      page,
      from: range.start,
      to: range.end,
      generatedAt: now,
      bucketDays,
      policies: [...new Set(reports.map((r) => describePolicy(r.policy)))],
      components: reports,
      incidents: incidents.map((i) => ({
        id: i.id,
        title: i.title,
        startedAt: i.started_at,
        resolvedAt: i.resolved_at,
        durationMs: (i.resolved_at ?? now) - i.started_at,
        components: nameList(i.components),
      })),
      maintenance: windows.map((w) => ({
        id: w.id,
        title: w.title,
        start: w.start_at,
        end: w.end_at,
        excludedMs: Math.max(0, Math.min(w.end_at, end) - Math.max(w.start_at, range.start)),
        components: nameList(w.components),
      })),
    }
  }
}
