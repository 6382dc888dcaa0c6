/**
 * Maintenance windows: a title, a message, `start_at` < `end_at` and the affected components (none:
 * the whole page). A window is active while `start_at <= now < end_at`; its phase (`scheduled`,
 * `in_progress`, `completed`) is derived from the clock, never stored.
 *
 * Owner methods check ownership (someone else's window is a 404). The public read `recentForPage`
 * takes a page id; callers decide whether the page is visible. Open windows and those that bear on
 * uptime are read with the rest of a page's status (status-pipeline).
 */
import type { Selectable } from 'kysely'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { parseText } from '../../lib/text.ts'
import { parseRfc3339 } from '../../lib/time.ts'
import type { Owner } from '../accounts/service.ts'
import { Notifier } from '../notify/contract.ts'
import { requireComponentsOnPage } from '../components/service.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import type { MaintenancesRepo } from './repo.ts'
import type { MaintenancesTable } from './tables.ts'
import type { MaintenanceInput, MaintenanceUpdateInput } from './model.ts'
import { maintenancePhase } from '../status-pipeline/windows.ts'
import { MAINTENANCE_UPDATE_STATUSES, MAX_TITLE, MAX_MESSAGE, type Maintenance, type MaintenanceCancellation } from './types.ts'
import { MAX_EXCEPTIONS } from './series.ts'

// The domain types and limits are defined in types.ts; importers of the service find them here too.
export { CANCELLED_SHOWN_MS, MAINTENANCE_UPDATE_STATUSES, MAX_TITLE, MAX_MESSAGE, type Maintenance, type MaintenanceCancellation, type MaintenanceUpdate, type MaintenanceUpdateStatus } from './types.ts'
export { checkRule, MaintenanceSeriesService, type MaintenanceSeries } from './series.ts'
export { dayNumber, instantOf, occurrences, offsetAt, WEEKDAYS, type Frequency, type Occurrence, type RecurrenceRule, type Weekday } from './recurrence.ts'

/** Longest window accepted: a year. */
export const MAX_WINDOW_MS = 366 * 24 * 3600_000

function parseTime(field: string, raw: string): number {
  const ms = parseRfc3339(raw)
  if (ms === undefined) throw badRequest(`${field} must be an RFC 3339 date-time with offset`)
  return ms
}

/** A window's times: end after start, at most MAX_WINDOW_MS long. Pure. */
export function checkWindow(startAt: number, endAt: number): void {
  if (endAt <= startAt) throw badRequest('end_at must be after start_at')
  if (endAt - startAt > MAX_WINDOW_MS) throw badRequest('a maintenance window may last at most 366 days')
}

export interface MaintenancesServiceDeps {
  repo: MaintenancesRepo
  pages: StatusPagesService
  clock: Clock
  changes: ChangeFeed
  /** Hears "maintenance scheduled" (started / ended come from the sweeper, sweeper.ts). */
  notifier?: Notifier
}

export class MaintenancesService {
  private readonly notifier: Notifier

  constructor(private readonly deps: MaintenancesServiceDeps) {
    this.notifier = deps.notifier ?? new Notifier()
  }

  now(): number {
    return this.deps.clock.now()
  }

  async list(owner: Owner, filter: { pageId?: number; limit?: number } = {}): Promise<Maintenance[]> {
    if (filter.pageId !== undefined) await this.deps.pages.get(owner, filter.pageId)
    return this.hydrate(await this.deps.repo.list({ ownerId: owner.id, pageId: filter.pageId, limit: filter.limit ?? 50 }))
  }

  /** The page's one-off windows (no occurrence of a series) not over yet, soonest first. */
  async openOneOffs(owner: Owner, pageId: number): Promise<Maintenance[]> {
    await this.deps.pages.get(owner, pageId)
    return this.hydrate(await this.deps.repo.openOneOffs(pageId, this.deps.clock.now()))
  }

