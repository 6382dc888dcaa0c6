/**
 * Incidents: a title, a state (investigating → identified → monitoring → resolved), the affected
 * components (none means the whole page), and a timeline of updates. Plus per-owner incident
 * templates. Every write tells the public caches through `changes.pageChanged`.
 *
 * Owner methods (`list`, `get`, `create`, `update`, `addUpdate`, `delete`, template methods) check
 * ownership: someone else's incident is a 404. Public read methods (`forPage`, `historyForPage`)
 * take a page id and do no ownership check: callers decide visibility.
 */
import type { Selectable } from 'kysely'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { parseRfc3339 } from '../../lib/time.ts'
import { cutText, parseIdList, parseText } from '../../lib/text.ts'
import type { Owner } from '../accounts/service.ts'
import { Notifier, type NotifyCause } from '../notify/contract.ts'
import { requireComponentsOnPage } from '../components/service.ts'
import type { StatusPage, StatusPagesService } from '../status-pages/service.ts'
import type { IncidentRowChanges, IncidentsRepo } from './repo.ts'
import { parseRequestedState } from './states.ts'
import type { IncidentImpact, IncidentState, IncidentsTable, IncidentTemplatesTable } from './tables.ts'
import { componentPhrase, fillTemplate } from './template.ts'
import type { CreateIncidentInput, FromTemplateInput, IncidentUpdateInput, PostmortemInput, PublishPostmortemInput, TemplateInput, UpdateIncidentInput } from './model.ts'
import { isUniqueViolationOn } from '../../db/errors.ts'
import { componentDisplayStatus, incidentImpact } from '../status-pipeline/status.ts'
import { MAX_MESSAGE, MAX_POSTMORTEM, MAX_TEMPLATE_NAME, MAX_TITLE, type AutomaticInfo, type Incident, type IncidentTemplate, type IncidentUpdate } from './types.ts'

// The domain types and limits are defined in types.ts; importers of the service find them here too.
export { MAX_MESSAGE, MAX_TEMPLATE_NAME, MAX_TITLE, type AutomaticInfo, type Incident, type IncidentTemplate, type IncidentUpdate } from './types.ts'

/** An automatic incident to open (the automation acts for the page's owner: no owner check). */
export interface AutomaticOpening {
  pageId: number
  componentId: number
  title: string
  message: string
  notifySubscribers: boolean
  /** The monitor change that led to it: its notifications go out with the component's (contract.ts). */
  cause?: NotifyCause
}

/** A change the automation makes, only if the incident is still `expect` (open or resolved) when it writes. */
export interface AutomaticChange {
  expect: 'open' | 'resolved'
  state?: IncidentState
  message: string
  autoResolved?: boolean
  downSince?: number
  notifySubscribers: boolean
  /** The monitor change that led to it: its notifications go out with the component's (contract.ts). */
  cause?: NotifyCause
}


export interface IncidentListFilter {
  pageId?: number
  state?: IncidentState
  limit?: number
}

