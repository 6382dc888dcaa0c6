/**
 * Components of a status page and their status history. Every status change is recorded with its
 * time, so uptime over any range can be computed exactly; past history can be imported.
 */
import type { Selectable } from 'kysely'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import { parseIdList, parseText } from '../../lib/text.ts'
import { parseRfc3339 } from '../../lib/time.ts'
import type { Owner } from '../accounts/service.ts'
import { Notifier, type NotifyCause } from '../notify/contract.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import type { ComponentChanges, ComponentsRepo } from './repo.ts'
import type { ComponentStatus, ComponentStatusCorrectionsTable, ComponentsTable, ComponentType } from './tables.ts'
import type { ComponentInput } from './model.ts'
import { correctionEntries, parseCorrection, type CorrectionInput, type StatusChangeAt } from './corrections.ts'
import { MAX_HISTORY_IMPORT, type Component, MAX_COMPONENT_DESCRIPTION, MAX_COMPONENT_NAME, MAX_GROUP_NAME, type StatusChange, type StatusCorrection } from './types.ts'

// The domain types and limits are defined in types.ts; importers of the service find them here too.
export { MAX_HISTORY_IMPORT, type Component, MAX_COMPONENT_DESCRIPTION, MAX_COMPONENT_NAME, MAX_GROUP_NAME, type StatusChange, type StatusCorrection } from './types.ts'
// Other modules read the status history through the one reader.
export { StatusHistoryReader } from './history.ts'

const COMPONENT_STATUSES: readonly ComponentStatus[] = ['up', 'degraded', 'partial', 'down']

function toCorrection(row: Selectable<ComponentStatusCorrectionsTable>): StatusCorrection {
  return {
    id: row.id,
    componentId: row.component_id,
    from: row.from_at,
    to: row.to_at,
    status: row.status,
    reason: row.reason,
    by: row.user_email,
    at: row.created_at,
    replaced: JSON.parse(row.replaced_json) as StatusCorrection['replaced'],
  }
}

/** A component's description: Markdown, or '' for none. */
export const parseComponentDescription = (raw: string): string => parseText('description', raw, { max: MAX_COMPONENT_DESCRIPTION, multiline: true, allowEmpty: true })