  async get(owner: Owner, id: number): Promise<Maintenance> {
    const row = await this.deps.repo.findWithOwner(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return (await this.hydrate([row]))[0]!
  }

  async create(owner: Owner, input: MaintenanceInput): Promise<Maintenance> {
    if (input.status_page_id === undefined) throw badRequest('status_page_id is required')
    for (const field of ['title', 'start_at', 'end_at'] as const) if (input[field] === undefined) throw badRequest(`${field} is required`)
    const title = parseText('title', input.title!, { max: MAX_TITLE })
    const message = parseText('message', input.message ?? '', { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    const startAt = parseTime('start_at', input.start_at!)
    const endAt = parseTime('end_at', input.end_at!)
    checkWindow(startAt, endAt)
    const pageId = input.status_page_id
    await this.deps.pages.get(owner, pageId)
    const componentIds = await this.checkedComponents(pageId, input.component_ids ?? [])
    const id = await this.deps.repo.transaction(async (repo) => {
      const now = this.deps.clock.now()
      const notifySubscribers = input.notify_subscribers ?? false
      const row = await repo.insert({ pageId, title, message, startAt, endAt, now, notifySubscribers })
      await repo.setComponents(row.id, componentIds)
      await this.notifier.emit(repo.db, { kind: 'maintenance.scheduled', pageId, maintenanceId: row.id, notifySubscribers, at: now })
      return row.id
    })
    this.deps.changes.pageChanged(pageId)
    return this.get(owner, id)
  }

  async update(owner: Owner, id: number, input: Omit<MaintenanceInput, 'status_page_id'>): Promise<Maintenance> {
    const current = await this.get(owner, id)
    const changes: { title?: string; message?: string; start_at?: number; end_at?: number } = {}
    if (input.title !== undefined) changes.title = parseText('title', input.title, { max: MAX_TITLE })
    if (input.message !== undefined) changes.message = parseText('message', input.message, { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    if (input.start_at !== undefined) changes.start_at = parseTime('start_at', input.start_at)
    if (input.end_at !== undefined) changes.end_at = parseTime('end_at', input.end_at)
    checkWindow(changes.start_at ?? current.startAt, changes.end_at ?? current.endAt)
    const componentIds = input.component_ids === undefined ? undefined : await this.checkedComponents(current.pageId, input.component_ids)
    await this.deps.repo.transaction(async (repo) => {
      await repo.update(id, changes, this.deps.clock.now())
      if (componentIds !== undefined) await repo.setComponents(id, componentIds)
    })
    this.deps.changes.pageChanged(current.pageId)
    return this.get(owner, id)
  }

  /**
   * Posts an update to one window's timeline (for a recurring series: to that occurrence). The
   * status defaults to the window's phase now; it labels the update and changes nothing else (the
   * window's phase stays derived from its times). Raises the window's SEQUENCE: the calendar
   * feed's DESCRIPTION carries the updates.
   */
  async addUpdate(owner: Owner, id: number, input: MaintenanceUpdateInput): Promise<Maintenance> {
    const current = await this.get(owner, id)
    if (input.message === undefined) throw badRequest('message is required')
    const message = parseText('message', input.message, { max: MAX_MESSAGE, multiline: true })
    const now = this.deps.clock.now()
    const status = input.status ?? maintenancePhase(current, now)
    if (!(MAINTENANCE_UPDATE_STATUSES as readonly string[]).includes(status)) throw badRequest('status must be scheduled, in_progress, verifying or completed')
    await this.deps.repo.transaction(async (repo) => {
      await repo.insertUpdate({ maintenanceId: id, status, message, at: now })
      await repo.touch(id, now)
    })
    this.deps.changes.pageChanged(current.pageId)
    return this.get(owner, id)
  }

  /**
   * Deletes a window, which cancels it. A one-off window leaves a cancellation behind (its calendar
   * event turns cancelled, SEQUENCE one higher, for CANCELLED_SHOWN_MS past the later of its end
   * and now); an occurrence of a series becomes one of the series' skipped dates, so the series'
   * event drops it (EXDATE) and the hourly extension does not write it again.
   */
  async delete(owner: Owner, id: number): Promise<void> {
    const row = await this.deps.repo.findWithOwner(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    await this.deps.repo.transaction(async (repo) => {
      const now = this.deps.clock.now()
      if (row.series_id === null) {
        await repo.pruneCancellations(row.page_id, now)
        await repo.insertCancellation({ maintenance_id: row.id, page_id: row.page_id, title: row.title, start_at: row.start_at, end_at: row.end_at, sequence: row.sequence + 1, deleted_at: now })
      } else if (row.occurrence_on !== null) {
        const series = await repo.seriesExceptions(row.series_id)
        const skipped = series === undefined || series.exceptions === '' ? [] : series.exceptions.split(',')
        if (series !== undefined && !skipped.includes(row.occurrence_on)) {
          if (skipped.length >= MAX_EXCEPTIONS) throw conflict(`its recurring maintenance already skips ${MAX_EXCEPTIONS} dates; change the series' rule instead`)
          await repo.setSeriesExceptions(row.series_id, [...skipped, row.occurrence_on].toSorted().join(','), now)
        }
      }
      await repo.delete(id)
    })
    this.deps.changes.pageChanged(row.page_id)
  }

  /** The page's deleted one-off windows the calendar feed still shows, cancelled. */
  async cancelledForPage(pageId: number): Promise<MaintenanceCancellation[]> {
    const rows = await this.deps.repo.cancellationsOf(pageId, this.deps.clock.now())
    return rows.map((row) => ({ id: row.maintenance_id, title: row.title, startAt: row.start_at, endAt: row.end_at, sequence: row.sequence, deletedAt: row.deleted_at }))
  }

  // ---- public reads ---------------------------------------------------------------------------

  /** All windows of the page (any phase), newest start first. */
  async recentForPage(pageId: number, limit = 50): Promise<Maintenance[]> {
    return this.hydrate(await this.deps.repo.list({ pageId, limit }))
  }

  private checkedComponents(pageId: number, raw: readonly number[]): Promise<number[]> {
    return requireComponentsOnPage((page, ids) => this.deps.repo.componentsOnPage(page, ids), pageId, raw)
  }

  private async hydrate(rows: ReadonlyArray<Selectable<MaintenancesTable>>): Promise<Maintenance[]> {
    // Grouped once (order kept) instead of filtering the list for every row.
    const ids = rows.map((row) => row.id)
    const [componentRows, updateRows] = await Promise.all([this.deps.repo.componentsOf(ids), this.deps.repo.updatesOf(ids)])
    const components = Map.groupBy(componentRows, (c) => c.maintenance_id)
    const updates = Map.groupBy(updateRows, (u) => u.maintenance_id)
    return rows.map((row) => ({
      id: row.id,
      pageId: row.page_id,
      title: row.title,
      message: row.message,
      startAt: row.start_at,
      endAt: row.end_at,
      components: (components.get(row.id) ?? []).map((c) => ({ id: c.id, name: c.name })),
      seriesId: row.series_id,
      notifySubscribers: row.notify_subscribers === 1,
      sequence: row.sequence,
      updates: (updates.get(row.id) ?? []).map((u) => ({ id: u.id, status: u.status, message: u.message, at: u.at })),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }))
  }
}
