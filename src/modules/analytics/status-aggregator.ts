/**
 * Keeps the daily status roll-ups in step with the status history. ComponentsRepo calls
 * `onHistoryWritten` inside the same transaction as every history insert (new component, status
 * change, import), so the roll-ups can never disagree with the history they summarise.
 */
import type { Db } from '../../db/client.ts'
import { StatusHistoryReader } from '../components/service.ts'
import { AnalyticsRepo } from './repo.ts'
import { dayOf, rollUp, startOfDayNumber } from './rollup.ts'

/**
 * Recomputes the roll-up rows of a component from the day of `fromAt` (or from its last known
 * change, if earlier) onward. A live status change touches the days since the previous change;
 * an import of old history rewrites the days from its earliest entry; a correction (which may
 * remove changes) the days from the start of its span, and the rows after the change now last go.
 */
export async function refreshStatusRollup(db: Db, componentId: number, fromAt: number): Promise<void> {
  const repo = new AnalyticsRepo(db)
  const history = new StatusHistoryReader(db)
  const page = await repo.componentPageId(componentId)
  if (!page) return
  const cursor = await repo.cursor(componentId)
  let startDay = Math.min(dayOf(fromAt), cursor ? dayOf(cursor.since) : Infinity)
  let before = await history.changeBefore(componentId, startOfDayNumber(startDay))
  if (before?.status === 'down') {
    // An import may cut a down span that started on an earlier day: its day's longest/shortest
    // span is rewritten too.
    startDay = dayOf(before.at)
    before = await history.changeBefore(componentId, startOfDayNumber(startDay))
  }
  let previous = before ? await repo.dailyRow(componentId, startDay - 1) : undefined
  if (before && !previous) {
    // History written before roll-ups existed (or rows lost): roll up the whole history once.
    const first = await history.firstChange(componentId)
    if (!first) return
    startDay = dayOf(first.at)
    before = undefined
    previous = undefined
  }
  const entries = await history.changesFrom(componentId, startOfDayNumber(startDay))
  // The latest changes were removed (a history correction): roll up again from the change now last.
  if (entries.length === 0 && before) return refreshStatusRollup(db, componentId, before.at)
  const rows = rollUp({
    startDay,
    before: before?.status,
    cum: previous
      ? { up_ms: previous.cum_up_ms, degraded_ms: previous.cum_degraded_ms, down_ms: previous.cum_down_ms, outages: previous.cum_outages }
      : { up_ms: 0, degraded_ms: 0, down_ms: 0, outages: 0 },
    entries,
  })
  const last = entries[entries.length - 1]
  if (!last || rows.length === 0) return
  await repo.replaceDailyFrom(componentId, page.page_id, startDay, rows)
  await repo.refreshBlocksFrom(componentId, startDay)
  const firstDay = Math.min(cursor?.first_day ?? Infinity, rows[0]!.day)
  await repo.upsertCursor({ componentId, pageId: page.page_id, firstDay, status: last.status, since: last.at })
}

/** For components whose history predates the roll-ups: builds their rows once, on first read. */
export async function backfillStatusRollup(db: Db, componentId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const first = await new StatusHistoryReader(trx).firstChange(componentId)
    if (first) await refreshStatusRollup(trx, componentId, first.at)
  })
}
