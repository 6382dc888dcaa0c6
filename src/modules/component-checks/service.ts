/**
 * Check results for components: ingestion (`POST /user/api/v1/components/:id/checks`, and later the
 * built-in monitors through `record`) and the cheap reads built on the roll-ups (see rollup.ts).
 *
 * Check results do not change a component's status: they feed response times and check-based
 * figures. The status stays what the owner (or, later, a monitor's rules) sets.
 *
 * Public reads elsewhere read the roll-ups directly: the page snapshot (status-pipeline) the per-page
 * minute sums (page_check_minutes), analytics its own response-time roll-ups. Here:
 * - `dailyBuckets(componentIds, now, days)`: per-day sums (checks, ok checks, response times).
 */
import type { Db } from '../../db/client.ts'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest } from '../../lib/errors.ts'
import { DAY_MS, parseRfc3339, utcDayStart } from '../../lib/time.ts'
import type { Owner } from '../accounts/service.ts'
import type { ComponentsService } from '../components/service.ts'
import type { ChecksRepo, ComponentBucket } from './repo.ts'
import type { CheckInput } from './model.ts'
import {
  MINUTE_RETENTION_MS,
  minuteStart,
  RAW_RETENTION_MS,
  rollUp,
  type Bucket,
  type CheckResult,
} from './rollup.ts'
import { MAX_CHECKS_PER_BATCH, MAX_RESPONSE_MS } from './types.ts'

// The domain types and limits are defined in types.ts; importers of the service find them here too.
export { MAX_CHECKS_PER_BATCH, MAX_RESPONSE_MS } from './types.ts'

/** Reported times may run a little ahead of ours (clock skew between machines). */
const FUTURE_TOLERANCE_MS = 60_000
/** Older results are refused: day buckets are kept for good, so junk would stay for good. */
const MAX_CHECK_AGE_MS = 366 * 24 * 3600_000


const bucketsOf = (componentId: number, buckets: readonly Bucket[]): ComponentBucket[] => buckets.map((bucket) => ({ ...bucket, componentId }))

/** Validates a batch; throws a 400 naming the first bad entry. */
function parseChecks(entries: readonly CheckInput[], now: number): CheckResult[] {
  if (entries.length === 0) throw badRequest('checks must contain at least one entry')
  if (entries.length > MAX_CHECKS_PER_BATCH) throw badRequest(`checks may contain at most ${MAX_CHECKS_PER_BATCH} entries`)
  return entries.map((entry, index) => {
    const at = typeof entry.at === 'string' ? parseRfc3339(entry.at) : undefined
    if (at === undefined) throw badRequest(`checks[${index}].at must be an RFC 3339 date-time with offset`)
    if (at > now + FUTURE_TOLERANCE_MS) throw badRequest(`checks[${index}].at must not be in the future`)
    if (at < now - MAX_CHECK_AGE_MS) throw badRequest(`checks[${index}].at must be within the last 366 days`)
    if (typeof entry.ok !== 'boolean') throw badRequest(`checks[${index}].ok must be true or false`)
    const ms = entry.response_ms ?? null
    if (ms !== null && !(Number.isInteger(ms) && ms >= 0 && ms <= MAX_RESPONSE_MS)) {
      throw badRequest(`checks[${index}].response_ms must be an integer from 0 to ${MAX_RESPONSE_MS} or null`)
    }
    return { at, ok: entry.ok, responseMs: ms }
  })
}

export class ChecksService {
  constructor(
    private readonly repo: ChecksRepo,
    private readonly components: ComponentsService,
    private readonly clock: Clock,
    private readonly changes: ChangeFeed,
  ) {}

  /** The owner's API: validates the batch, checks ownership (404 otherwise) and records it. */
  async ingest(owner: Owner, componentId: number, entries: readonly CheckInput[]): Promise<{ accepted: number }> {
    const component = await this.components.get(owner, componentId)
    const checks = parseChecks(entries, this.clock.now())
    await this.record(componentId, checks)
    this.changes.pageChanged(component.pageId, { resultsOnly: true })
    return { accepted: checks.length }
  }

