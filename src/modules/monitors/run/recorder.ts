/**
 * Writes what monitors found, many at once: in ONE transaction per batch it reads the monitors'
 * current rows, moves their state with nextState, logs the raw results, records state changes,
 * sets the next run, stores SSL/DNSBL reports and emits their events (tool-state.ts), and feeds the component check store (so sparklines, uptime bars, analytics and
 * badges follow monitors with no second path). After the commit, a component whose monitor changed
 * state takes the worst of its monitors' states through the components service's own status write.
 *
 * A run the configuration refused (outcome `misconfigured`) is logged and moves the monitor's state,
 * but never touches a component: no check goes to the component's store and a change into the
 * misconfigured state refreshes no component status and tells no listener (automatic incidents).
 *
 * Regions (regions.ts, region-state.ts): a monitor that lists regions besides `local` keeps a state
 * per region; the server's runs are region `local`, a probe's results ('probe' events, from
 * src/modules/probes) their own region, and the monitor's state is the k-of-n aggregate, which is
 * all that components, incidents and check roll-ups see. Monitors with only `local` (the default)
 * are recorded exactly as before.
 *
 * A run is recorded at most once: a run scheduled before the monitor's stored next run was already
 * recorded (or overtaken by a pause and resume), so it is dropped. That makes a stop, a restart or
 * a second scheduler unable to double a run.
 */
import type { Db } from '../../../db/client.ts'
import type { ChangeFeed } from '../../../lib/change-feed.ts'
import type { Clock } from '../../../lib/clock.ts'
import type { ChecksService } from '../../component-checks/service.ts'
import type { ComponentsService } from '../../components/service.ts'
import type { ComponentStatus } from '../../components/tables.ts'
import type { NotifyCause } from '../../notify/contract.ts'
import { componentStatusFromMonitors } from './component-status.ts'
import { MonitorsRepo, type MonitorRow, type RegionStateRow } from '../repo.ts'
import type { CheckResult } from '../kinds/spec.ts'
import { recordToolReport, type EventSink } from '../tool-state.ts'
import { stepOf, type LoggedResult, type MonitorEvent } from './record-steps.ts'
import { BatchParents } from './dependency-batch.ts'
import { isLocalOnly } from './regions.ts'
import type { MonitorState } from './state.ts'

export { nextRunAfter, pushClockOf, snapshotOf, type MonitorEvent } from './record-steps.ts'

/**
 * Raw results older than this are deleted (documented in src/content/docs/monitors.md): 1,000
 * monitors at 30 s write 2.88 M rows a day, so raw results are kept one day; the minute buckets
 * (2 days) and day buckets (for good) of the check store keep the figures.
 */
export const RESULT_RETENTION_MS = 24 * 3_600_000

/** Hears a monitored component's confirmed state after a run changed it (automatic incidents). */
export interface ConfirmedStateListener {
  confirmedState(componentId: number, status: ComponentStatus, cause?: NotifyCause): Promise<unknown>
}
/**
 * Called in the recorder's transaction after a run's result is written (the row as it was read):
 * a monitor type's own bookkeeping and notices (e.g. email-auth changes) ride the same commit.
 */
export type ResultHook = (db: Db, monitor: MonitorRow, result: CheckResult, at: number) => Promise<void>

/** A monitor's confirmed state changed: `cause` is shared with what its component's change causes. */
export interface MonitorStateChange {
  monitorId: number
  ownerId: number
  pageId: number | null
  from: MonitorState
  to: MonitorState
  at: number
  /** When the state it left began. */
  previousSince: number
  cause: NotifyCause
}
/** Hears each state change in the recorder's transaction (the monitor's own alerts). */
export type StateChangeHook = (db: Db, change: MonitorStateChange) => Promise<void>

