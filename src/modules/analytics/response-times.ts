/**
 * Average and p95 response times for analytics, from roll-ups written together with check results
 * (the checks feature calls `recordResponseTimes` inside its write transaction). Reading a range
 * costs two rows per component plus one row per day, however many checks were stored.
 */
import type { Db } from '../../db/client.ts'
import { addInto, bucketOf, decode, emptyHistogram, encode, quantile } from './histogram.ts'
import type { ReportRange } from './range.ts'
import { cumRowsNeeded, type ResponseTimeFigures, type ResponseTimes } from './report.ts'
import { AnalyticsRepo } from './repo.ts'
import { dayOf } from './rollup.ts'
import type { ResponseTimeSource } from './service.ts'

interface DayDelta {
  n: number
  sum: number
  hist: Uint32Array
}

/** Adds timed checks of one component to the roll-ups. Untimed checks (no response_ms) are skipped. */
export async function recordResponseTimes(
  db: Db,
  componentId: number,
  checks: ReadonlyArray<{ at: number; responseMs: number | null }>,
): Promise<void> {
  const deltas = new Map<number, DayDelta>()
  for (const check of checks) {
    if (check.responseMs === null) continue
    const day = dayOf(check.at)
    let delta = deltas.get(day)
    if (!delta) deltas.set(day, (delta = { n: 0, sum: 0, hist: emptyHistogram() }))
    delta.n++
    delta.sum += check.responseMs
    delta.hist[bucketOf(check.responseMs)]!++
  }
  if (deltas.size === 0) return
  const repo = new AnalyticsRepo(db)
  const component = await repo.componentPageId(componentId)
  if (!component) return
  const pageId = component.page_id

  // The page's daily rows (not cumulative): add each day's delta.
  for (const [day, delta] of deltas) {
    const row = await repo.pageResponseDay(pageId, day)
    const hist = decode(row?.hist)
    addInto(hist, delta.hist)
    await repo.putPageResponseDay({ page_id: pageId, day, n: (row?.n ?? 0) + delta.n, sum_ms: (row?.sum_ms ?? 0) + delta.sum, hist: encode(hist) })
  }

  // The component's dense running totals: rewrite from the earliest touched day to the last day.
  const cursor = await repo.responseCursor(componentId)
  const touched = [...deltas.keys()]
  const fromDay = Math.min(...touched)
  const lastDay = Math.max(...touched, cursor?.last_day ?? -Infinity)
  const firstDay = Math.min(fromDay, cursor?.first_day ?? Infinity)
  const existing = await repo.componentResponseDays(componentId, fromDay - 1, lastDay)
  const byDay = new Map(existing.map((row) => [row.day, row]))
  const previous = byDay.get(fromDay - 1)
  let cumN = previous?.cum_n ?? 0
  let cumSum = previous?.cum_sum_ms ?? 0
  const cumHist = decode(previous?.cum_hist)
  const rows = []
  for (let day = fromDay; day <= lastDay; day++) {
    const old = byDay.get(day)
    const delta = deltas.get(day)
    const hist = decode(old?.hist)
    if (delta) addInto(hist, delta.hist)
    const n = (old?.n ?? 0) + (delta?.n ?? 0)
    const sum = (old?.sum_ms ?? 0) + (delta?.sum ?? 0)
    cumN += n
    cumSum += sum
    addInto(cumHist, hist)
    rows.push({ component_id: componentId, day, n, sum_ms: sum, hist: encode(hist), cum_n: cumN, cum_sum_ms: cumSum, cum_hist: encode(cumHist) })
  }
  await repo.putComponentResponseDays(rows)
  await repo.putResponseCursor({ componentId, pageId, firstDay, lastDay })
}

const figures = (n: number, sum: number, hist: Uint32Array): ResponseTimeFigures =>
  n > 0 ? { avg_ms: Math.round(sum / n), p95_ms: quantile(hist, 0.95) } : { avg_ms: null, p95_ms: null }

/** Reads the roll-ups for a report; null when the page has never had a timed check. */
export function responseTimesFrom(db: Db): ResponseTimeSource {
  const repo = new AnalyticsRepo(db)
  return async (pageId: number, componentIds: readonly number[], range: ReportRange): Promise<ResponseTimes | null> => {
    const wanted = new Set(componentIds)
    const cursors = (await repo.responseCursorsOfPage(pageId)).filter((c) => wanted.has(c.component_id))
    if (cursors.length === 0) return null
    const pairs = cumRowsNeeded(range, cursors, (cursor) => cursor.last_day)
    const [cumRows, dayRows] = await Promise.all([repo.responseRowsAt(pairs), repo.pageResponseDays(pageId, range.fromDay, range.toDay)])
    const cum = new Map(cumRows.map((row) => [`${row.component_id}:${row.day}`, row]))
    const components = new Map<number, ResponseTimeFigures>()
    const total = { n: 0, sum: 0, hist: emptyHistogram() }
    for (const cursor of cursors) {
      const end = cum.get(`${cursor.component_id}:${Math.min(range.toDay, cursor.last_day)}`)
      const start = cum.get(`${cursor.component_id}:${Math.min(range.fromDay - 1, cursor.last_day)}`)
      if (!end) continue
      const n = end.cum_n - (start?.cum_n ?? 0)
      const sum = end.cum_sum_ms - (start?.cum_sum_ms ?? 0)
      const hist = decode(end.cum_hist)
      if (start) addInto(hist, decode(start.cum_hist), -1)
      components.set(cursor.component_id, figures(n, sum, hist))
      total.n += n
      total.sum += sum
      addInto(total.hist, hist)
    }
    const daily = new Map<number, ResponseTimeFigures>()
    for (const row of dayRows) daily.set(row.day, figures(row.n, row.sum_ms, decode(row.hist)))
    return { overall: figures(total.n, total.sum, total.hist), components, daily }
  }
}
