/**
 * Configuration as code: a team's pages (with their components, settings and maintenance),
 * channels, monitors and incident templates exported as a file, planned against a file, and applied
 * from one. Apply writes through the same services as the API
 * (its checks, plan limits and events), in one transaction: a refused object leaves nothing
 * half-done. Every change is one audit row, attributed to whoever applied.
 */
import { conflict, forbidden, HttpError } from '../../lib/errors.ts'
import { toIso } from '../../lib/time.ts'
import type { Owner } from '../accounts/service.ts'
import type { AuditService } from '../audit/service.ts'
import type { ChannelsService } from '../channels/service.ts'
import type { ComponentsService } from '../components/service.ts'
import type { MonitorAlertsService } from '../monitor-alerts/service.ts'
import { inputOfDefinition, type MonitorsService } from '../monitors/service.ts'
import { monitorLimits } from '../plans/matrix.ts'
import { roleMay } from '../plans/roles.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import type { SlaService } from '../sla/service.ts'
import type { BrandingService } from '../branding/service.ts'
import type { AutoIncidentSettingsService } from '../auto-incidents/service.ts'
import type { IncidentsService } from '../incidents/service.ts'
import { WEEKDAYS, type MaintenanceSeriesService, type MaintenancesService } from '../maintenances/service.ts'
import { fileOfState, type ExportedFile } from './file.ts'
import type { ConfigFile } from './model.ts'
import { automationOf, brandingOf, planConfig } from './plan.ts'
import { resolveReferences } from './secrets.ts'
import { SETTING_KINDS, type ChannelState, type ConfigPlan, type MonitorState, type PageState, type PlannedChange, type SettingKind, type TeamState } from './types.ts'

/** The services apply writes through. */
export interface ConfigWriters {
  pages: StatusPagesService
  components: ComponentsService
  channels: ChannelsService
  monitors: MonitorsService
  monitorAlerts: MonitorAlertsService
  sla: SlaService
  branding: BrandingService
  autoIncidentSettings: AutoIncidentSettingsService
  maintenances: MaintenancesService
  maintenanceSeries: MaintenanceSeriesService
  incidents: IncidentsService
  audit: AuditService
}

/** Runs `work` on services built on one transaction (services.ts): all of it commits, or none. */
export type TransactionRunner = <T>(work: (scoped: ConfigWriters) => Promise<T>) => Promise<T>

/** The team's state with the ids behind each key. */
interface ReadState {
  state: TeamState
  pageIds: Map<string, number>
  componentIds: Map<string, number>
  channelIds: Map<string, number>
  monitorIds: Map<string, number>
  /** `slug/title` of a one-off window not over, of a series not cancelled. */
  maintenanceIds: Map<string, number>
  seriesIds: Map<string, number>
  templateIds: Map<string, number>
}

export interface ApplyOptions {
  prune: boolean
  /** Where `${NAME}` references are read: the CLI's environment, or the request's `secrets`. */
  env: Readonly<Record<string, string | undefined>>
  /** For the audit rows. */
  address: string | null
  client: string | null
}

export interface ApplyResult {
  plan: ConfigPlan
  /** What needs the person's eye: a push monitor's URL (shown once), a target that did not resolve yet. */
  notes: string[]
}

const componentKey = (slug: string, name: string) => `${slug}/${name}`

function uniqueNames(names: readonly string[], what: string): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) throw conflict(`two ${what} are named "${name}"; configuration as code names them by name, so give one of them another name first`)
    seen.add(name)
  }
}

export class ConfigService {
  constructor(private readonly deps: { services: ConfigWriters; inOneTransaction: TransactionRunner }) {}

  /** The team's configuration as a file (secrets as references) and the values of those references. */
  async export(owner: Owner): Promise<ExportedFile> {
    return fileOfState((await this.read(this.deps.services, owner)).state)
  }

  /** What applying `file` would change; nothing is written. */
  async plan(owner: Owner, file: ConfigFile, options: Pick<ApplyOptions, 'prune' | 'env'>): Promise<ConfigPlan> {
    const resolved = resolveReferences(file, options.env)
    const { state } = await this.read(this.deps.services, owner)
    return planConfig(state, resolved, this.planOptions(this.deps.services, owner, options.prune))
  }

