/**
 * The owner's monitors: create, change, pause, resume, delete (with ownership and plan limits),
 * their recent results and availability, and the push endpoint's side. Runs belong to the
 * scheduler (scheduler.ts); every write of a result goes through the recorder.
 */
import { AddressRefused, canonicalHost, isIpLiteral, type AddressGuard } from '../../lib/address-guard.ts'
import type { Clock } from '../../lib/clock.ts'
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import type { ComponentsService } from '../components/service.ts'
import { monitorLimits, planHas, planLabel } from '../plans/matrix.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import { availability, type Availability, type AvailabilityPeriod } from './availability.ts'
import { assertRunnable, connectedHost, defaultIntervalSeconds, mergeDefinition, pushGraceSeconds, type MonitorDefinition, type MonitorInput, type MonitorOptions, type MonitorPlacement } from './definition.ts'
import { parsePushQuery, pushCronOf, pushDeadline, pushResult } from './run/push.ts'
import { pushClockOf } from './run/record-steps.ts'
import type { HealthScore } from './health.ts'
import { HealthScores } from './health-scores.ts'
import type { MonitorRecorder } from './run/recorder.ts'
import type { MonitorRow, MonitorsRepo } from './repo.ts'
import type { MonitorState } from './run/state.ts'
import { reportForPlan } from './kinds/ssl-report.ts'
import { clearToolState, readToolReport, type StoredToolReport } from './tool-state.ts'

export { AVAILABILITY_PERIODS, type Availability, type AvailabilityPeriod } from './availability.ts'
export type { MonitorRow, MonitorsRepo } from './repo.ts'
export type { StoredToolReport } from './tool-state.ts'
export { mergeDefinition, type MonitorDefinition, type MonitorInput } from './definition.ts'

/** The definition a create makes of `input`: the type's defaults and the plan's default interval. Pure; throws the API's 400s. */
export function definitionForCreate(input: MonitorInput, planMinimumSeconds: number): MonitorDefinition {
  return mergeDefinition(undefined, { ...(input.type === 'email_auth' ? EMAIL_AUTH_DEFAULTS : {}), ...input, interval_seconds: input.interval_seconds ?? defaultIntervalSeconds(input.type, planMinimumSeconds) })
}

/** A definition in the API's field names with every field given: a create or update of it makes the same definition. */
export function inputOfDefinition(d: MonitorDefinition): MonitorInput & { name: string; type: MonitorDefinition['type'] } {
  return {
    name: d.name,
    type: d.type,
    target: d.target,
    interval_seconds: d.intervalSeconds,
    timeout_ms: d.timeoutMs,
    retries: d.retries,
    retry_interval_seconds: d.retryIntervalMs / 1000,
    confirm_failures: d.confirmFailures,
    confirm_successes: d.confirmSuccesses,
    degraded_after_ms: d.degradedAfterMs,
    regions: [...d.regions],
    regions_required_down: d.regionsRequiredDown,
    ...structuredClone(d.options),
  }
}
import type { Selectable } from 'kysely'
import type { MonitorResultsTable } from './tables.ts'
import { EMAIL_AUTH_DEFAULTS } from './kinds/email-auth/monitor.ts'
import { PING_UNAVAILABLE_FIX } from './kinds/index.ts'
import { isLocalOnly, isStale, LOCAL_REGION, regionsOf, type RegionView } from './run/regions.ts'
import { DependencyRepo } from './dependency-repo.ts'
import { closesCycle, MAX_PARENTS, parentFacts, parentsText, parentVerdict } from './run/dependencies.ts'

/** Which regions exist: `local` and those with a live probe token (src/modules/probes). */
export interface RegionDirectory {
  liveRegions(): Promise<string[]>
}

/** One raw check result as stored (kept 24 h): what the results API and the detail screen show. */
export type MonitorResultRow = Selectable<MonitorResultsTable>

