/**
 * Pure report assembly from the aggregates: no queries here, so the figures can be checked by hand.
 *
 * Definitions (per component, and for the page as the sum over its components):
 * - tracked time: time within the range after the component's first recorded status;
 * - uptime % = (up + degraded) / tracked; degraded still serves, down does not;
 * - an outage (counted in `incidents`) starts when the status becomes `down` from anything else;
 * - downtime = time spent `down`; MTTR = downtime / outages; MTBF = (up + degraded) / outages.
 */
import type { ComponentStatus } from '../components/tables.ts'
import type { ReportRange } from './range.ts'
import { addInterval, dayDate, dayOf, type StatusTotals, zeroTotals } from './rollup.ts'

export interface CursorRow {
  component_id: number
  first_day: number
  status: ComponentStatus
  since: number
}

export interface CumRow {
  component_id: number
  day: number
  cum_up_ms: number
  cum_degraded_ms: number
  cum_down_ms: number
  cum_outages: number
}

export interface ResponseTimeFigures {
  avg_ms: number | null
  p95_ms: number | null
}

/** Response times from monitor checks (their daily roll-ups); null where a page has no checks. */
export interface ResponseTimes {
  overall: ResponseTimeFigures
  components: ReadonlyMap<number, ResponseTimeFigures>
  daily: ReadonlyMap<number, ResponseTimeFigures>
}

export interface ReportInput {
  range: ReportRange
  page: { id: number; name: string; slug: string }
  components: ReadonlyArray<{ id: number; name: string; group_name: string | null }>
  cursors: readonly CursorRow[]
  cumRows: readonly CumRow[]
  pageDays: ReadonlyArray<{ day: number } & StatusTotals>
  viewDays: ReadonlyArray<{ day: number; views: number; uniques: number; incident_views: number; incident_uniques: number }>
  responseTimes: ResponseTimes | null
  generatedAt: number
}

/**
 * The (component, day) rows whose running totals bound the range for each component: the range's
 * last day and the day before it, each capped at the component's last rolled-up day (`lastDay`).
 * Used for the status roll-ups and the response-time roll-ups alike.
 */
export function cumRowsNeeded<C extends { component_id: number; first_day: number }>(
  range: ReportRange,
  cursors: readonly C[],
  lastDayOf: (cursor: C) => number,
): Array<{ componentId: number; day: number }> {
  const pairs: Array<{ componentId: number; day: number }> = []
  for (const cursor of cursors) {
    const lastDay = lastDayOf(cursor)
    const end = Math.min(range.toDay, lastDay)
    const start = Math.min(range.fromDay - 1, lastDay)
    if (end >= cursor.first_day) pairs.push({ componentId: cursor.component_id, day: end })
    if (start >= cursor.first_day && start !== end) pairs.push({ componentId: cursor.component_id, day: start })
  }
  return pairs
}

const seconds = (ms: number) => Math.round(ms / 1000)
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1e6) / 1e4 : null)

function figures(totals: StatusTotals) {
  const tracked = totals.up_ms + totals.degraded_ms + totals.down_ms
  const available = totals.up_ms + totals.degraded_ms
  return {
    uptime_percent: percent(available, tracked),
    tracked_s: seconds(tracked),
    up_s: seconds(totals.up_ms),
    degraded_s: seconds(totals.degraded_ms),
    down_s: seconds(totals.down_ms),
    up_percent: percent(totals.up_ms, tracked),
    degraded_percent: percent(totals.degraded_ms, tracked),
    down_percent: percent(totals.down_ms, tracked),
    incidents: totals.outages,
    downtime_s: seconds(totals.down_ms),
    mttr_s: totals.outages > 0 ? seconds(totals.down_ms / totals.outages) : null,
    mtbf_s: totals.outages > 0 ? seconds(available / totals.outages) : null,
  }
}

const add = (into: StatusTotals, from: StatusTotals) => {
  into.up_ms += from.up_ms
  into.degraded_ms += from.degraded_ms
  into.down_ms += from.down_ms
  into.outages += from.outages
}

