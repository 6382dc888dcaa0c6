/**
 * Average and p95 response times for analytics, from roll-ups written together with check results
 * (the checks feature calls `recordResponseTimes` inside its write transaction, once per batch). Reading a range
 * costs two rows per component plus one row per day, however many checks were stored.
 */
import type { Db } from '../../db/client.ts'
import { addInto, bucketOf, decode, emptyHistogram, encode, quantile } from './histogram.ts'
import type { ReportRange } from './range.ts'
import { cumRowsNeeded, type ResponseTimeFigures, type ResponseTimes } from './report.ts'
import { AnalyticsRepo } from './repo.ts'
import { dayOf } from './rollup.ts'
import type { ResponseTimeSource } from './service.ts'
import type { ComponentResponseDailyTable } from './tables.ts'
import type { ComponentChecks } from '../component-checks/repo.ts'

interface DayDelta {
  n: number
  sum: number
  hist: Uint32Array
}

/** Components per pass: their ids go into `in (…)` lists, kept well below both engines' parameter limits. */
const COMPONENTS_PER_PASS = 500

/**
 * Adds the timed checks of a batch of components to the roll-ups (untimed checks, without
 * response_ms, are skipped): a few statements per batch, however many components it has.
 */
export async function recordResponseTimes(db: Db, batches: readonly ComponentChecks[]): Promise<void> {
  const deltasOf = new Map<number, Map<number, DayDelta>>()
  for (const { componentId, checks } of batches) {
    let deltas = deltasOf.get(componentId)
    for (const check of checks) {
      if (check.responseMs === null) continue
      if (!deltas) deltasOf.set(componentId, (deltas = new Map()))
      const day = dayOf(check.at)
      let delta = deltas.get(day)
      if (!delta) deltas.set(day, (delta = { n: 0, sum: 0, hist: emptyHistogram() }))
      delta.n++
      delta.sum += check.responseMs
      delta.hist[bucketOf(check.responseMs)]!++
    }
  }
  const ids = [...deltasOf.keys()]
  const repo = new AnalyticsRepo(db)
  for (let i = 0; i < ids.length; i += COMPONENTS_PER_PASS) await recordPass(repo, ids.slice(i, i + COMPONENTS_PER_PASS), deltasOf)
}

async function recordPass(repo: AnalyticsRepo, componentIds: readonly number[], deltasOf: ReadonlyMap<number, ReadonlyMap<number, DayDelta>>): Promise<void> {
  const pageOf = new Map((await repo.componentPageIds(componentIds)).map((row) => [row.id, row.page_id]))
  const ids = componentIds.filter((id) => pageOf.has(id))
  if (ids.length === 0) return

  // The pages' daily rows (not cumulative): each day's deltas of all its components added at once.
  const pageDeltas = new Map<string, { pageId: number; day: number; n: number; sum: number; hist: Uint32Array }>()
  for (const id of ids) {
    const pageId = pageOf.get(id)!
    for (const [day, delta] of deltasOf.get(id)!) {
      const key = `${pageId}:${day}`
      let sum = pageDeltas.get(key)
      if (!sum) pageDeltas.set(key, (sum = { pageId, day, n: 0, sum: 0, hist: emptyHistogram() }))
      sum.n += delta.n
      sum.sum += delta.sum
      addInto(sum.hist, delta.hist)
    }
  }
  const sums = [...pageDeltas.values()]
  const pageRows = await repo.pagesResponseDays([...new Set(sums.map((d) => d.pageId))], Math.min(...sums.map((d) => d.day)), Math.max(...sums.map((d) => d.day)))
  const storedPage = new Map(pageRows.map((row) => [`${row.page_id}:${row.day}`, row]))
  await repo.putPageResponseDays(
    sums.map(({ pageId, day, n, sum, hist }) => {
      const row = storedPage.get(`${pageId}:${day}`)
      const merged = decode(row?.hist)
      addInto(merged, hist)
      return { page_id: pageId, day, n: (row?.n ?? 0) + n, sum_ms: (row?.sum_ms ?? 0) + sum, hist: encode(merged) }
    }),
  )

  // Each component's dense running totals: rewritten from its earliest touched day to its last day.
  const cursors = new Map((await repo.responseCursors(ids)).map((cursor) => [cursor.component_id, cursor]))
  const spans = ids.map((id) => {
    const cursor = cursors.get(id)
    const touched = [...deltasOf.get(id)!.keys()]
    const fromDay = Math.min(...touched)
    return { id, fromDay, lastDay: Math.max(...touched, cursor?.last_day ?? -Infinity), firstDay: Math.min(fromDay, cursor?.first_day ?? Infinity) }
  })
  // Components whose spans are the same are read together (in steady state: all of them, today).
  const groups = new Map<string, typeof spans>()
  for (const span of spans) {
    const key = `${span.fromDay}:${span.lastDay}`
    const group = groups.get(key)
    if (group) group.push(span)
    else groups.set(key, [span])
  }
  const stored = new Map<string, ComponentResponseDailyTable>()
  for (const group of groups.values()) {
    const { fromDay, lastDay } = group[0]!
    for (const row of await repo.componentResponseDays(group.map((span) => span.id), fromDay - 1, lastDay)) stored.set(`${row.component_id}:${row.day}`, row)
  }
  const rows: ComponentResponseDailyTable[] = []
  for (const { id, fromDay, lastDay } of spans) {
    const deltas = deltasOf.get(id)!
    const previous = stored.get(`${id}:${fromDay - 1}`)
    let cumN = previous?.cum_n ?? 0
    let cumSum = previous?.cum_sum_ms ?? 0
    const cumHist = decode(previous?.cum_hist)
    for (let day = fromDay; day <= lastDay; day++) {
      const old = stored.get(`${id}:${day}`)
      const delta = deltas.get(day)
      const hist = decode(old?.hist)
      if (delta) addInto(hist, delta.hist)
      const n = (old?.n ?? 0) + (delta?.n ?? 0)
      const sum = (old?.sum_ms ?? 0) + (delta?.sum ?? 0)
      cumN += n
      cumSum += sum
      addInto(cumHist, hist)
      rows.push({ component_id: id, day, n, sum_ms: sum, hist: encode(hist), cum_n: cumN, cum_sum_ms: cumSum, cum_hist: encode(cumHist) })
    }
  }
  await repo.putComponentResponseDays(rows)
  await repo.putResponseCursors(spans.map(({ id, firstDay, lastDay }) => ({ componentId: id, pageId: pageOf.get(id)!, firstDay, lastDay })))
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