export interface Monitor {
  id: number
  ownerId: number
  definition: MonitorDefinition
  enabled: boolean
  componentId: number | null
  pageId: number | null
  pageSlug: string | null
  state: MonitorState | 'paused'
  /**
   * While misconfigured: why its runs are refused and the fix (the refused run's message); while
   * unreachable: which parents are down; else null.
   */
  stateReason: string | null
  /** The monitors it depends on, as they are now. */
  parents: Array<{ id: number; name: string; state: MonitorState | 'paused' }>
  /** Its last run failed, but it waits for these parents (checking too) before it is down. */
  waitingFor: Array<{ id: number; name: string }>
  stateSince: number
  flapping: boolean
  nextRunAt: number | null
  lastCheckAt: number | null
  lastOutcome: string | null
  lastResponseMs: number | null
  lastMessage: string | null
  lastPushAt: number | null
  /** Null while paused, with no measured result in 24 h (health.ts), or not yet scored (the per-request bound). */
  health: HealthScore | null
  /** When `health` was computed (null with it). */
  healthAt: number | null
  createdAt: number
  updatedAt: number
}

export const PUSH_PATH = '/api/push/'

/** A deterministic offset into the interval from the id: first runs spread evenly, and the same after a restart. */
export function phaseOffsetMs(id: number, intervalMs: number): number {
  let h = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  h ^= h >>> 16
  return (h >>> 0) % intervalMs
}

export function definitionOf(row: MonitorRow): MonitorDefinition {
  return {
    name: row.name,
    type: row.type,
    target: row.target,
    intervalSeconds: row.interval_s,
    timeoutMs: row.timeout_ms,
    retries: row.retries,
    retryIntervalMs: row.retry_interval_ms,
    confirmFailures: row.confirm_failures,
    confirmSuccesses: row.confirm_successes,
    degradedAfterMs: row.degraded_after_ms,
    options: JSON.parse(row.options_json) as MonitorOptions,
    regions: regionsOf(row),
    regionsRequiredDown: row.regions_required_down,
  }
}