/** What the recorder writes through and who hears of it. */
export interface MonitorRecorderOptions {
  repo: MonitorsRepo
  /** The component check store (minute and day roll-ups, analytics). */
  checks: ChecksService
  components: ComponentsService
  clock: Clock
  changes: ChangeFeed
  /** Hears a component's confirmed state after a run changed it (automatic incidents). */
  listener?: ConfirmedStateListener
  /** SSL and DNSBL events (certificate.expiring/renewed, dnsbl.listed/delisted) go here, in the transaction. */
  events?: EventSink
}

export class MonitorRecorder {
  private readonly resultHooks: ResultHook[] = []
  private readonly stateHooks: StateChangeHook[] = []

  constructor(private readonly deps: MonitorRecorderOptions) {}

  /** Registers a hook (composition root). */
  onResult(hook: ResultHook): this {
    this.resultHooks.push(hook)
    return this
  }

  /** Registers a hook for confirmed state changes (composition root). */
  onStateChange(hook: StateChangeHook): this {
    this.stateHooks.push(hook)
    return this
  }

  /**
   * Records the events in one transaction of its own, each event's step (record-steps.ts) written
   * in order; after the commit, changed components get their status, then the automation hears it.
   * Answers each monitor's next run (absent: drop it from the schedule).
   */
  async record(events: readonly MonitorEvent[]): Promise<Map<number, number>> {
    const nextRuns = new Map<number, number>()
    if (events.length === 0) return nextRuns
    const changedComponents = new Set<number>()
    /** Per component, the monitors whose state changed in this batch: what its notifications name. */
    const changedMonitors = new Map<number, number[]>()
    const touchedPages = new Set<number>()
    /** One cause per changed component, and one per changed monitor without a component change. */
    const componentCauses = new Map<number, NotifyCause>()
    const monitorCauses: NotifyCause[] = []
    await this.deps.repo.db.transaction().execute(async (trx) => {
      const repo = new MonitorsRepo(trx)
      const rows = new Map((await repo.findMany([...new Set(events.map((e) => e.monitorId))])).map((row) => [row.id, row]))
      // Monitors with regions besides `local` keep a state per region (region-state.ts).
      const regionStates = await repo.regionStates([...rows.values()].filter((row) => !isLocalOnly(row)).map((row) => row.id))
      const statesOf = (id: number) => {
        let states = regionStates.get(id)
        if (!states) regionStates.set(id, (states = new Map()))
        return states
      }
      // Parents (dependencies.ts): a child of a monitor that is down is unreachable.
      const parents = await BatchParents.load(trx, rows)
      // Each region's newest state, written once at the end of the batch.
      const regionWrites = new Map<string, RegionStateRow>()
      const results: LoggedResult[] = []
      const stateChanges: Array<{ monitor_id: number; state: string; at: number }> = []
      const moves: Array<Omit<MonitorStateChange, 'cause'> & { componentId: number | null }> = []
      const checksByComponent = new Map<number, Array<{ at: number; ok: boolean; responseMs: number | null }>>()
      for (const event of events) {
        const row = rows.get(event.monitorId)
        if (!row || row.enabled !== 1) continue
        const now = this.deps.clock.now()
        const step = parents.judge(row, stepOf(row, event, statesOf, now), now)
        if (!step) continue
        if (step.nextRunAt !== undefined) nextRuns.set(row.id, step.nextRunAt)
        if (!step.changes) continue
        await repo.update(row.id, step.changes)
        if (step.report) {
          await recordToolReport(trx, step.report, { monitorId: row.id, ownerId: row.owner_id, pageId: row.page_id, target: row.target ?? '' }, now, this.deps.events)
        }
        // The hooks see the row as it was read.
        if (step.ownResult) for (const hook of this.resultHooks) await hook(trx, row, step.ownResult, now)
        if (step.changedTo !== undefined) {
          moves.push({ monitorId: row.id, ownerId: row.owner_id, pageId: row.page_id, from: row.state, to: step.changedTo, at: now, previousSince: row.state_since, componentId: step.componentChanged ? row.component_id : null })
        }
        // Later events of the same monitor in this batch build on this one.
        Object.assign(row, step.changes)
        if (step.regionRow) regionWrites.set(`${row.id} ${step.regionRow.region}`, step.regionRow)
        if (step.logged) results.push(step.logged)
        if (step.changedTo !== undefined) stateChanges.push({ monitor_id: row.id, state: step.changedTo, at: now })
        if (row.component_id !== null) {
          if (step.componentCheck) {
            const checks = checksByComponent.get(row.component_id)
            if (checks) checks.push(step.componentCheck)
            else checksByComponent.set(row.component_id, [step.componentCheck])
          }
          if (step.componentChanged) changedComponents.add(row.component_id)
          if (step.pageTouched && row.page_id !== null) touchedPages.add(row.page_id)
        }
      }
      for (const change of await parents.propagate(moves, this.deps.clock.now())) {
        moves.push({ ...change, componentId: null })
        stateChanges.push({ monitor_id: change.monitorId, state: change.to, at: change.at })
      }
      await repo.saveRegionStates([...regionWrites.values()])
      await repo.insertResults(results)
      await repo.insertStateChanges(stateChanges)
      for (const change of stateChanges) {
        const componentId = rows.get(change.monitor_id)?.component_id ?? null
        if (componentId !== null) changedMonitors.set(componentId, [...(changedMonitors.get(componentId) ?? []), change.monitor_id])
      }
      // The monitors' own alerts, held under the cause their component's events will share.
      for (const componentId of changedComponents) {
        componentCauses.set(componentId, { key: `monitors:${componentId}:${crypto.randomUUID()}`, monitorIds: [...new Set(changedMonitors.get(componentId))] })
      }
      for (const move of moves) {
        const { componentId, ...change } = move
        let cause = componentId === null ? undefined : componentCauses.get(componentId)
        if (!cause) monitorCauses.push((cause = { key: `monitor:${move.monitorId}:${crypto.randomUUID()}`, monitorIds: [move.monitorId] }))
        for (const hook of this.stateHooks) await hook(trx, { ...change, cause })
      }
      // The component check store, in the same transaction. The raw log is monitor_results: one raw row per result, not two.
      await this.deps.checks.recordWithin(trx, [...checksByComponent].map(([componentId, checks]) => ({ componentId, checks })), { raw: false })
    })
    for (const componentId of changedComponents) {
      // What one change causes (the component's status, the automatic incident) is one message per channel.
      const cause = componentCauses.get(componentId)!
      try {
        const status = await this.refreshComponent(componentId, cause)
        if (status !== null) await this.deps.listener?.confirmedState(componentId, status, cause)
      } finally {
        await this.deps.events?.flush?.(cause.key)
      }
    }
    for (const cause of monitorCauses) await this.deps.events?.flush?.(cause.key)
    // A status change was published by applyMonitorStatus; what is left is new results.
    for (const pageId of touchedPages) this.deps.changes.pageChanged(pageId, { resultsOnly: true })
    return nextRuns
  }

  /** Gives the component the worst state of its monitors (unless the owner overrides it). */
  async refreshComponent(componentId: number, cause?: NotifyCause): Promise<ComponentStatus | null> {
    const status = componentStatusFromMonitors(await this.deps.repo.componentMonitorStates(componentId))
    if (status !== null) await this.deps.components.applyMonitorStatus(componentId, status, cause)
    return status
  }

  /** Deletes raw results past the retention, in small transactions so a run's writes never wait long. */
  async prune(batchSize = 5_000): Promise<number> {
    const before = this.deps.clock.now() - RESULT_RETENTION_MS
    let total = 0
    for (;;) {
      const deleted = await this.deps.repo.pruneResults(before, batchSize)
      total += deleted
      if (deleted < batchSize) return total
      // Let the scheduler's writes in between two deletes.
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  }
}