  /**
   * Stores validated checks of one component in one transaction: raw rows (only those within the
   * raw retention), minute buckets (within the minute retention) and day buckets (always), then
   * prunes what fell out of the retention windows.
   */
  async record(componentId: number, checks: readonly CheckResult[]): Promise<void> {
    const now = this.clock.now()
    await this.repo.transaction(async (repo) => {
      await this.write(repo, [{ componentId, checks }], now, true)
      await repo.prune(componentId, now - RAW_RETENTION_MS, minuteStart(now - MINUTE_RETENTION_MS))
    })
  }

  /**
   * Checks a writer produced, stored in the writer's own transaction `trx` (the built-in monitors
   * write one such batch per tick). No pruning here: pruneAll does it on its own timer, so a busy
   * writer never waits on clean-up. `raw: false` skips the raw rows, for a writer that keeps its own
   * raw log (monitors keep monitor_results, with more in it); the buckets and read models are
   * written all the same.
   */
  async recordWithin(
    trx: Db,
    batches: ReadonlyArray<{ componentId: number; checks: readonly CheckResult[] }>,
    options: { raw?: boolean } = {},
  ): Promise<void> {
    await this.write(this.repo.within(trx), batches, this.clock.now(), options.raw !== false)
  }

  /**
   * Raw rows (those within the raw retention), minute buckets (within the minute retention) and day
   * buckets (always), then the read models. Every component's buckets go in one statement per table
   * (and hundred buckets), and the read models hear the whole batch at once: with many components
   * the per-tick write was mostly a few statements per component.
   */
  private async write(repo: ChecksRepo, batches: ReadonlyArray<{ componentId: number; checks: readonly CheckResult[] }>, now: number, raw: boolean) {
    const rawFrom = now - RAW_RETENTION_MS
    const minutesFrom = minuteStart(now - MINUTE_RETENTION_MS)
    // One entry per component: a component twice in one upsert is an error on PostgreSQL.
    const byComponent = new Map<number, CheckResult[]>()
    for (const { componentId, checks } of batches) if (checks.length > 0) byComponent.set(componentId, [...(byComponent.get(componentId) ?? []), ...checks])
    const filled = [...byComponent].map(([componentId, checks]) => ({ componentId, checks }))
    const minutes: ComponentBucket[] = []
    const days: ComponentBucket[] = []
    for (const { componentId, checks } of filled) {
      if (raw) await repo.insertRaw(componentId, checks.filter((c) => c.at >= rawFrom))
      minutes.push(...bucketsOf(componentId, rollUp(checks, minuteStart).filter((b) => b.start >= minutesFrom)))
      days.push(...bucketsOf(componentId, rollUp(checks, utcDayStart)))
    }
    await repo.addBuckets('check_minutes', minutes)
    await repo.addBuckets('check_days', days)
    await repo.recorded(filled)
  }

  /** Deletes raw rows and minute buckets of every component that fell out of retention. */
  async pruneAll(): Promise<void> {
    const now = this.clock.now()
    await this.repo.pruneAll(now - RAW_RETENTION_MS, minuteStart(now - MINUTE_RETENTION_MS))
  }

  /** Day buckets (summed over the components) for the `days` UTC days ending with today, oldest first. */
  async dailyBuckets(componentIds: readonly number[], now: number, days: number): Promise<Bucket[]> {
    const from = utcDayStart(now) - (days - 1) * DAY_MS
    const rows = await this.repo.buckets('check_days', componentIds, from, utcDayStart(now) + DAY_MS)
    const out: Bucket[] = Array.from({ length: days }, (_, i) => ({
      start: from + i * DAY_MS,
      checks: 0,
      okChecks: 0,
      timedChecks: 0,
      responseMsSum: 0,
      responseMsMax: null,
    }))
    for (const row of rows) {
      const bucket = out[Math.floor((row.start - from) / DAY_MS)]
      if (!bucket) continue
      bucket.checks += row.checks
      bucket.okChecks += row.okChecks
      bucket.timedChecks += row.timedChecks
      bucket.responseMsSum += row.responseMsSum
      if (row.responseMsMax !== null) bucket.responseMsMax = Math.max(bucket.responseMsMax ?? 0, row.responseMsMax)
    }
    return out
  }

  /** Raw rows kept for a component (for tests and diagnostics). */
  async rawCount(componentId: number): Promise<number> {
    return Number((await this.repo.countRaw(componentId)).n)
  }
}