const toTemplate = (row: Selectable<IncidentTemplatesTable>): IncidentTemplate => ({
  id: row.id,
  name: row.name,
  title: row.title,
  message: row.message,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export interface IncidentsServiceDeps {
  repo: IncidentsRepo
  pages: StatusPagesService
  clock: Clock
  changes: ChangeFeed
  /** Hears incident opened / updated / resolved (automatic ones too), inside the writing transaction. */
  notifier?: Pick<Notifier, 'emit'>
}

export class IncidentsService {
  private readonly notifier: Pick<Notifier, 'emit'>

  constructor(private readonly deps: IncidentsServiceDeps) {
    this.notifier = deps.notifier ?? new Notifier()
  }

  // ---- owner API ----------------------------------------------------------------------------

  /** The owner's incidents, newest first, optionally for one page and/or one state. */
  async list(owner: Owner, filter: IncidentListFilter = {}): Promise<Incident[]> {
    if (filter.pageId !== undefined) await this.deps.pages.get(owner, filter.pageId)
    const rows = await this.deps.repo.list({ ownerId: owner.id, pageId: filter.pageId, state: filter.state, limit: filter.limit ?? 50 })
    return this.hydrate(rows)
  }

  async get(owner: Owner, id: number): Promise<Incident> {
    const row = await this.deps.repo.findWithOwner(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return (await this.hydrate([row]))[0]!
  }

  /**
   * Opens an incident. The page comes from `status_page_id` or from `component_id`; the affected
   * components from `component_ids` and/or `component_id` (none: the whole page). The first
   * timeline entry carries the initial state and `message`.
   */
  async create(owner: Owner, input: CreateIncidentInput): Promise<Incident> {
    if (input.title === undefined) throw badRequest('title is required')
    const title = parseText('title', input.title, { max: MAX_TITLE })
    const message = parseText('message', input.message ?? '', { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    const state = parseRequestedState(input) ?? 'investigating'
    const now = this.deps.clock.now()
    let startedAt = now
    if (input.started_at !== undefined) {
      const parsed = parseRfc3339(input.started_at)
      if (parsed === undefined) throw badRequest('started_at must be an RFC 3339 date-time with offset')
      if (parsed > now) throw badRequest('started_at must not be in the future')
      startedAt = parsed
    }
    const { pageId, componentIds } = await this.resolveTarget(owner, input)
    const id = await this.deps.repo.transaction(async (repo) => {
      const row = await repo.insert({ pageId, title, state, startedAt, now, impact: input.impact ?? null })
      await repo.setComponents(row.id, componentIds)
      const update = await repo.insertUpdate({ incidentId: row.id, state, message, at: now })
      // An incident recorded as already resolved (a backfill) announces just that.
      const kind = state === 'resolved' ? 'incident.resolved' : 'incident.opened'
      await this.notifier.emit(repo.db, { kind, pageId, incidentId: row.id, updateId: update.id, notifySubscribers: input.notify_subscribers ?? false, at: now })
      return row.id
    })
    this.deps.changes.pageChanged(pageId)
    return this.get(owner, id)
  }

  /**
   * Changes title, state or affected components. A new state or a message adds a timeline entry
   * (as posting an update does); resolving sets the resolved time, re-opening clears it.
   */
  async update(owner: Owner, id: number, input: UpdateIncidentInput): Promise<Incident> {
    const current = await this.get(owner, id)
    const title = input.title === undefined ? undefined : parseText('title', input.title, { max: MAX_TITLE })
    const state = parseRequestedState(input)
    const message =
      input.message === undefined ? undefined : parseText('message', input.message, { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    const componentIds =
      input.component_ids === undefined ? undefined : await this.checkedComponents(current.pageId, input.component_ids)
    await this.write(current, { title, state, message, componentIds, impact: input.impact, notifySubscribers: input.notify_subscribers ?? false, byPerson: true })
    return this.get(owner, id)
  }

  /** Posts a timeline entry: a message and/or a new state (at least one). */
  async addUpdate(owner: Owner, id: number, input: IncidentUpdateInput): Promise<Incident> {
    const current = await this.get(owner, id)
    const state = parseRequestedState(input)
    const message =
      input.message === undefined ? undefined : parseText('message', input.message, { max: MAX_MESSAGE, multiline: true })
    if (state === undefined && message === undefined) throw badRequest('message or incident_state_id is required')
    await this.write(current, { state, message: message ?? '', notifySubscribers: input.notify_subscribers ?? false, byPerson: true })
    return this.get(owner, id)
  }

  async delete(owner: Owner, id: number): Promise<void> {
    const current = await this.get(owner, id)
    await this.deps.repo.delete(id)
    this.deps.changes.pageChanged(current.pageId)
  }

  // ---- postmortem ---------------------------------------------------------------------------

  /**
   * Writes the postmortem of a resolved incident: a draft until published; once published, a change
   * shows at once (and announces nothing). An empty body removes a draft; a published one cannot be
   * emptied.
   */
  async savePostmortem(owner: Owner, id: number, input: PostmortemInput): Promise<Incident> {
    const current = await this.get(owner, id)
    if (current.resolvedAt === null) throw conflict('a postmortem is written once the incident is resolved')
    const body = parseText('body', input.body, { max: MAX_POSTMORTEM, multiline: true, allowEmpty: true })
    const published = current.postmortem?.publishedAt ?? null
    if (body === '' && published !== null) throw badRequest('a published postmortem cannot be emptied')
    const now = this.deps.clock.now()
    await this.deps.repo.update(id, { postmortem: body === '' ? null : body, postmortem_updated_at: body === '' ? null : now }, now)
    if (published !== null) this.deps.changes.pageChanged(current.pageId)
    return this.get(owner, id)
  }

  /** Publishes the draft: the page, the incident's page and the feeds show it; subscribers hear it if asked. */
  async publishPostmortem(owner: Owner, id: number, input: PublishPostmortemInput): Promise<Incident> {
    const current = await this.get(owner, id)
    if (current.resolvedAt === null) throw conflict('a postmortem is published once the incident is resolved')
    if (!current.postmortem) throw conflict('write the postmortem first')
    if (current.postmortem.publishedAt !== null) throw conflict('the postmortem is already published')
    const now = this.deps.clock.now()
    await this.deps.repo.transaction(async (repo) => {
      await repo.update(id, { postmortem_published_at: now }, now)
      await this.notifier.emit(repo.db, { kind: 'incident.postmortem', pageId: current.pageId, incidentId: id, notifySubscribers: input.notify_subscribers ?? false, at: now })
    })
    this.deps.changes.pageChanged(current.pageId)
    return this.get(owner, id)
  }

  // ---- templates ----------------------------------------------------------------------------

  async listTemplates(owner: Owner): Promise<IncidentTemplate[]> {
    return (await this.deps.repo.listTemplates(owner.id)).map(toTemplate)
  }

  async getTemplate(owner: Owner, id: number): Promise<IncidentTemplate> {
    const row = await this.deps.repo.findTemplate(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return toTemplate(row)
  }

  async createTemplate(owner: Owner, input: TemplateInput): Promise<IncidentTemplate> {
    for (const field of ['name', 'title'] as const) if (input[field] === undefined) throw badRequest(`${field} is required`)
    const row = await this.deps.repo.insertTemplate({
      ownerId: owner.id,
      name: parseText('name', input.name!, { max: MAX_TEMPLATE_NAME }),
      title: parseText('title', input.title!, { max: MAX_TITLE }),
      message: parseText('message', input.message ?? '', { max: MAX_MESSAGE, multiline: true, allowEmpty: true }),
      now: this.deps.clock.now(),
    })
    return toTemplate(row)
  }

  async updateTemplate(owner: Owner, id: number, input: TemplateInput): Promise<IncidentTemplate> {
    await this.getTemplate(owner, id)
    const changes: { name?: string; title?: string; message?: string } = {}
    if (input.name !== undefined) changes.name = parseText('name', input.name, { max: MAX_TEMPLATE_NAME })
    if (input.title !== undefined) changes.title = parseText('title', input.title, { max: MAX_TITLE })
    if (input.message !== undefined) {
      changes.message = parseText('message', input.message, { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    }
    return toTemplate(await this.deps.repo.updateTemplate(id, changes, this.deps.clock.now()))
  }

  async deleteTemplate(owner: Owner, id: number): Promise<void> {
    await this.getTemplate(owner, id)
    await this.deps.repo.deleteTemplate(id)
  }

  /**
   * Opens an incident from a template: `{{component}}` and `{{page}}` in its title and message are
   * replaced by the affected components' names and the page name (plain substitution).
   */
  async createFromTemplate(owner: Owner, templateId: number, input: FromTemplateInput): Promise<Incident> {
    const template = await this.getTemplate(owner, templateId)
    // A title or message given with the template (the web app's form, edited) replaces the template's.
    const ownTitle = input.title === undefined ? template.title : parseText('title', input.title, { max: MAX_TITLE })
    const ownMessage =
      input.message === undefined ? template.message : parseText('message', input.message, { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    const { pageId, page, componentIds } = await this.resolveTarget(owner, input)
    const names = (await this.deps.repo.componentsOnPage(pageId, componentIds)).map((c) => c.name)
    const values = { component: componentPhrase(names), page: page.name }
    // The filled title may outgrow the title limit: cut it rather than refuse the template.
    const title = cutText(fillTemplate(ownTitle, values), MAX_TITLE)
    const message = cutText(fillTemplate(ownMessage, values), MAX_MESSAGE)
    return this.create(owner, { ...input, status_page_id: pageId, component_id: undefined, component_ids: componentIds, title, message })
  }

  // ---- public reads (no ownership: callers decide whether the page may be shown) -------------

  /** One incident of the page (its public page), or undefined when the id is not one of the page's. */
  async forPage(pageId: number, id: number): Promise<Incident | undefined> {
    const row = await this.deps.repo.findWithOwner(id)
    if (!row || row.page_id !== pageId) return undefined
    return (await this.hydrate([row], { published: true }))[0]
  }

  /** The page's incidents that started in [since, before), newest first: the public archive. */
  async historyForPage(pageId: number, options: { before?: number; since?: number; limit: number }): Promise<Incident[]> {
    return this.hydrate(
      await this.deps.repo.list({ pageId, startedBefore: options.before, startedSince: options.since, limit: options.limit }),
      { published: true },
    )
  }

  // ---- automatic incidents (src/modules/auto-incidents): the system acts for the page's owner ----

  /**
   * Opens an automatic incident for one component, in Investigating, with that component linked.
   * Undefined when one is already open for the component: the partial unique index
   * `incidents_one_open_auto` refuses a second, whatever the callers' timing.
   */
  async openAutomatic(opening: AutomaticOpening): Promise<Incident | undefined> {
    const now = this.deps.clock.now()
    const title = cutText(opening.title, MAX_TITLE)
    const message = cutText(opening.message, MAX_MESSAGE)
    let id: number
    try {
      id = await this.deps.repo.transaction(async (repo) => {
        const row = await repo.insert({
          pageId: opening.pageId,
          title,
          state: 'investigating',
          startedAt: now,
          now,
          // Down since the incident's start; a reopening moves it on (so "reopened" is downSince > startedAt).
          automatic: { componentId: opening.componentId, downSince: now },
        })
        await repo.setComponents(row.id, [opening.componentId])
        const { id: updateId } = await repo.insertUpdate({ incidentId: row.id, state: 'investigating', message, at: now })
        await this.notifier.emit(repo.db, {
          kind: 'incident.opened',
          pageId: opening.pageId,
          incidentId: row.id,
          updateId,
          notifySubscribers: opening.notifySubscribers,
          at: now,
          ...(opening.cause ? { cause: opening.cause } : {}),
        })
        return row.id
      })
    } catch (error) {
      if (isOneOpenAutoViolation(error)) return undefined
      throw error
    }
    this.deps.changes.pageChanged(opening.pageId)
    return this.byId(id)
  }

  /**
   * Posts the automation's timeline entry (and state) on an automatic incident, if it is still open
   * (or still resolved, for a reopening) when the write happens: two concurrent batches cannot
   * resolve or reopen it twice. Answers whether it wrote.
   */
  async changeAutomatic(id: number, change: AutomaticChange): Promise<boolean> {
    const now = this.deps.clock.now()
    let pageId: number | undefined
    try {
      pageId = await this.deps.repo.transaction(async (repo) => {
        const row = await repo.findWithOwner(id)
        if (!row || row.source !== 'auto' || (row.resolved_at === null) !== (change.expect === 'open')) return undefined
        const state = change.state ?? row.state
        const fields: IncidentRowChanges = {}
        if (state !== row.state) {
          fields.state = state
          fields.resolved_at = state === 'resolved' ? now : null
        }
        if (change.autoResolved !== undefined) fields.auto_resolved = change.autoResolved ? 1 : 0
        if (change.downSince !== undefined) fields.auto_down_since = change.downSince
        await repo.update(id, fields, now)
        const { id: updateId } = await repo.insertUpdate({ incidentId: id, state, message: cutText(change.message, MAX_MESSAGE), at: now })
        await this.notifier.emit(repo.db, {
          kind: state === 'resolved' ? 'incident.resolved' : 'incident.updated',
          pageId: row.page_id,
          incidentId: id,
          updateId,
          notifySubscribers: change.notifySubscribers,
          at: now,
          ...(change.cause ? { cause: change.cause } : {}),
        })
        return row.page_id
      })
    } catch (error) {
      // Reopening while another automatic incident of the component is open: the index says no.
      if (isOneOpenAutoViolation(error)) return false
      throw error
    }
    if (pageId === undefined) return false
    this.deps.changes.pageChanged(pageId)
    return true
  }

  /** The newest automatic incident of a component (open or not), for the automation's decisions. */
  async latestAutomatic(componentId: number): Promise<Incident | undefined> {
    const row = await this.deps.repo.latestAutomatic(componentId)
    return row ? (await this.hydrate([row]))[0] : undefined
  }

  private async byId(id: number): Promise<Incident> {
    const row = await this.deps.repo.findWithOwner(id)
    if (!row) throw notFound()
    return (await this.hydrate([row]))[0]!
  }

  // ---- internals ----------------------------------------------------------------------------

  private async write(
    current: Incident,
    change: { title?: string; state?: IncidentState; message?: string; componentIds?: number[]; impact?: IncidentImpact | null; notifySubscribers: boolean; byPerson?: boolean },
  ): Promise<void> {
    const now = this.deps.clock.now()
    const state = change.state ?? current.state
    const stateChanged = change.state !== undefined && change.state !== current.state
    const fields: IncidentRowChanges = {}
    if (change.title !== undefined) fields.title = change.title
    if (change.impact !== undefined) fields.impact = change.impact
    // A person's first change takes an automatic incident over (src/modules/auto-incidents).
    if (change.byPerson && current.automatic && current.automatic.acknowledgedAt === null) fields.acknowledged_at = now
    if (stateChanged) {
      fields.state = change.state
      fields.resolved_at = change.state === 'resolved' ? now : null
    }
    const addsEntry = stateChanged || change.message !== undefined
    await this.deps.repo.transaction(async (repo) => {
      await repo.update(current.id, fields, now)
      if (change.componentIds !== undefined) await repo.setComponents(current.id, change.componentIds)
      if (!addsEntry) return
      // Only a timeline entry is news: a new title or affected components alone notify nobody.
      const update = await repo.insertUpdate({ incidentId: current.id, state, message: change.message ?? '', at: now })
      const kind = stateChanged && state === 'resolved' ? 'incident.resolved' : 'incident.updated'
      await this.notifier.emit(repo.db, { kind, pageId: current.pageId, incidentId: current.id, updateId: update.id, notifySubscribers: change.notifySubscribers, at: now })
    })
    this.deps.changes.pageChanged(current.pageId)
  }

  private async resolveTarget(
    owner: Owner,
    input: { status_page_id?: number; component_id?: number; component_ids?: number[] },
  ): Promise<{ pageId: number; page: StatusPage; componentIds: number[] }> {
    const requested = parseIdList('component_ids', [...(input.component_ids ?? []), ...(input.component_id ? [input.component_id] : [])])
    let pageId = input.status_page_id
    if (pageId === undefined) {
      if (input.component_id === undefined) throw badRequest('status_page_id or component_id is required')
      const component = await this.deps.repo.componentWithOwner(input.component_id)
      if (!component || component.owner_id !== owner.id) throw notFound('component not found')
      pageId = component.page_id
    }
    const page = await this.deps.pages.get(owner, pageId)
    return { pageId, page, componentIds: await this.checkedComponents(pageId, requested) }
  }

  private checkedComponents(pageId: number, raw: readonly number[]): Promise<number[]> {
    return requireComponentsOnPage((page, ids) => this.deps.repo.componentsOnPage(page, ids), pageId, raw)
  }

  /** `published`: a draft postmortem stays out (public reads). */
  private async hydrate(rows: ReadonlyArray<Selectable<IncidentsTable>>, options: { published?: boolean } = {}): Promise<Incident[]> {
    const ids = rows.map((row) => row.id)
    const [components, updates] = await Promise.all([this.deps.repo.componentsOf(ids), this.deps.repo.updatesOf(ids)])
    // Grouped once (order kept) instead of filtering every list for every row.
    const componentsOf = Map.groupBy(components, (c) => c.incident_id)
    const updatesOf = Map.groupBy(updates, (u) => u.incident_id)
    // A whole-page incident without a chosen impact takes it from every component of its page.
    const wholePages = new Set(rows.filter((row) => row.impact === null && !componentsOf.has(row.id)).map((row) => row.page_id))
    const pageStatuses = Map.groupBy(await this.deps.repo.componentStatusesOfPages([...wholePages]), (c) => c.page_id)
    const impactOf = (row: Selectable<IncidentsTable>) =>
      incidentImpact(
        (componentsOf.get(row.id) ?? pageStatuses.get(row.page_id) ?? []).map((c) => componentDisplayStatus(c.status, false)),
        row.impact,
      )
    return rows.map((row) => ({
      id: row.id,
      pageId: row.page_id,
      title: row.title,
      state: row.state,
      startedAt: row.started_at,
      resolvedAt: row.resolved_at,
      components: (componentsOf.get(row.id) ?? []).map((c) => ({ id: c.id, name: c.name })),
      impact: impactOf(row),
      impactChosen: row.impact,
      updates: (updatesOf.get(row.id) ?? []).map((u) => ({ id: u.id, state: u.state, message: u.message, at: u.at })),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      automatic:
        row.source === 'auto'
          ? {
              componentId: row.auto_component_id,
              acknowledgedAt: row.acknowledged_at,
              autoResolved: row.auto_resolved === 1,
              downSince: row.auto_down_since,
            }
          : null,
      postmortem:
        row.postmortem === null || row.postmortem_updated_at === null || (options.published && row.postmortem_published_at === null)
          ? null
          : { body: row.postmortem, updatedAt: row.postmortem_updated_at, publishedAt: row.postmortem_published_at },
    }))
  }
}

/** The partial unique index `incidents_one_open_auto` refused a second open automatic incident. */
function isOneOpenAutoViolation(error: unknown): boolean {
  return isUniqueViolationOn(error, 'incidents', 'auto_component_id')
}