export function buildReport(input: ReportInput) {
  const { range } = input
  const cum = new Map(input.cumRows.map((row) => [`${row.component_id}:${row.day}`, row]))
  const cursors = new Map(input.cursors.map((c) => [c.component_id, c]))
  const dayCount = range.toDay - range.fromDay + 1
  const days: StatusTotals[] = Array.from({ length: dayCount }, zeroTotals)
  for (const row of input.pageDays) {
    const slot = days[row.day - range.fromDay]
    if (slot) add(slot, row)
  }
  const pageTotals = zeroTotals()
  const components = input.components.map((component) => {
    const totals = zeroTotals()
    const cursor = cursors.get(component.id)
    if (cursor) {
      const lastDay = dayOf(cursor.since)
      const end = cum.get(`${component.id}:${Math.min(range.toDay, lastDay)}`)
      const start = cum.get(`${component.id}:${Math.min(range.fromDay - 1, lastDay)}`)
      if (end) {
        totals.up_ms = end.cum_up_ms - (start?.cum_up_ms ?? 0)
        totals.degraded_ms = end.cum_degraded_ms - (start?.cum_degraded_ms ?? 0)
        totals.down_ms = end.cum_down_ms - (start?.cum_down_ms ?? 0)
        totals.outages = end.cum_outages - (start?.cum_outages ?? 0)
      }
      // The time since the latest change is open: count it up to now (or the end of the range).
      const tail = zeroTotals()
      const from = Math.max(cursor.since, range.fromMs)
      if (from < range.toMs) {
        addInterval(() => tail, cursor.status, from, range.toMs)
        addInterval((day) => days[day - range.fromDay], cursor.status, from, range.toMs)
      }
      add(totals, tail)
    }
    add(pageTotals, totals)
    const rt = input.responseTimes?.components.get(component.id)
    return {
      id: component.id,
      name: component.name,
      group: component.group_name,
      ...figures(totals),
      avg_response_ms: rt?.avg_ms ?? null,
      p95_response_ms: rt?.p95_ms ?? null,
    }
  })
  const views = new Map(input.viewDays.map((row) => [row.day, row]))
  const viewTotals = { views: 0, unique_visitors: 0, incident_views: 0, incident_unique_visitors: 0 }
  const daily = days.map((totals, index) => {
    const day = range.fromDay + index
    const v = views.get(day)
    viewTotals.views += v?.views ?? 0
    viewTotals.unique_visitors += v?.uniques ?? 0
    viewTotals.incident_views += v?.incident_views ?? 0
    viewTotals.incident_unique_visitors += v?.incident_uniques ?? 0
    const f = figures(totals)
    const rt = input.responseTimes?.daily.get(day)
    return {
      date: dayDate(day),
      views: v?.views ?? 0,
      unique_visitors: v?.uniques ?? 0,
      incident_views: v?.incident_views ?? 0,
      incident_unique_visitors: v?.incident_uniques ?? 0,
      uptime_percent: f.uptime_percent,
      up_s: f.up_s,
      degraded_s: f.degraded_s,
      down_s: f.down_s,
      incidents: f.incidents,
      downtime_s: f.downtime_s,
      avg_response_ms: rt?.avg_ms ?? null,
      p95_response_ms: rt?.p95_ms ?? null,
    }
  })
  const page = figures(pageTotals)
  return {
    page: { id: input.page.id, name: input.page.name, slug: input.page.slug },
    range: {
      key: range.key,
      from: new Date(range.fromMs).toISOString(),
      to: new Date(range.toMs).toISOString(),
      days: dayCount,
    },
    generated_at: new Date(input.generatedAt).toISOString(),
    ...viewTotals,
    uptime_percent: page.uptime_percent,
    up_s: page.up_s,
    degraded_s: page.degraded_s,
    down_s: page.down_s,
    incidents: page.incidents,
    downtime_s: page.downtime_s,
    mttr_s: page.mttr_s,
    mtbf_s: page.mtbf_s,
    avg_response_ms: input.responseTimes?.overall.avg_ms ?? null,
    p95_response_ms: input.responseTimes?.overall.p95_ms ?? null,
    components,
    daily,
  }
}

export type AnalyticsReport = ReturnType<typeof buildReport>