function toMonitor(row: MonitorRow): Monitor {
  const enabled = row.enabled === 1
  return {
    id: row.id,
    ownerId: row.owner_id,
    definition: definitionOf(row),
    enabled,
    componentId: row.component_id,
    pageId: row.page_id,
    pageSlug: row.page_slug,
    state: enabled ? row.state : 'paused',
    stateReason: enabled && row.state === 'misconfigured' ? row.last_message : null,
    parents: [],
    waitingFor: [],
    stateSince: row.state_since,
    flapping: row.flapping === 1,
    nextRunAt: enabled ? row.next_run_at : null,
    lastCheckAt: row.last_check_at,
    lastOutcome: row.last_outcome,
    lastResponseMs: row.last_response_ms,
    lastMessage: row.last_message,
    lastPushAt: row.last_push_at,
    health: null,
    healthAt: null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

const definitionColumns = (d: MonitorDefinition) => ({
  name: d.name,
  type: d.type,
  target: d.target,
  options_json: JSON.stringify(d.options),
  interval_s: d.intervalSeconds,
  timeout_ms: d.timeoutMs,
  retries: d.retries,
  retry_interval_ms: d.retryIntervalMs,
  confirm_failures: d.confirmFailures,
  confirm_successes: d.confirmSuccesses,
  degraded_after_ms: d.degradedAfterMs,
  regions_json: JSON.stringify(d.regions),
  regions_required_down: d.regionsRequiredDown,
})

/** How long a save waits for the target's name to resolve before it saves with a warning. */
export const SAVE_RESOLVE_TIMEOUT_MS = 3_000

export { HEALTH_MAX_AGE_MS, HEALTH_RECOMPUTES_PER_READ } from './health-scores.ts'

export interface MonitorsServiceDeps {
  repo: MonitorsRepo
  pages: StatusPagesService
  components: ComponentsService
  recorder: MonitorRecorder
  guard: AddressGuard
  clock: Clock
  /** Where probes in other regions are known; without it only `local` runs. */
  regionDirectory?: RegionDirectory
  /** Whether this server can send ICMP (ping monitors are refused with the reason when not). */
  pingSupport?: () => Promise<{ ok: true } | { ok: false; reason: string }>
}

export class MonitorsService {
  private readonly healthScores: HealthScores
  private readonly dependencies: DependencyRepo

  constructor(private readonly deps: MonitorsServiceDeps) {
    this.healthScores = new HealthScores(deps.repo, deps.clock)
    this.dependencies = new DependencyRepo(deps.repo.db)
  }

  /** Regions a monitor may list: `local` and every region with a live probe token. */
  async availableRegions(): Promise<string[]> {
    return [LOCAL_REGION, ...((await this.deps.regionDirectory?.liveRegions()) ?? []).filter((r) => r !== LOCAL_REGION)]
  }

  /** A 400 naming a region nobody runs; regions the monitor already had stay allowed (a revoked token does not lock the monitor). */
  private async checkRegions(definition: MonitorDefinition, current: MonitorDefinition | undefined): Promise<void> {
    const added = definition.regions.filter((r) => !(current?.regions ?? [LOCAL_REGION]).includes(r))
    if (added.length === 0) return
    const known = new Set(await this.availableRegions())
    const unknown = added.find((r) => !known.has(r))
    if (unknown !== undefined) throw badRequest(`regions: unknown region "${unknown}": create a probe token for it first (lantern probe-token create --region ${unknown}); known: ${[...known].join(', ')}`)
  }

  async list(owner: Owner): Promise<Monitor[]> {
    const rows = await this.deps.repo.listByOwner(owner.id)
    return this.healthScores.fill(await this.withParents(rows))
  }

  async get(owner: Owner, id: number): Promise<Monitor> {
    return (await this.healthScores.fill(await this.withParents([await this.owned(owner, id)])))[0]!
  }

  /** The monitors of `rows` with their parents, why they are unreachable, and whom they wait for. */
  private async withParents(rows: readonly MonitorRow[]): Promise<Monitor[]> {
    const parentIds = await this.dependencies.parentsOf(rows.map((row) => row.id))
    const known = new Map(rows.map((row) => [row.id, row]))
    const missing = [...new Set([...parentIds.values()].flat())].filter((id) => !known.has(id))
    for (const row of await this.deps.repo.findMany(missing)) known.set(row.id, row)
    const now = this.deps.clock.now()
    return rows.map((row) => {
      const monitor = toMonitor(row)
      const parents = (parentIds.get(row.id) ?? []).map((id) => known.get(id)).filter((parent) => parent !== undefined)
      if (parents.length === 0) return monitor
      monitor.parents = parents.map((parent) => ({ id: parent.id, name: parent.name, state: parent.enabled === 1 ? parent.state : 'paused' }))
      if (!monitor.enabled) return monitor
      const verdict = parentVerdict(parents.map(parentFacts), { intervalMs: row.interval_s * 1000, confirmFailures: row.confirm_failures }, now)
      if (row.state === 'unreachable') {
        monitor.stateReason = verdict.kind === 'unreachable' ? parentsText(verdict.parents) : 'its parents are back; its next check decides its state'
      } else if (verdict.kind === 'wait' && row.last_outcome === 'fail' && row.state !== 'down') {
        monitor.waitingFor = verdict.parents.map((parent) => ({ id: parent.id, name: parent.name }))
      }
      return monitor
    })
  }

  /**
   * A tag of what the monitors screens show of the owner's monitors (of one with `id`): it changes
   * with every result and state change and with the parents' states. The live screens poll with it
   * as ETag, so an unchanged screen costs one read and a 304; it comes from the database every app
   * server shares, so it holds behind a proxy that spreads the polls over several servers.
   */
  async liveTag(owner: Owner, id?: number): Promise<string> {
    const rows = id === undefined ? await this.deps.repo.listByOwner(owner.id) : [await this.owned(owner, id)]
    const text = (await this.withParents(rows))
      .map((m) => [m.id, m.state, m.stateSince, m.flapping, m.lastCheckAt, m.updatedAt, m.stateReason, m.parents.map((p) => `${p.id}.${p.state}`).join(' '), m.waitingFor.map((p) => p.id).join(' ')].join(':'))
      .join('|')
    return `W/"${(await sha256Hex(text)).slice(0, 24)}"`
  }

  /**
   * The parents as given (deduplicated), each one of the owner's monitors (404 otherwise, as for
   * any monitor of someone else), none the monitor itself or depending on it (400: a cycle).
   */
  private async checkParents(owner: Owner, id: number | undefined, raw: readonly number[] | undefined): Promise<number[] | undefined> {
    if (raw === undefined) return undefined
    const parents = [...new Set(raw)]
    if (parents.length > MAX_PARENTS) throw badRequest(`parents must list at most ${MAX_PARENTS} monitors`)
    for (const parentId of parents) {
      if (!Number.isSafeInteger(parentId) || parentId < 1) throw badRequest('parents must list monitor ids')
      if (parentId === id) throw badRequest('parents: a monitor cannot depend on itself')
      await this.owned(owner, parentId).catch((error: unknown) => {
        throw error instanceof HttpError && error.status === 404 ? notFound(`parents: no monitor ${parentId} of yours`) : error
      })
    }
    if (id === undefined || parents.length === 0) return parents
    // Everything the new parents depend on, upwards: the monitor among them would close a cycle.
    const edges = new Map<number, number[]>()
    let frontier = parents
    while (frontier.length > 0) {
      const found = await this.dependencies.parentsOf(frontier)
      for (const child of frontier) edges.set(child, found.get(child) ?? [])
      frontier = [...new Set([...found.values()].flat())].filter((parent) => !edges.has(parent))
    }
    const cycle = parents.find((parent) => closesCycle(id, [parent], (child) => edges.get(child) ?? []))
    if (cycle !== undefined) {
      const name = (await this.deps.repo.find(cycle))?.name ?? String(cycle)
      throw badRequest(`parents: "${name}" depends on this monitor already (directly or through its own parents), so it cannot be its parent too: that would be a cycle`)
    }
    return parents
  }

  /**
   * Resolves the target's host name as its runs will (the same guard and resolver) and refuses it
   * as a literal address is refused: a 400 naming the address and the setting. A name that does not
   * resolve now is saved with a warning (its DNS may come later); its runs fail until it resolves.
   */
  /** Why this server cannot send ICMP (with the TCP alternative), or null when it can. */
  async pingUnavailable(): Promise<string | null> {
    const support = this.deps.pingSupport ? await this.deps.pingSupport() : { ok: true as const }
    return support.ok ? null : `${support.reason}; ${PING_UNAVAILABLE_FIX}`
  }

  /** A ping monitor on a server that cannot ping would never run: a 400 with the reason and the TCP alternative. */
  private async assertPingWorks(definition: MonitorDefinition): Promise<void> {
    if (definition.type !== 'ping' || !this.deps.pingSupport) return
    const why = await this.pingUnavailable()
    if (why) throw badRequest(`type: ${why}`)
  }

  private async checkTargetAddress(definition: MonitorDefinition): Promise<string[]> {
    const host = connectedHost(definition)
    if (host === null || isIpLiteral(canonicalHost(host) ?? '')) return []
    try {
      await this.deps.guard.check(host, AbortSignal.timeout(SAVE_RESOLVE_TIMEOUT_MS))
      return []
    } catch (error) {
      if (error instanceof AddressRefused && error.kind !== 'unresolved') throw badRequest(`target: ${error.message}`)
      const why = error instanceof AddressRefused ? error.message : `${canonicalHost(host) ?? host} did not resolve within ${SAVE_RESOLVE_TIMEOUT_MS / 1000} s`
      return [`target: ${why}; saved anyway, and its runs count as down until the name resolves`]
    }
  }

  /**
   * Creates a monitor; a push monitor's token comes back once, here, and is stored only as a hash.
   * `warnings`: what was saved but needs the owner's eye (a target name that does not resolve yet).
   */
  async create(owner: Owner, input: MonitorInput & MonitorPlacement & { enabled?: boolean }): Promise<{ monitor: Monitor; pushToken?: string; warnings: string[] }> {
    const limits = monitorLimits(owner.plan)
    const definition = definitionForCreate(input, limits.minIntervalSeconds)
    const count = await this.deps.repo.countByOwner(owner.id)
    if (limits.maxMonitors !== null && count >= limits.maxMonitors) {
      throw forbidden(`the ${planLabel(owner.plan)} plan allows ${limits.maxMonitors} monitors and you have ${count}`)
    }
    this.checkInterval(owner, definition)
    assertRunnable(definition, this.deps.guard)
    await this.assertPingWorks(definition)
    await this.checkRegions(definition, undefined)
    const placement = await this.placement(owner, input, undefined)
    const parents = await this.checkParents(owner, undefined, input.parents)
    const warnings = await this.checkTargetAddress(definition)
    const pushToken = definition.type === 'push' ? randomToken(24) : undefined
    const now = this.deps.clock.now()
    const enabled = input.enabled ?? true
    const id = await this.deps.repo.transaction(async (repo) => {
      const id = await repo.insert({
        owner_id: owner.id,
        ...placement,
        ...definitionColumns(definition),
        enabled: enabled ? 1 : 0,
        state: 'pending',
        state_since: now,
        flapping: 0,
        history: '',
        watching_since: now,
        next_run_at: now,
        push_token_hash: pushToken ? await sha256Hex(pushToken) : null,
        created_at: now,
        updated_at: now,
      })
      await repo.update(id, { next_run_at: this.firstRunAt(id, definition, now) })
      await repo.insertStateChanges([{ monitor_id: id, state: enabled ? 'pending' : 'paused', at: now }])
      if (parents?.length) await new DependencyRepo(repo.db).setParents(id, parents)
      return id
    })
    return { monitor: await this.get(owner, id), ...(pushToken ? { pushToken } : {}), warnings }
  }

  /** Changes a monitor; a new target (or type) is resolved and checked as on creation. */
  async update(owner: Owner, id: number, input: MonitorInput & MonitorPlacement): Promise<{ monitor: Monitor; warnings: string[] }> {
    const row = await this.owned(owner, id)
    const current = definitionOf(row)
    const definition = mergeDefinition(current, input)
    if (definition.intervalSeconds !== current.intervalSeconds) this.checkInterval(owner, definition)
    assertRunnable(definition, this.deps.guard)
    await this.assertPingWorks(definition)
    await this.checkRegions(definition, current)
    const placement = await this.placement(owner, input, row)
    const parents = await this.checkParents(owner, id, input.parents)
    const warnings = definition.type !== current.type || definition.target !== current.target ? await this.checkTargetAddress(definition) : []
    const now = this.deps.clock.now()
    this.healthScores.forget(id)
    await this.deps.repo.update(id, {
      ...definitionColumns(definition),
      ...placement,
      // A check of another kind starts over: its old state says nothing about the new target.
      // Other regions: the monitor's own run history no longer describes what decides its state.
      ...(definition.regions.join() !== current.regions.join() ? { history: '' } : {}),
      ...(definition.type !== current.type || definition.target !== current.target ? { state: 'pending' as const, state_since: now, history: '', flapping: 0 } : {}),
      // A push monitor's deadline follows its new schedule, grace or interval at once.
      ...(definition.type === 'push' && row.enabled === 1 ? { next_run_at: pushDeadline(pushClockOf({ ...row, interval_s: definition.intervalSeconds, options_json: JSON.stringify(definition.options) })) + 1 } : {}),
      updated_at: now,
    })
    if (parents !== undefined) await this.dependencies.setParents(id, parents)
    if (definition.type !== current.type || definition.target !== current.target) {
      await clearToolState(this.deps.repo.db, id)
      await this.deps.repo.clearRegionStates(id, [])
    } else if (definition.regions.join() !== current.regions.join()) await this.deps.repo.clearRegionStates(id, definition.regions)
    // Both the component it left and the one it joined take their monitors' worst state again.
    if (row.component_id !== placement.component_id) {
      for (const componentId of [row.component_id, placement.component_id]) if (componentId !== null) await this.deps.recorder.refreshComponent(componentId)
    }
    return { monitor: await this.get(owner, id), warnings }
  }

  async setEnabled(owner: Owner, id: number, enabled: boolean): Promise<Monitor> {
    const row = await this.owned(owner, id)
    if ((row.enabled === 1) === enabled) return this.get(owner, id)
    this.healthScores.forget(id)
    const now = this.deps.clock.now()
    const definition = definitionOf(row)
    await this.deps.repo.transaction(async (repo) => {
      await repo.update(id, {
        enabled: enabled ? 1 : 0,
        // Resumed: a fresh start, so a stale state or a push deadline from before the pause counts for nothing.
        ...(enabled ? { state: 'pending' as const, state_since: now, history: '', flapping: 0, watching_since: now, next_run_at: this.firstRunAt(id, definition, now) } : {}),
        updated_at: now,
      })
      await repo.insertStateChanges([{ monitor_id: id, state: enabled ? 'pending' : 'paused', at: now }])
      // Each region starts over too.
      if (enabled) await repo.clearRegionStates(id, [])
    })
    if (row.component_id !== null) await this.deps.recorder.refreshComponent(row.component_id)
    return this.get(owner, id)
  }

  async delete(owner: Owner, id: number): Promise<void> {
    const row = await this.owned(owner, id)
    this.healthScores.forget(id)
    await this.deps.repo.delete(id)
    if (row.component_id !== null) await this.deps.recorder.refreshComponent(row.component_id)
  }

  async results(owner: Owner, id: number, limit: number, before: number | undefined): Promise<MonitorResultRow[]> {
    await this.owned(owner, id)
    return this.deps.repo.listResults(id, limit, before)
  }

  /** Each of the monitor's regions: its own state and last result, and whether it went stale. */
  async regionStates(owner: Owner, id: number): Promise<RegionView[]> {
    const row = await this.owned(owner, id)
    const now = this.deps.clock.now()
    const intervalMs = row.interval_s * 1000
    if (isLocalOnly(row)) {
      // Today's monitors: the region is the monitor itself.
      return [{
        region: LOCAL_REGION,
        state: row.state,
        since: row.state_since,
        flapping: row.flapping === 1,
        stale: row.enabled === 1 && row.last_check_at !== null && isStale(row.last_check_at, intervalMs, now),
        lastCheckAt: row.last_check_at,
        lastOutcome: row.last_outcome,
        lastResponseMs: row.last_response_ms,
        lastMessage: row.last_message,
      }]
    }
    const states = (await this.deps.repo.regionStates([id])).get(id) ?? new Map()
    return regionsOf(row).map((region) => {
      const state = states.get(region)
      if (!state) return { region, state: 'pending', since: null, flapping: false, stale: false, lastCheckAt: null, lastOutcome: null, lastResponseMs: null, lastMessage: null }
      return {
        region,
        state: state.state,
        since: state.state_since,
        flapping: state.flapping === 1,
        stale: isStale(state.last_check_at, intervalMs, now),
        lastCheckAt: state.last_check_at,
        lastOutcome: state.last_outcome,
        lastResponseMs: state.last_response_ms,
        lastMessage: state.last_message,
      }
    })
  }

  /** An SSL or DNSBL monitor's last full report; chain and OCSP details only on paid plans (null: not run yet, or another type). */
  async toolReport(owner: Owner, id: number): Promise<StoredToolReport | null> {
    await this.owned(owner, id)
    const stored = await readToolReport(this.deps.repo.db, id)
    return stored ? { ...stored, report: reportForPlan(stored.report, planHas(owner.plan, 'ssl_chain_details')) } : null
  }

  async availability(owner: Owner, id: number, period: AvailabilityPeriod): Promise<Availability> {
    await this.owned(owner, id)
    const now = this.deps.clock.now()
    return availability(await this.deps.repo.stateChanges(id, now - 366 * 86_400_000), period, now)
  }

  /** Confirmed state changes of the last `days` days, oldest first, with the one the span began in: the downtime log. */
  async stateChanges(owner: Owner, id: number, days = 90): Promise<Array<{ state: string; at: number }>> {
    await this.owned(owner, id)
    return this.deps.repo.stateChanges(id, this.deps.clock.now() - days * 86_400_000)
  }

  /**
   * A push from the owner's job: `token` is the secret of the push URL. `phase`: `start` (/start: a
   * run began), `fail` (/fail: the run failed, whatever `status` says), or the plain push.
   */
  async push(token: string, query: URLSearchParams, phase: 'push' | 'start' | 'fail' = 'push'): Promise<{ state: string }> {
    const parsed = parsePushQuery(phase === 'fail' ? new URLSearchParams([...query.entries()].filter(([k]) => k !== 'status').concat([['status', 'down']])) : query)
    if (!parsed.ok) throw badRequest(parsed.message)
    const hash = await sha256Hex(token)
    const row = await this.deps.repo.findByPushHash(hash)
    // The lookup is by hash; compare again without an early exit before trusting it.
    if (!row || row.push_token_hash === null || !constantTimeEqual(row.push_token_hash, hash) || row.type !== 'push') throw notFound('no such push monitor')
    if (row.enabled !== 1) throw notFound('this monitor is paused')
    const signal = phase === 'fail' && !parsed.signal.message ? { ...parsed.signal, message: 'the job reported a failure' } : parsed.signal
    await this.deps.recorder.record([{ kind: 'push', monitorId: row.id, result: pushResult(signal), ...(phase === 'start' ? { start: true } : {}) }])
    const updated = await this.deps.repo.find(row.id)
    return { state: updated?.state ?? row.state }
  }

  /** A new push token (the old one stops working). */
  async rotatePushToken(owner: Owner, id: number): Promise<string> {
    const row = await this.owned(owner, id)
    if (row.type !== 'push') throw badRequest('only a push monitor has a push token')
    const token = randomToken(24)
    await this.deps.repo.update(id, { push_token_hash: await sha256Hex(token), updated_at: this.deps.clock.now() })
    return token
  }

  private async owned(owner: Owner, id: number): Promise<MonitorRow> {
    const row = await this.deps.repo.find(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return row
  }

  private checkInterval(owner: Owner, definition: MonitorDefinition): void {
    const { minIntervalSeconds } = monitorLimits(owner.plan)
    if (definition.intervalSeconds < minIntervalSeconds) {
      throw forbidden(`interval_seconds ${definition.intervalSeconds} is below the ${planLabel(owner.plan)} plan's minimum of ${minIntervalSeconds} s`)
    }
  }

  /** Component and page, both the owner's and consistent: the page follows the component. */
  private async placement(owner: Owner, input: MonitorPlacement, row: MonitorRow | undefined): Promise<{ component_id: number | null; page_id: number | null }> {
    let componentId = input.component_id !== undefined ? input.component_id : row?.component_id ?? null
    let pageId = input.status_page_id !== undefined ? input.status_page_id : row?.page_id ?? null
    if (input.component_id !== undefined && componentId !== null) {
      const component = await this.deps.components.get(owner, componentId)
      if (input.status_page_id != null && input.status_page_id !== component.pageId) throw badRequest('component_id: the component is not on status_page_id')
      pageId = component.pageId
    } else if (input.status_page_id !== undefined && pageId !== null) {
      await this.deps.pages.get(owner, pageId)
      // Another page: the component (of the old page) no longer fits.
      if (row?.page_id !== pageId) componentId = null
    } else if (input.status_page_id === null) componentId = null
    return { component_id: componentId, page_id: pageId }
  }

  private firstRunAt(id: number, definition: MonitorDefinition, now: number): number {
    if (definition.type === 'push') {
      return pushDeadline({ lastPushAt: null, watchingSince: now, intervalSeconds: definition.intervalSeconds, graceSeconds: pushGraceSeconds(definition), cron: pushCronOf(definition.options) }) + 1
    }
    return now + phaseOffsetMs(id, definition.intervalSeconds * 1000)
  }
}
