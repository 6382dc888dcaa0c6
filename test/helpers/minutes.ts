/**
 * The mean response time per minute of some components, straight from their minute buckets (the
 * checks repo and the pure `meanSeries`): the per-component answer tests compare the per-page
 * roll-up against, and check ingestion against.
 */
import type { Db } from '../../src/db/client.ts'
import { MINUTE_MS } from '../../src/lib/time.ts'
import { ChecksRepo } from '../../src/modules/component-checks/repo.ts'
import { meanSeries, minuteStart } from '../../src/modules/component-checks/rollup.ts'

/** For the `minutes` minutes ending with the one of `now` (oldest first), null where nothing was timed. */
export async function minuteMeans(db: Db, componentIds: readonly number[], now: number, minutes: number): Promise<Array<number | null>> {
  const from = minuteStart(now) - (minutes - 1) * MINUTE_MS
  const buckets = await new ChecksRepo(db).buckets('check_minutes', componentIds, from, minuteStart(now) + MINUTE_MS)
  return meanSeries(buckets, from, MINUTE_MS, minutes)
}