function toComponent(row: Selectable<ComponentsTable>): Component {
  return {
    id: row.id,
    pageId: row.page_id,
    name: row.name,
    type: row.type,
    group: row.group_name,
    status: row.status,
    statusOverride: row.status_override === 1,
    description: row.description,
    position: row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** Validates a batch of past status changes; throws a 400 naming the first bad entry. */
function parseHistoryImport(
  entries: ReadonlyArray<{ status: string; at: string }>,
  now: number,
): StatusChange[] {
  if (entries.length === 0) throw badRequest('history must contain at least one entry')
  if (entries.length > MAX_HISTORY_IMPORT) throw badRequest(`history may contain at most ${MAX_HISTORY_IMPORT} entries`)
  const seen = new Set<number>()
  const parsed = entries.map((entry, index) => {
    if (!(COMPONENT_STATUSES as readonly string[]).includes(entry.status)) {
      throw badRequest(`history[${index}].status must be one of ${COMPONENT_STATUSES.join(', ')}`)
    }
    const at = parseRfc3339(entry.at)
    if (at === undefined) throw badRequest(`history[${index}].at must be an RFC 3339 date-time with offset`)
    if (at > now) throw badRequest(`history[${index}].at must not be in the future`)
    if (seen.has(at)) throw badRequest(`history[${index}].at repeats the time of another entry`)
    seen.add(at)
    return { status: entry.status as ComponentStatus, at }
  })
  return parsed.sort((a, b) => a.at - b.at)
}

/**
 * The ids of `raw` (validated, de-duplicated by parseIdList) when every one names a component of
 * the page; otherwise a 400 naming the first that does not. Incidents and maintenance windows use
 * it for their affected components, each with its own repo's lookup.
 */
export async function requireComponentsOnPage(
  componentsOnPage: (pageId: number, ids: readonly number[]) => Promise<ReadonlyArray<{ id: number }>>,
  pageId: number,
  raw: readonly number[],
): Promise<number[]> {
  const ids = parseIdList('component_ids', raw)
  const found = new Set((await componentsOnPage(pageId, ids)).map((c) => c.id))
  const missing = ids.find((id) => !found.has(id))
  if (missing !== undefined) throw badRequest(`component ${missing} is not a component of this page`)
  return ids
}

/** `ids` when it lists each of `current` exactly once; else a 400 naming the first fault. */
export function checkOrder(ids: readonly number[], current: readonly number[]): number[] {
  const onPage = new Set(current)
  const seen = new Set<number>()
  for (const id of ids) {
    if (!Number.isSafeInteger(id) || id < 1) throw badRequest('ids must contain positive integer ids')
    if (!onPage.has(id)) throw badRequest(`ids holds ${id}, which is not a component of this page`)
    if (seen.has(id)) throw badRequest(`ids lists component ${id} twice`)
    seen.add(id)
  }
  const missing = current.find((id) => !seen.has(id))
  if (missing !== undefined) throw badRequest(`ids must list every component of this page (component ${missing} is missing)`)
  return [...ids]
}

export interface ComponentsServiceDeps {
  repo: ComponentsRepo
  pages: StatusPagesService
  clock: Clock
  changes: ChangeFeed
  /** The status a component's monitors give it (null: no monitor with a confirmed state). */
  monitoredStatus?: (componentId: number) => Promise<ComponentStatus | null>
  /** Hears every real status change (by hand or by monitors), inside the writing transaction. */
  notifier?: Notifier
}

export class ComponentsService {
  private readonly monitoredStatus: (componentId: number) => Promise<ComponentStatus | null>
  private readonly notifier: Notifier

  constructor(private readonly deps: ComponentsServiceDeps) {
    this.monitoredStatus = deps.monitoredStatus ?? (async () => null)
    this.notifier = deps.notifier ?? new Notifier()
  }

  async list(owner: Owner, pageId: number): Promise<Component[]> {
    await this.deps.pages.get(owner, pageId)
    return (await this.deps.repo.listByPage(pageId)).map(toComponent)
  }

  async get(owner: Owner, id: number): Promise<Component> {
    const row = await this.deps.repo.findWithOwner(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return toComponent(row)
  }

  async create(owner: Owner, pageId: number, input: ComponentInput): Promise<Component> {
    await this.deps.pages.get(owner, pageId)
    if (input.name === undefined) throw badRequest('name is required')
    const name = parseText('name', input.name, { max: MAX_COMPONENT_NAME })
    const groupName = input.group == null ? null : parseText('group', input.group, { max: MAX_GROUP_NAME })
    const description = input.description === undefined ? undefined : parseComponentDescription(input.description)
    const status = input.status ?? 'up'
    const now = this.deps.clock.now()
    const row = await this.deps.repo.transaction(async (repo) => {
      const inserted = await repo.insert({
        pageId,
        name,
        type: input.type ?? 'site',
        groupName,
        status,
        description,
        position: await repo.nextPosition(pageId),
        now,
      })
      await repo.insertHistory(inserted.id, [{ status, at: now }])
      return inserted
    })
    this.deps.changes.pageChanged(pageId)
    return toComponent(row)
  }

  async update(owner: Owner, id: number, input: ComponentInput): Promise<Component> {
    const current = await this.get(owner, id)
    const changes: ComponentChanges = {}
    if (input.name !== undefined) changes.name = parseText('name', input.name, { max: MAX_COMPONENT_NAME })
    if (input.type !== undefined) changes.type = input.type
    if (input.description !== undefined) changes.description = parseComponentDescription(input.description)
    if (input.group !== undefined) changes.group_name = input.group === null ? null : parseText('group', input.group, { max: MAX_GROUP_NAME })
    let status = input.status
    const monitored = await this.monitoredStatus(id)
    // A status set by hand on a monitored component is an override; clearing it hands the status back to the monitors.
    if (input.status_override === false) {
      changes.status_override = 0
      if (status === undefined && monitored !== null) status = monitored
    } else if (input.status_override === true || (input.status !== undefined && monitored !== null)) {
      changes.status_override = 1
    }
    const now = this.deps.clock.now()
    const row = await this.deps.repo.transaction(async (repo) => {
      const updated = await repo.update(id, changes, now)
      return status !== undefined && status !== current.status ? this.writeStatus(repo, id, current.status, status, now) : updated
    })
    this.deps.changes.pageChanged(current.pageId)
    return toComponent(row)
  }

  /**
   * Puts the page's components in the order of `ids`, which must list each of them exactly once
   * (the public page shows them in this order; a group stands where its first member does).
   */
  async reorder(owner: Owner, pageId: number, ids: readonly number[]): Promise<Component[]> {
    await this.deps.pages.get(owner, pageId)
    const ordered = checkOrder(ids, (await this.deps.repo.listByPage(pageId)).map((row) => row.id))
    const now = this.deps.clock.now()
    const rows = await this.deps.repo.transaction(async (repo) => {
      await repo.setPositions(pageId, ordered, now)
      return repo.listByPage(pageId)
    })
    this.deps.changes.pageChanged(pageId)
    return rows.map(toComponent)
  }

  /** Renames a group of the page (`to` null or the name of another group merges or ungroups its members). */
  async renameGroup(owner: Owner, pageId: number, input: { from: string; to: string | null }): Promise<{ moved: number }> {
    await this.deps.pages.get(owner, pageId)
    const from = parseText('from', input.from, { max: MAX_GROUP_NAME })
    const to = input.to === null ? null : parseText('to', input.to, { max: MAX_GROUP_NAME })
    const moved = await this.deps.repo.renameGroup(pageId, from, to, this.deps.clock.now())
    if (moved === 0) throw badRequest(`from names no group of this page`)
    this.deps.changes.pageChanged(pageId)
    return { moved }
  }

  /**
   * The status the component's monitors give it, unless the owner overrides it: the same write as
   * a manual change (history row, analytics roll-up, cache invalidation). No owner check: the
   * scheduler calls it for monitors it already owns the facts about.
   */
  async applyMonitorStatus(id: number, status: ComponentStatus, cause?: NotifyCause): Promise<boolean> {
    const row = await this.deps.repo.transaction(async (repo) => {
      const current = await repo.findWithOwner(id)
      if (!current || current.status_override === 1 || current.status === status) return undefined
      return this.writeStatus(repo, id, current.status, status, this.deps.clock.now(), cause)
    })
    if (row) this.deps.changes.pageChanged(row.page_id)
    return row !== undefined
  }

  /**
   * A vendor feed's reading of the component (vendor-feeds): as a monitor's, it leaves a status the
   * owner set by hand alone and writes only a change.
   */
  applyFeedStatus(id: number, status: ComponentStatus): Promise<boolean> {
    return this.applyMonitorStatus(id, status)
  }

  /** The one status write of manual and monitor-driven changes: row, history, and the event (callers pass only real changes). */
  private async writeStatus(repo: ComponentsRepo, id: number, from: ComponentStatus, status: ComponentStatus, now: number, cause?: NotifyCause) {
    const updated = await repo.update(id, { status }, now)
    await repo.insertHistory(id, [{ status, at: now }])
    await this.notifier.emit(repo.db, { kind: 'component.status_changed', pageId: updated.page_id, componentId: id, from, to: status, at: now, ...(cause ? { cause } : {}) })
    return updated
  }

  async delete(owner: Owner, id: number): Promise<void> {
    const current = await this.get(owner, id)
    await this.deps.repo.delete(id)
    this.deps.changes.pageChanged(current.pageId)
  }

  /**
   * Imports past status changes in one transaction: all or nothing. The component's current status
   * becomes the status of its latest recorded change.
   */
  async importHistory(
    owner: Owner,
    id: number,
    entries: ReadonlyArray<{ status: string; at: string }>,
  ): Promise<{ imported: number; component: Component }> {
    const current = await this.get(owner, id)
    const parsed = parseHistoryImport(entries, this.deps.clock.now())
    const row = await this.deps.repo.transaction(async (repo) => {
      await repo.insertHistory(id, parsed)
      const [latest] = await repo.history.newestFirst(id, 1)
      return repo.update(id, { status: latest?.status ?? current.status }, this.deps.clock.now())
    })
    this.deps.changes.pageChanged(current.pageId)
    return { imported: parsed.length, component: toComponent(row) }
  }

  async history(owner: Owner, id: number, limit: number): Promise<StatusChange[]> {
    await this.get(owner, id)
    return this.deps.repo.history.newestFirst(id, limit)
  }

  /**
   * Corrects the status history over a past span (corrections.ts): the changes inside it are
   * replaced, the roll-ups refreshed from its start in the same transaction, the correction recorded
   * with who, when, why and what was replaced, and the public reads invalidated. Nothing is
   * announced and the current status stays as it is.
   */
  async correctHistory(owner: Owner, id: number, input: CorrectionInput): Promise<StatusCorrection> {
    const component = await this.get(owner, id)
    const now = this.deps.clock.now()
    const span = parseCorrection(input, now)
    const row = await this.deps.repo.transaction(async (repo) => {
      const first = await repo.history.firstChange(id)
      if (!first || span.from < first.at) {
        throw badRequest(`from must not be before the component's first recorded status (${first ? new Date(first.at).toISOString() : 'none yet'}): nothing is known to correct there`)
      }
      const before: StatusChangeAt | undefined = await repo.history.changeBefore(id, span.from)
      const inside = await repo.history.changesFrom(id, span.from, span.to)
      const entries = correctionEntries(span, before, inside, await repo.history.hasChangeAt(id, span.to))
      if (inside.length === 0 && entries.length === 0) throw badRequest(`nothing to correct: the history already shows ${span.status} for the whole span`)
      await repo.replaceHistorySpan(id, span.from, span.to, entries)
      return repo.insertCorrection({
        component_id: id,
        from_at: span.from,
        to_at: span.to,
        status: span.status,
        reason: span.reason,
        user_id: owner.userId,
        user_email: owner.email,
        replaced_json: JSON.stringify({ before: before ?? null, changes: inside }),
        created_at: now,
      })
    })
    this.deps.changes.pageChanged(component.pageId)
    return toCorrection(row)
  }

  /** The component's history corrections, newest first. */
  async corrections(owner: Owner, id: number, limit = 100): Promise<StatusCorrection[]> {
    await this.get(owner, id)
    return (await this.deps.repo.listCorrections(id, limit)).map(toCorrection)
  }
}
