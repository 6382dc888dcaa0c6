/**
 * The owner's side of automatic incidents: a page's three settings (Auto Incidents, Auto Incident
 * Notify, Auto Resolve) and which of its components take part. The plan limits how many
 * components (over all the owner's pages) may have automatic incidents on: turning on one more than
 * the plan allows is a 403 naming the limit and the count. After a downgrade nothing is switched
 * off: the oldest N (by when they were turned on) keep working, the rest pause, and every component
 * says which (`active`, `pausedReason`).
 */
import type { Clock } from '../../lib/clock.ts'
import { forbidden } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import { requireComponentsOnPage } from '../components/service.ts'
import { autoIncidentLimit, planLabel, type Plan } from '../plans/matrix.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import type { AutoIncidentsRepo } from './repo.ts'

/** Why an opted-in component does not act: over the plan's limit (after a downgrade), or the page's switch is off. */
export type PausedReason = 'plan_limit' | 'page_off'

export interface ComponentAutomation {
  id: number
  name: string
  /** A monitor watches it (without one nothing can open an incident). */
  monitored: boolean
  /** Opted in. */
  enabled: boolean
  enabledAt: number | null
  /** Opted in and acting now. */
  active: boolean
  pausedReason: PausedReason | null
}

export interface PageAutomation {
  pageId: number
  autoIncidents: boolean
  notify: boolean
  autoResolve: boolean
  components: ComponentAutomation[]
  /** The plan's limit over all the owner's pages (null: none) and how many components are opted in. */
  limit: number | null
  used: number
  plan: Plan
}

export interface AutomationInput {
  auto_incidents?: boolean
  auto_incident_notify?: boolean
  auto_resolve?: boolean
  /** The components to have automatic incidents on (replaces the page's set). */
  component_ids?: number[]
}

/** The ids of the opted-in components that act: the oldest `limit` (all without a limit). */
export function withinPlan(ranked: ReadonlyArray<{ component_id: number }>, limit: number | null): Set<number> {
  return new Set((limit === null ? ranked : ranked.slice(0, limit)).map((row) => row.component_id))
}

export function limitMessage(plan: Plan, limit: number, used: number): string {
  const noun = limit === 1 ? 'component' : 'components'
  return `the ${planLabel(plan)} plan allows automatic incidents on ${limit} ${noun} and you have ${used} (auto_incidents limit ${limit}, used ${used})`
}

export class AutoIncidentSettingsService {
  constructor(
    private readonly repo: AutoIncidentsRepo,
    private readonly pages: StatusPagesService,
    private readonly clock: Clock,
  ) {}

  async get(owner: Owner, pageId: number): Promise<PageAutomation> {
    await this.pages.get(owner, pageId)
    return this.read(this.repo, owner, pageId)
  }

  async update(owner: Owner, pageId: number, input: AutomationInput): Promise<PageAutomation> {
    await this.pages.get(owner, pageId)
    const requested =
      input.component_ids === undefined
        ? undefined
        : await requireComponentsOnPage(async (page, ids) => (await this.repo.pageComponents(page)).filter((c) => ids.includes(c.id)), pageId, input.component_ids)
    // Count and write in one (immediate) transaction: two saves at once cannot both pass the limit.
    return this.repo.transaction(async (repo) => {
      const current = await this.read(repo, owner, pageId)
      if (requested !== undefined) {
        const added = requested.filter((id) => !current.components.some((c) => c.id === id && c.enabled))
        const removed = current.components.filter((c) => c.enabled && !requested.includes(c.id)).length
        const total = current.used - removed + added.length
        if (added.length > 0 && current.limit !== null && total > current.limit) throw forbidden(limitMessage(owner.plan, current.limit, current.used))
        await repo.setPageComponents(pageId, requested, this.clock.now())
      }
      await repo.saveSettings(
        pageId,
        {
          auto_incidents: Number(input.auto_incidents ?? current.autoIncidents),
          notify: Number(input.auto_incident_notify ?? current.notify),
          auto_resolve: Number(input.auto_resolve ?? current.autoResolve),
        },
        this.clock.now(),
      )
      return this.read(repo, owner, pageId)
    })
  }

  private async read(repo: AutoIncidentsRepo, owner: Owner, pageId: number): Promise<PageAutomation> {
    const [settings, components, ranked] = await Promise.all([repo.settings(pageId), repo.pageComponents(pageId), repo.ownerEnabled(owner.id)])
    const limit = autoIncidentLimit(owner.plan)
    const acting = withinPlan(ranked, limit)
    const pageOn = settings?.auto_incidents === 1
    return {
      pageId,
      autoIncidents: pageOn,
      notify: settings?.notify === 1,
      autoResolve: settings?.auto_resolve === 1,
      components: components.map((c) => {
        const enabled = c.enabled_at !== null
        const pausedReason: PausedReason | null = !enabled ? null : !acting.has(c.id) ? 'plan_limit' : !pageOn ? 'page_off' : null
        return { id: c.id, name: c.name, monitored: Boolean(c.monitored), enabled, enabledAt: c.enabled_at, active: enabled && pausedReason === null, pausedReason }
      }),
      limit,
      used: ranked.length,
      plan: owner.plan,
    }
  }
}
