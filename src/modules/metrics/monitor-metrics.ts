/**
 * The monitors' figures. Totals over all monitors (bounded labels: state, type, result) are always
 * there. Series of each monitor (`monitor_id`) are there unless switched off, for at most
 * `monitorSeriesMax` enabled monitors, lowest ids first; the rest are counted as dropped.
 *
 * Where each figure comes from:
 * - state and SSL certificate expiry: the database at each scrape (the same in every process);
 * - checks by result, last success and TLS certificate expiry: each result this process records
 *   (the recorder's result hook: runs, pushes, push deadlines; probe results stay with the probes);
 * - check durations and lateness: the runs this process's scheduler starts.
 * Last success also comes from the stored last result, and from the raw results of the last day
 * the first time a monitor is scraped, so it survives a restart.
 */
import type { ResultHook } from '../monitors/run/index.ts'
import type { MonitorRow } from '../monitors/run/index.ts'
import type { SchedulerObserver } from '../monitors/run/index.ts'
import type { CheckResult } from '../monitors/kinds/index.ts'
import type { MonitorState } from '../monitors/run/index.ts'
import type { StoredMonitorType } from '../monitors/tables.ts'
import { BucketLayout, Buckets, Counts, HistogramsBy, labelText, type ExpositionWriter } from './exposition.ts'
import { FAMILY, MONITOR_DURATION_BUCKETS, MonitorSeriesWriter, OUTCOMES, outcomeIndex, WrittenLines, type MonitorFigures } from './monitor-series.ts'
import type { MetricsRepo, MonitorScrapeRow } from './repo.ts'

/** Every state of an enabled monitor (the monitors' own state type: a new state must be added here). */
const MONITOR_STATES = { pending: true, up: true, degraded: true, down: true, misconfigured: true, unreachable: true } as const satisfies Record<MonitorState, true>
/** lantern_monitors counts disabled monitors apart, as the API shows them. */
const PAUSED = 'paused'

/** Seconds; fine-grained for the totals by type. */
const DURATION_BUCKETS = new BucketLayout([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60])
/** Seconds; the scheduler looks for due runs every 250 ms. */
const LATENESS_BUCKETS = new BucketLayout([0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300])

/** One monitor's figures kept in memory. */
class Figures implements MonitorFigures {
  readonly results = new Float64Array(OUTCOMES.length)
  durations: Buckets | undefined
  lastSuccessMs: number | undefined
  certificateNotAfterMs: number | undefined
  /** The raw results were asked for a last success once. */
  lastSuccessLookedUp = false
  readonly written = new WrittenLines()
}

export interface MonitorSeriesSettings {
  /** Series labelled `monitor_id` at all. */
  monitorSeries: boolean
  /** At most this many monitors get them. */
  monitorSeriesMax: number
}

export class MonitorMetrics {
  private readonly checks = new Counts()
  private readonly durations = new HistogramsBy<StoredMonitorType>(DURATION_BUCKETS, (type) => labelText({ type }))
  private readonly lateness = new Buckets(LATENESS_BUCKETS)
  private readonly figures = new Map<number, Figures>()
  private series: MonitorSeriesWriter | undefined

  constructor(
    private readonly repo: MetricsRepo,
    private readonly settings: MonitorSeriesSettings,
  ) {}

  /** The recorder's result hook: counts the result, remembers a success and a certificate's expiry. */
  readonly resultHook: ResultHook = async (_db, monitor, result, at) => {
    this.recordResult(monitor, result, at)
  }

  /** The scheduler's observer: lateness of every run taken up, duration of every check. */
  readonly schedulerObserver: SchedulerObserver = {
    lateness: (latenessMs) => this.lateness.observe(Math.max(0, latenessMs) / 1000),
    checkStarted: (monitorId, type) => {
      const startedAt = performance.now()
      return () => {
        const seconds = (performance.now() - startedAt) / 1000
        this.durations.observe(type, seconds)
        const figures = this.figuresOf(monitorId)
        if (figures) {
          ;(figures.durations ??= new Buckets(MONITOR_DURATION_BUCKETS)).observe(seconds)
          figures.written.forget(FAMILY.durations)
        }
      }
    },
  }

  private recordResult(monitor: Pick<MonitorRow, 'id' | 'type'>, result: CheckResult, at: number): void {
    const outcome = outcomeIndex(result.outcome)
    this.checks.add(labelText({ type: monitor.type, result: result.outcome }))
    const figures = this.figuresOf(monitor.id)
    if (!figures) return
    figures.results[outcome]!++
    figures.written.forget(FAMILY.checks)
    if (result.outcome === 'ok') {
      figures.lastSuccessMs = Math.max(figures.lastSuccessMs ?? 0, at)
      figures.written.forget(FAMILY.lastSuccess)
    }
    const notAfter = certificateNotAfter(monitor.type, result)
    if (notAfter !== undefined) {
      figures.certificateNotAfterMs = notAfter
      figures.written.forget(FAMILY.certificate)
    }
  }

