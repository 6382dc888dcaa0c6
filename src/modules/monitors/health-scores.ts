/**
 * The health scores of monitors as a list or a page shows them: computed by health.ts from one read
 * of their raw results, kept per process, and scored again when a monitor has a result newer than
 * its score or the score is older than HEALTH_MAX_AGE_MS (the windows slide). At most
 * HEALTH_RECOMPUTES_PER_READ per request — never-scored first, then the oldest — so a list of many
 * monitors never pays for all of them at once (a day at 30 s is 2,880 rows a monitor); those left
 * over keep their last score until a later request.
 */
import type { Clock } from '../../lib/clock.ts'
import { DAY_MS, healthInputs, healthScore, recentWindowMs, type HealthScore } from './health.ts'
import type { MonitorsRepo } from './repo.ts'

/** A score is computed again after the monitor's next result, and at least this often (its windows slide). */
export const HEALTH_MAX_AGE_MS = 60_000
/** About 0.2–0.3 s of reading at 2,880 results a monitor (test/bench/health-score.bench.ts). */
export const HEALTH_RECOMPUTES_PER_READ = 50

/** What a score needs of a monitor, and where it is written. */
export interface Scored {
  id: number
  enabled: boolean
  lastCheckAt: number | null
  definition: { intervalSeconds: number }
  /** Null while paused, with no measured result in 24 h, or not yet scored (the per-request bound). */
  health: HealthScore | null
  /** When `health` was computed (null with it). */
  healthAt: number | null
}

export class HealthScores {
  private readonly cache = new Map<number, { computedAt: number; lastCheckAt: number | null; score: HealthScore }>()

  constructor(
    private readonly repo: MonitorsRepo,
    private readonly clock: Clock,
  ) {}

  /** Drops a monitor's score (changed, paused, resumed or deleted). */
  forget(id: number): void {
    this.cache.delete(id)
  }

  /** Fills in `health` and `healthAt` of each monitor. */
  async fill<M extends Scored>(monitors: M[]): Promise<M[]> {
    const now = this.clock.now()
    const stale = monitors
      .filter((m) => {
        if (!m.enabled) return false
        const cached = this.cache.get(m.id)
        return !cached || cached.lastCheckAt !== m.lastCheckAt || now - cached.computedAt >= HEALTH_MAX_AGE_MS || cached.computedAt > now
      })
      .sort((a, b) => (this.cache.get(a.id)?.computedAt ?? Number.MIN_SAFE_INTEGER) - (this.cache.get(b.id)?.computedAt ?? Number.MIN_SAFE_INTEGER))
      .slice(0, HEALTH_RECOMPUTES_PER_READ)
    if (stale.length > 0) {
      const byMonitor = new Map<number, Array<{ at: number; outcome: string; response_ms: number | null }>>()
      for (const row of await this.repo.resultsSince(stale.map((m) => m.id), now - DAY_MS)) {
        let list = byMonitor.get(row.monitor_id)
        if (!list) byMonitor.set(row.monitor_id, (list = []))
        list.push(row)
      }
      for (const m of stale) {
        const score = healthScore(healthInputs(byMonitor.get(m.id) ?? [], now, recentWindowMs(m.definition.intervalSeconds)))
        // Nothing to score yet is not kept: the first results count at once (an empty read is cheap).
        if (score) this.cache.set(m.id, { computedAt: now, lastCheckAt: m.lastCheckAt, score })
        else this.cache.delete(m.id)
      }
    }
    for (const m of monitors) {
      const cached = m.enabled ? this.cache.get(m.id) : undefined
      m.health = cached?.score ?? null
      m.healthAt = cached?.computedAt ?? null
    }
    return monitors
  }
}