  /** Makes the team's configuration what `file` says, in one transaction. */
  async apply(owner: Owner, file: ConfigFile, options: ApplyOptions): Promise<ApplyResult> {
    if (!roleMay(owner.role, 'edit')) throw forbidden('applying a configuration needs the editor role or higher')
    const resolved = resolveReferences(file, options.env)
    return this.deps.inOneTransaction(async (s) => {
      const read = await this.read(s, owner)
      const plan = planConfig(read.state, resolved, this.planOptions(s, owner, options.prune))
      if (plan.changes.some((c) => c.kind === 'page' && c.action === 'delete') && !roleMay(owner.role, 'manage')) {
        throw forbidden('the file no longer names a page, and deleting a page needs the admin role; apply without prune, or as an admin')
      }
      const notes = plan.changes.length === 0 ? [] : await this.write(s, owner, read, plan, options)
      return { plan, notes: [...plan.notes, ...notes] }
    })
  }

  private planOptions(s: ConfigWriters, owner: Owner, prune: boolean) {
    return { prune, minIntervalSeconds: monitorLimits(owner.plan).minIntervalSeconds, now: s.maintenances.now() }
  }

  private async read(s: ConfigWriters, owner: Owner): Promise<ReadState> {
    const pageIds = new Map<string, number>()
    const componentIds = new Map<string, number>()
    const channelIds = new Map<string, number>()
    const monitorIds = new Map<string, number>()
    const maintenanceIds = new Map<string, number>()
    const seriesIds = new Map<string, number>()
    const slugOf = new Map<number, string>()
    const componentOf = new Map<number, string>()
    const pages: PageState[] = []
    for (const page of (await s.pages.list(owner)).sort((a, b) => a.slug.localeCompare(b.slug))) {
      pageIds.set(page.slug, page.id)
      slugOf.set(page.id, page.slug)
      const [components, targets, branding, automation, windows, series] = await Promise.all([
        s.components.list(owner, page.id),
        s.sla.targets(owner, page.id),
        s.branding.branding(owner, page.id),
        s.autoIncidentSettings.get(owner, page.id),
        s.maintenances.openOneOffs(owner, page.id),
        s.maintenanceSeries.list(owner, { pageId: page.id, limit: 1000 }).then((list) => list.filter((one) => one.cancelledAt === null)),
      ])
      uniqueNames(components.map((c) => c.name), `components of the page "${page.slug}"`)
      uniqueNames(windows.map((w) => w.title), `maintenance windows of the page "${page.slug}" not over yet`)
      uniqueNames(series.map((w) => w.title), `recurring maintenances of the page "${page.slug}"`)
      for (const window of windows) maintenanceIds.set(`${page.slug}/${window.title}`, window.id)
      for (const one of series) seriesIds.set(`${page.slug}/${one.title}`, one.id)
      const componentNames = (list: ReadonlyArray<{ name: string }>) => list.map((c) => c.name).sort()
      const targetOf = new Map(targets.map((item) => [item.componentId, item.target]))
      for (const c of components) {
        componentIds.set(componentKey(page.slug, c.name), c.id)
        componentOf.set(c.id, c.name)
      }
      pages.push({
        slug: page.slug,
        name: page.name,
        visibility: page.visibility,
        language: page.language,
        time_zone: page.timeZone,
        description: page.description,
        custom_domain: page.customDomain,
        components: components.map((c) => {
          const target = targetOf.get(c.id) ?? null
          return {
            name: c.name,
            type: c.type,
            group: c.group,
            description: c.description,
            sla:
              target === null
                ? null
                : {
                    target_percent: target.targetPpm / 10_000,
                    period: target.period,
                    degraded_counts_as: target.policy.degradedCountsAs,
                    exclude_maintenance: target.policy.excludeMaintenance,
                    min_outage_seconds: target.policy.minOutageSeconds,
                    breach_alerts: target.breachAlerts,
                    public_budget: target.publicBudget,
                  },
          }
        }),
        branding: brandingOf(branding.palette),
        automatic_incidents: automationOf({
          auto_incidents: automation.autoIncidents,
          auto_incident_notify: automation.notify,
          auto_resolve: automation.autoResolve,
          components: automation.components.filter((c) => c.enabled).map((c) => c.name).sort(),
        }),
        maintenance: windows.map((w) => ({
          title: w.title,
          message: w.message,
          start_at: w.startAt,
          end_at: w.endAt,
          components: componentNames(w.components),
          notify_subscribers: w.notifySubscribers ?? false,
        })),
        recurring_maintenance: series
          .map((one) => ({
            title: one.title,
            message: one.message,
            time_zone: one.rule.timeZone,
            starts_on: one.rule.startsOn,
            start_time: one.rule.startTime,
            duration_minutes: one.rule.durationMinutes,
            frequency: one.rule.frequency,
            interval: one.rule.interval,
            weekdays: [...one.rule.weekdays].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b)),
            month_day: one.rule.monthDay ?? null,
            until: one.rule.untilOn ?? null,
            count: one.rule.count ?? null,
            exceptions: [...one.rule.exceptions].sort(),
            components: componentNames(one.components),
            notify_subscribers: one.notifySubscribers,
          }))
          .sort((a, b) => a.title.localeCompare(b.title)),
      })
    }
    const [channelList, settings] = await Promise.all([s.channels.list(owner), s.channels.settingsInFull(owner)])
    uniqueNames(channelList.map((c) => c.name), 'notification channels')
    const channelName = new Map<number, string>()
    const channels: ChannelState[] = channelList
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((channel) => {
        channelIds.set(channel.name, channel.id)
        channelName.set(channel.id, channel.name)
        return {
          name: channel.name,
          type: channel.type,
          settings: settings.get(channel.id) ?? {},
          events: [...channel.events],
          all_pages: channel.allPages,
          pages: channel.allPages ? [] : channel.pages.map((p) => slugOf.get(p.id)).filter((slug) => slug !== undefined).sort(),
          all_monitors: channel.allMonitors,
          enabled: channel.enabled,
        }
      })
    const [monitorList, alerts] = await Promise.all([s.monitors.list(owner), s.monitorAlerts.channelsOfMonitors(owner)])
    uniqueNames(monitorList.map((m) => m.definition.name), 'monitors')
    for (const m of monitorList) monitorIds.set(m.definition.name, m.id)
    const monitors: MonitorState[] = monitorList
      .sort((a, b) => a.definition.name.localeCompare(b.definition.name))
      .map((monitor) => {
        const { name, ...fields } = inputOfDefinition(monitor.definition)
        return {
          name,
          fields,
          enabled: monitor.enabled,
          page: monitor.pageId === null ? null : slugOf.get(monitor.pageId) ?? null,
          component: monitor.componentId === null ? null : componentOf.get(monitor.componentId) ?? null,
          parents: monitor.parents.map((p) => p.name).sort(),
          alert_channels: (alerts.get(monitor.id) ?? []).map((id) => channelName.get(id)).filter((n) => n !== undefined).sort(),
        }
      })
    const templateList = await s.incidents.listTemplates(owner)
    uniqueNames(templateList.map((template) => template.name), 'incident templates')
    const templateIds = new Map(templateList.map((template) => [template.name, template.id]))
    const templates = templateList.map((template) => ({ name: template.name, title: template.title, message: template.message })).sort((a, b) => a.name.localeCompare(b.name))
    return { state: { pages, channels, monitors, templates }, pageIds, componentIds, channelIds, monitorIds, maintenanceIds, seriesIds, templateIds }
  }

  private async write(s: ConfigWriters, owner: Owner, read: ReadState, plan: ConfigPlan, options: ApplyOptions): Promise<string[]> {
    const notes: string[] = []
    const { pageIds, componentIds, channelIds, monitorIds } = read
    const desiredPages = new Map(plan.desired.pages.map((p) => [p.slug, p]))
    const desiredChannels = new Map(plan.desired.channels.map((c) => [c.name, c]))
    const desiredMonitors = new Map(plan.desired.monitors.map((m) => [m.name, m]))
    const audit = (change: PlannedChange, pageId: number | null) =>
      s.audit.recordChange({ owner, action: `config.${change.kind}.${change.action}`, objectType: `config.${change.kind}`, objectId: change.key, pageId, fields: change.fields, address: options.address, client: options.client })
    const need = (ids: Map<string, number>, key: string): number => {
      const id = ids.get(key)
      if (id === undefined) throw new Error(`configuration: no id for ${key}`)
      return id
    }
    const reorder: string[] = []
    const monitorLinks: string[] = []

    for (const change of plan.changes) {
      if (isSetting(change.kind)) {
        await this.writeSetting(s, owner, read, plan, change)
        await audit(change, need(pageIds, change.key.split('/')[0]!))
        continue
      }
      if (change.action === 'delete') continue
      if (change.kind === 'template') {
        const template = plan.desired.templates.find((t) => t.name === change.key)!
        try {
          if (change.action === 'create') await s.incidents.createTemplate(owner, template)
          else await s.incidents.updateTemplate(owner, need(read.templateIds, change.key), template)
        } catch (error) {
          if (error instanceof HttpError) throw new HttpError(error.status, `templates "${change.key}": ${error.message}`)
          throw error
        }
        await audit(change, null)
        continue
      }
      if (change.kind === 'maintenance' || change.kind === 'recurring_maintenance') {
        await this.writeMaintenance(s, owner, read, plan, change)
        await audit(change, need(pageIds, change.key.slice(0, change.key.indexOf('/'))))
        continue
      }
      if (change.kind === 'page') {
        const page = desiredPages.get(change.key)!
        const input = { slug: page.slug, name: page.name, visibility: page.visibility, language: page.language, time_zone: page.time_zone, description: page.description, custom_domain: page.custom_domain }
        if (change.action === 'create') pageIds.set(page.slug, (await s.pages.create(owner, input)).id)
        else {
          if (change.fields.includes('component_order')) reorder.push(page.slug)
          const fields = change.fields.filter((f) => f !== 'component_order')
          if (fields.length > 0) await s.pages.update(owner, need(pageIds, page.slug), Object.fromEntries(fields.map((f) => [f, input[f as keyof typeof input]])))
        }
        await audit(change, need(pageIds, page.slug))
      } else if (change.kind === 'component') {
        const slash = change.key.indexOf('/')
        const slug = change.key.slice(0, slash)
        const component = desiredPages.get(slug)!.components.find((c) => c.name === change.key.slice(slash + 1))!
        const input = { name: component.name, type: component.type, group: component.group, description: component.description }
        if (change.action === 'create') componentIds.set(change.key, (await s.components.create(owner, need(pageIds, slug), input)).id)
        else await s.components.update(owner, need(componentIds, change.key), input)
        await audit(change, need(pageIds, slug))
      } else if (change.kind === 'channel') {
        const channel = desiredChannels.get(change.key)!
        const input = {
          ...channel.settings,
          events: channel.events,
          all_pages: channel.all_pages,
          page_ids: channel.pages.map((slug) => need(pageIds, slug)),
          all_monitors: channel.all_monitors,
          enabled: channel.enabled,
        }
        if (change.action === 'create') channelIds.set(channel.name, (await s.channels.create(owner, { type: channel.type, name: channel.name, ...input })).id)
        else await s.channels.update(owner, need(channelIds, channel.name), input)
        await audit(change, null)
      } else {
        const monitor = desiredMonitors.get(change.key)!
        const placement = {
          status_page_id: monitor.page === null ? null : need(pageIds, monitor.page),
          component_id: monitor.page === null || monitor.component === null ? null : need(componentIds, componentKey(monitor.page, monitor.component)),
        }
        if (change.action === 'create') {
          const made = await s.monitors.create(owner, { name: monitor.name, ...monitor.fields, ...placement, enabled: monitor.enabled })
          monitorIds.set(monitor.name, made.monitor.id)
          if (made.pushToken) notes.push(`monitor "${monitor.name}": its push URL ends in /api/push/${made.pushToken} (shown once; rotate it in the web app if it is lost)`)
          for (const warning of made.warnings) notes.push(`monitor "${monitor.name}": ${warning}`)
          if (monitor.parents.length > 0 || monitor.alert_channels.length > 0) monitorLinks.push(monitor.name)
        } else {
          const id = need(monitorIds, monitor.name)
          const definitionChanged = change.fields.some((f) => !['enabled', 'parents', 'alert_channels'].includes(f))
          if (definitionChanged) {
            const updated = await s.monitors.update(owner, id, { name: monitor.name, ...monitor.fields, ...placement })
            for (const warning of updated.warnings) notes.push(`monitor "${monitor.name}": ${warning}`)
          }
          if (change.fields.includes('enabled')) await s.monitors.setEnabled(owner, id, monitor.enabled)
          if (change.fields.includes('parents') || change.fields.includes('alert_channels')) monitorLinks.push(monitor.name)
        }
        await audit(change, placement.status_page_id)
      }
    }

    // Parents and alert channels once every monitor and channel of the file exists.
    for (const name of monitorLinks) {
      const monitor = desiredMonitors.get(name)!
      const id = need(monitorIds, name)
      await s.monitors.update(owner, id, { parents: monitor.parents.map((parent) => need(monitorIds, parent)) })
      await s.monitorAlerts.update(owner, id, { channel_ids: monitor.alert_channels.map((channel) => need(channelIds, channel)) })
    }

    for (const change of plan.changes) {
      if (change.action !== 'delete' || isSetting(change.kind)) continue
      if (change.kind === 'monitor') await s.monitors.delete(owner, need(monitorIds, change.key))
      else if (change.kind === 'template') await s.incidents.deleteTemplate(owner, need(read.templateIds, change.key))
      else if (change.kind === 'maintenance') await s.maintenances.delete(owner, need(read.maintenanceIds, change.key))
      else if (change.kind === 'recurring_maintenance') await s.maintenanceSeries.cancel(owner, need(read.seriesIds, change.key))
      else if (change.kind === 'channel') await s.channels.delete(owner, need(channelIds, change.key))
      else if (change.kind === 'component') await s.components.delete(owner, need(componentIds, change.key))
      else await s.pages.delete(owner, need(pageIds, change.key))
      const onPage = change.kind === 'component' || change.kind === 'maintenance' || change.kind === 'recurring_maintenance'
      await audit(change, onPage ? need(pageIds, change.key.slice(0, change.key.indexOf('/'))) : change.kind === 'page' ? need(pageIds, change.key) : null)
    }

    // The file's order of components, the ones it leaves out (kept) after them.
    for (const slug of reorder) {
      const pageId = need(pageIds, slug)
      const now = await s.components.list(owner, pageId)
      const named = desiredPages.get(slug)!.components.map((c) => c.name)
      const ids = [...named.map((name) => now.find((c) => c.name === name)!.id), ...now.filter((c) => !named.includes(c.name)).map((c) => c.id)]
      await s.components.reorder(owner, pageId, ids)
    }
    return notes
  }

  /** A maintenance window or series made or changed through its own service; a refusal names the key. */
  private async writeMaintenance(s: ConfigWriters, owner: Owner, read: ReadState, plan: ConfigPlan, change: PlannedChange): Promise<void> {
    const slash = change.key.indexOf('/')
    const slug = change.key.slice(0, slash)
    const title = change.key.slice(slash + 1)
    const page = plan.desired.pages.find((p) => p.slug === slug)!
    const pageId = read.pageIds.get(slug)!
    const componentIds = (list: readonly string[]) => list.map((name) => read.componentIds.get(`${slug}/${name}`)!)
    try {
      if (change.kind === 'maintenance') {
        const window = page.maintenance.find((m) => m.title === title)!
        const input = { title: window.title, message: window.message, start_at: toIso(window.start_at), end_at: toIso(window.end_at), component_ids: componentIds(window.components) }
        if (change.action === 'create') read.maintenanceIds.set(change.key, (await s.maintenances.create(owner, { status_page_id: pageId, ...input, notify_subscribers: window.notify_subscribers })).id)
        else await s.maintenances.update(owner, read.maintenanceIds.get(change.key)!, input)
      } else {
        const { components, notify_subscribers, ...series } = page.recurring_maintenance.find((m) => m.title === title)!
        const input = { ...series, component_ids: componentIds(components) }
        if (change.action === 'create') read.seriesIds.set(change.key, (await s.maintenanceSeries.create(owner, { status_page_id: pageId, ...input, notify_subscribers })).id)
        else await s.maintenanceSeries.update(owner, read.seriesIds.get(change.key)!, input)
      }
    } catch (error) {
      if (error instanceof HttpError) throw new HttpError(error.status, `pages "${slug}": ${change.kind} "${title}": ${error.message}`)
      throw error
    }
  }

  /** A page's or component's setting, through its own service; a refusal names the key and the setting. */
  private async writeSetting(s: ConfigWriters, owner: Owner, read: ReadState, plan: ConfigPlan, change: PlannedChange): Promise<void> {
    const slash = change.key.indexOf('/')
    const slug = slash === -1 ? change.key : change.key.slice(0, slash)
    const page = plan.desired.pages.find((p) => p.slug === slug)!
    const pageId = read.pageIds.get(slug)!
    const where = change.kind === 'sla_target' ? `pages "${slug}": components "${change.key.slice(slash + 1)}": sla` : `pages "${slug}": ${change.kind}`
    try {
      if (change.kind === 'sla_target') {
        const componentId = read.componentIds.get(change.key)!
        const target = page.components.find((c) => c.name === change.key.slice(slash + 1))?.sla ?? null
        if (target === null) await s.sla.deleteTarget(owner, componentId)
        else await s.sla.setTarget(owner, componentId, target)
      } else if (change.kind === 'branding') {
        await s.branding.setBranding(owner, pageId, { palette: page.branding })
      } else {
        const automation = page.automatic_incidents
        await s.autoIncidentSettings.update(owner, pageId, {
          auto_incidents: automation?.auto_incidents ?? false,
          auto_incident_notify: automation?.auto_incident_notify ?? false,
          auto_resolve: automation?.auto_resolve ?? false,
          component_ids: (automation?.components ?? []).map((name) => read.componentIds.get(`${slug}/${name}`)!),
        })
      }
    } catch (error) {
      if (error instanceof HttpError) throw new HttpError(error.status, `${where}: ${error.message}`)
      throw error
    }
  }
}

const isSetting = (kind: PlannedChange['kind']): kind is SettingKind => (SETTING_KINDS as readonly string[]).includes(kind)