  /** A monitor's figures; made while there is room under the cap, never when per-monitor series are off. */
  private figuresOf(monitorId: number): Figures | undefined {
    if (!this.settings.monitorSeries) return undefined
    let figures = this.figures.get(monitorId)
    if (figures === undefined && this.figures.size < this.settings.monitorSeriesMax) this.figures.set(monitorId, (figures = new Figures()))
    return figures
  }

  async write(out: ExpositionWriter): Promise<void> {
    const rows = await this.repo.monitors()
    this.writeTotals(out, rows)
    if (!this.settings.monitorSeries) return
    const enabled = rows.filter((row) => row.enabled === 1)
    const shown = enabled.slice(0, this.settings.monitorSeriesMax)
    out.single('lantern_monitor_series_dropped', 'gauge', 'Enabled monitors beyond METRICS_MONITOR_SERIES_MAX: no series of their own (their checks still count in the lantern_monitors_ totals)', enabled.length - shown.length)
    this.followShown(shown)
    await this.lookUpLastSuccesses(shown)
    if (this.series?.constantLabels !== out.constantLabels) this.series = new MonitorSeriesWriter(out.constantLabels)
    this.series.write(out.writer, shown, (id) => this.figures.get(id)!)
  }

  /** Figures follow the monitors shown: deleted, paused or dropped monitors' figures go, new ones start empty. */
  private followShown(shown: readonly MonitorScrapeRow[]): void {
    let known = 0
    for (const row of shown) if (this.figures.has(row.id)) known++
    if (known === shown.length && known === this.figures.size) return
    const figures = new Map<number, Figures>()
    for (const row of shown) figures.set(row.id, this.figures.get(row.id) ?? new Figures())
    this.figures.clear()
    for (const [id, kept] of figures) this.figures.set(id, kept)
  }

  private writeTotals(out: ExpositionWriter, rows: readonly MonitorScrapeRow[]): void {
    const byState = new Map<string, number>([...Object.keys(MONITOR_STATES), PAUSED].map((state) => [state, 0]))
    for (const row of rows) {
      const state = row.enabled === 1 ? row.state : PAUSED
      byState.set(state, (byState.get(state) ?? 0) + 1)
    }
    out.family('lantern_monitors', 'gauge', 'Monitors by state; disabled ones as paused')
    for (const [state, count] of byState) out.sample('lantern_monitors', labelText({ state }), count)
    this.checks.write(out, 'lantern_monitors_checks_total', 'Check results recorded by this process, by monitor type and result (ok, degraded, fail)')
    this.durations.write(out, 'lantern_monitors_check_duration_seconds', "Time a check took on this process's scheduler, retries included, by monitor type")
    out.family('lantern_scheduler_lateness_seconds', 'histogram', 'How long after its due time the scheduler took up a run')
    out.histogram('lantern_scheduler_lateness_seconds', '', this.lateness)
  }

  /** Monitors whose last result is not a success learn their last success from the raw results, once. */
  private async lookUpLastSuccesses(shown: readonly MonitorScrapeRow[]): Promise<void> {
    const ids: number[] = []
    for (const row of shown) {
      const figures = this.figures.get(row.id)!
      if (figures.lastSuccessLookedUp) continue
      figures.lastSuccessLookedUp = true
      if (row.last_outcome !== 'ok') ids.push(row.id)
    }
    if (ids.length === 0) return
    for (const [id, at] of await this.repo.lastSuccesses(ids)) {
      const figures = this.figures.get(id)
      if (figures) {
        figures.lastSuccessMs = Math.max(figures.lastSuccessMs ?? 0, at)
        figures.written.forget(FAMILY.lastSuccess)
      }
    }
  }
}

/** The certificate's notAfter (ms) a TLS or SSL result reports, if readable. */
function certificateNotAfter(type: string, result: CheckResult): number | undefined {
  const validTo = type === 'tls' ? (result.details as { validTo?: unknown } | undefined)?.validTo : type === 'ssl' && result.report?.kind === 'ssl' ? result.report.validTo : undefined
  if (typeof validTo !== 'string') return undefined
  const ms = Date.parse(validTo)
  return Number.isNaN(ms) ? undefined : ms
}
