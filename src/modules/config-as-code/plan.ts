/**
 * The plan: what apply would create, change and delete, computed only from the team's state now
 * and the file (its secrets already resolved). The file's omitted fields take the API's defaults,
 * through the same rules the API applies, so a file that was applied plans no change. Pure.
 */
import { badRequest } from '../../lib/errors.ts'
import { DEFAULT_LANGUAGE } from '../../lib/i18n.ts'
import { parseText } from '../../lib/text.ts'
import { parseLanguage, parsePageDescription, parseTimeZone } from '../status-pages/service.ts'
import { parseComponentDescription } from '../components/service.ts'
import { DEFAULT_EVENTS, isChannelType, parseEvents, parseSettings } from '../channels/service.ts'
import { definitionForCreate, inputOfDefinition } from '../monitors/service.ts'
import { parseSlaTarget } from '../sla/service.ts'
import { parsePalette } from '../branding/service.ts'
import { DEFAULT_PALETTE, type Palette } from '../branding/palette.ts'
import { checkRule, checkWindow, MAX_MESSAGE, MAX_TITLE, WEEKDAYS } from '../maintenances/service.ts'
import { HttpError } from '../../lib/errors.ts'
import { parseRfc3339, toIso } from '../../lib/time.ts'
import { MAX_MESSAGE as MAX_TEMPLATE_MESSAGE, MAX_TEMPLATE_NAME, MAX_TITLE as MAX_TEMPLATE_TITLE } from '../incidents/service.ts'
import type { AutomaticIncidentsEntry, BrandingEntry, ChannelEntry, ConfigFile, MaintenanceEntry, MonitorEntry, PageEntry, RecurringMaintenanceEntry, SlaEntry, TemplateEntry } from './model.ts'
import type {
  AutomaticIncidentsState,
  ChannelState,
  ConfigPlan,
  MaintenanceState,
  MonitorFields,
  MonitorState,
  PageState,
  PlannedChange,
  RecurringMaintenanceState,
  SlaTargetState,
  TeamState,
  TemplateState,
} from './types.ts'

export interface PlanOptions {
  /** Delete what the file no longer names. */
  prune: boolean
  /** The plan's shortest monitor interval: the default interval of a monitor that names none. */
  minIntervalSeconds: number
  /** Now (epoch ms): a maintenance window that is over is history, not configuration. */
  now: number
}

/** A 400 of a rule, said of the object it concerns (`monitors "API": target is required`). */
function about<T>(where: string, work: () => T): T {
  try {
    return work()
  } catch (error) {
    if (error instanceof HttpError) throw badRequest(`${where}: ${error.message}`)
    throw error
  }
}

function unique(keys: readonly string[], what: string): void {
  const seen = new Set<string>()
  for (const key of keys) {
    if (seen.has(key)) throw badRequest(`${what} "${key}" is named twice in the file; names are the keys and must be unique`)
    seen.add(key)
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The fields of `desired` whose value differs from `current` (names only). */
function changedFields<T extends object>(current: T, desired: T): string[] {
  const keys = new Set([...Object.keys(current), ...Object.keys(desired)])
  return [...keys].filter((key) => !same((current as Record<string, unknown>)[key], (desired as Record<string, unknown>)[key])).sort()
}

/** The SLA target a file's entry asks for, the SLA API's defaults filled in. */
export function desiredSla(entry: SlaEntry): SlaTargetState {
  const row = parseSlaTarget(entry)
  return {
    target_percent: row.target_ppm / 10_000,
    period: row.period,
    degraded_counts_as: row.degraded_counts_as,
    exclude_maintenance: row.exclude_maintenance === 1,
    min_outage_seconds: row.min_outage_s,
    breach_alerts: row.breach_alerts === 1,
    public_budget: row.public_budget === 1,
  }
}

/** Lantern's own colours are no branding: one shape for "none", whichever way it was reached. */
export const brandingOf = (palette: Palette): Palette | null => (same(palette, DEFAULT_PALETTE) ? null : { ...palette })

function desiredBranding(entry: BrandingEntry): Palette | null {
  return about('branding', () => brandingOf(parsePalette(entry.palette ?? {})))
}

const NO_AUTOMATION: AutomaticIncidentsState = { auto_incidents: false, auto_incident_notify: false, auto_resolve: false, components: [] }

/** All off and no component chosen is no setting: one shape for "none". */
export const automationOf = (state: AutomaticIncidentsState): AutomaticIncidentsState | null => (same(state, NO_AUTOMATION) ? null : state)

function desiredAutomation(entry: AutomaticIncidentsEntry): AutomaticIncidentsState | null {
  return automationOf({
    auto_incidents: entry.auto_incidents ?? false,
    auto_incident_notify: entry.auto_incident_notify ?? false,
    auto_resolve: entry.auto_resolve ?? false,
    components: [...new Set(entry.components ?? [])].sort(),
  })
}

const names = (list: readonly string[] | undefined): string[] => [...new Set(list ?? [])].sort()

function instant(field: string, raw: string): number {
  const ms = parseRfc3339(raw)
  if (ms === undefined) throw badRequest(`${field} must be an RFC 3339 date-time with offset`)
  return ms
}

function desiredMaintenance(entry: MaintenanceEntry): MaintenanceState {
  return about(`maintenance "${entry.title}"`, () => {
    const start = instant('start_at', entry.start_at)
    const end = instant('end_at', entry.end_at)
    checkWindow(start, end)
    return {
      title: parseText('title', entry.title, { max: MAX_TITLE }),
      message: parseText('message', entry.message ?? '', { max: MAX_MESSAGE, multiline: true, allowEmpty: true }),
      start_at: start,
      end_at: end,
      components: names(entry.components),
      notify_subscribers: entry.notify_subscribers ?? false,
    }
  })
}

function desiredRecurring(entry: RecurringMaintenanceEntry): RecurringMaintenanceState {
  return about(`recurring_maintenance "${entry.title}"`, () => {
    const state: RecurringMaintenanceState = {
      title: parseText('title', entry.title, { max: MAX_TITLE }),
      message: parseText('message', entry.message ?? '', { max: MAX_MESSAGE, multiline: true, allowEmpty: true }),
      time_zone: entry.time_zone,
      starts_on: entry.starts_on,
      start_time: entry.start_time,
      duration_minutes: entry.duration_minutes,
      frequency: entry.frequency,
      interval: entry.interval ?? 1,
      weekdays: [...new Set(entry.weekdays ?? [])].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b)),
      month_day: entry.month_day ?? null,
      until: entry.until ?? null,
      count: entry.count ?? null,
      exceptions: [...new Set(entry.exceptions ?? [])].sort(),
      components: names(entry.components),
      notify_subscribers: entry.notify_subscribers ?? false,
    }
    // The series service's own rule check: the same 400 the API gives.
    checkRule({
      timeZone: state.time_zone,
      startsOn: state.starts_on,
      startTime: state.start_time,
      durationMinutes: state.duration_minutes,
      frequency: state.frequency,
      interval: state.interval,
      weekdays: state.weekdays,
      monthDay: state.month_day ?? undefined,
      untilOn: state.until ?? undefined,
      count: state.count ?? undefined,
      exceptions: state.exceptions,
    })
    return state
  })
}

/**
 * A page after the API's defaults. A setting (branding, automatic incidents, a component's SLA
 * target) the file leaves out is kept as it is, or removed with prune.
 */
function desiredPage(entry: PageEntry, current: PageState | undefined, options: PlanOptions, notes: string[]): PageState {
  const { prune, now } = options
  const where = `pages "${entry.slug}"`
  return about(where, () => {
    unique((entry.maintenance ?? []).map((m) => m.title.trim()), 'maintenance')
    unique((entry.recurring_maintenance ?? []).map((m) => m.title.trim()), 'recurring_maintenance')
    const open = new Set((current?.maintenance ?? []).map((m) => m.title))
    // A window of the file that is over is left alone (unless it changes one still open): it is history now.
    const maintenance = (entry.maintenance ?? []).map(desiredMaintenance).filter((window) => {
      if (window.end_at > now || open.has(window.title)) return true
      notes.push(`${where}: maintenance "${window.title}" ended at ${toIso(window.end_at)}; it is history now, so apply leaves it alone (remove it from the file)`)
      return false
    })
    const kept = <T>(value: T | null | undefined): T | null => (prune ? null : value ?? null)
    const keptList = <T>(given: T[] | undefined, saved: T[] | undefined): T[] => given ?? (prune ? [] : [...(saved ?? [])])
    const currentComponents = new Map((current?.components ?? []).map((c) => [c.name, c]))
    return {
      slug: entry.slug.trim(),
      name: parseText('name', entry.name, { max: 100 }),
      visibility: entry.visibility ?? 'public',
      language: entry.language === undefined ? DEFAULT_LANGUAGE : parseLanguage(entry.language),
      time_zone: entry.time_zone === undefined ? 'UTC' : parseTimeZone(entry.time_zone),
      description: entry.description === undefined ? '' : parsePageDescription(entry.description),
      custom_domain: entry.custom_domain == null || entry.custom_domain.trim() === '' ? null : entry.custom_domain.trim().toLowerCase(),
      components: (entry.components ?? []).map((component) => {
        const name = parseText('component name', component.name, { max: 100 })
        return {
          name,
          type: component.type ?? 'site',
          group: component.group == null || component.group.trim() === '' ? null : parseText('group', component.group, { max: 100 }),
          description: component.description === undefined ? '' : parseComponentDescription(component.description),
          sla: component.sla === undefined ? kept(currentComponents.get(name)?.sla) : about(`components "${name}": sla`, () => desiredSla(component.sla!)),
        }
      }),
      branding: entry.branding === undefined ? kept(current?.branding) : desiredBranding(entry.branding),
      automatic_incidents: entry.automatic_incidents === undefined ? kept(current?.automatic_incidents) : desiredAutomation(entry.automatic_incidents),
      maintenance: keptList(entry.maintenance === undefined ? undefined : maintenance, current?.maintenance).sort((a, b) => a.start_at - b.start_at || a.title.localeCompare(b.title)),
      recurring_maintenance: keptList(entry.recurring_maintenance?.map(desiredRecurring), current?.recurring_maintenance).sort((a, b) => a.title.localeCompare(b.title)),
    }
  })
}

/** A setting's change: create (none before), delete (none after), update with the fields that differ. */
function settingChange(kind: PlannedChange['kind'], key: string, now: object | null, desired: object | null): PlannedChange | undefined {
  if (now === null && desired === null) return undefined
  if (now === null) return { action: 'create', kind, key, fields: [] }
  if (desired === null) return { action: 'delete', kind, key, fields: [] }
  const fields = changedFields(now, desired)
  return fields.length > 0 ? { action: 'update', kind, key, fields } : undefined
}

function desiredChannel(entry: ChannelEntry, current: ChannelState | undefined): ChannelState {
  return about(`channels "${entry.name}"`, () => {
    if (!isChannelType(entry.type)) throw badRequest(`type must be a channel type`)
    if (current && current.type !== entry.type) throw badRequest(`type cannot be changed from ${current.type} to ${entry.type}; give the new channel another name`)
    // A secret left out of the file keeps its saved value (a webhook's signing secret Lantern made).
    const settings = parseSettings(entry.type, entry, current?.settings)
    const pages = [...new Set(entry.pages ?? [])].sort()
    const allPages = entry.all_pages ?? pages.length === 0
    if (!allPages && pages.length === 0) throw badRequest('pages must name at least one page unless all_pages is true')
    return {
      name: parseText('name', entry.name, { max: 100 }),
      type: entry.type,
      settings,
      events: entry.events === undefined ? [...DEFAULT_EVENTS] : parseEvents(entry.events),
      all_pages: allPages,
      pages: allPages ? [] : pages,
      all_monitors: entry.all_monitors ?? false,
      enabled: entry.enabled ?? true,
    }
  })
}

/**
 * A monitor after the API's defaults. An existing monitor keeps the options the file leaves out
 * (the API cannot unset an option): comparing that is comparing what an update would store.
 */
function desiredMonitor(entry: MonitorEntry, current: MonitorState | undefined, minIntervalSeconds: number): MonitorState {
  return about(`monitors "${entry.name}"`, () => {
    const { page, component, parents, alert_channels, enabled, ...input } = entry
    if (component !== undefined && page === undefined) throw badRequest('component needs page (the slug of the page the component is on)')
    const { name, ...fresh } = inputOfDefinition(definitionForCreate(input, minIntervalSeconds))
    let fields: MonitorFields = fresh
    if (current) {
      if ((current.fields.type === 'push') !== (fresh.type === 'push')) throw badRequest('type: a monitor cannot change to or from push; give the new monitor another name')
      const kept = Object.fromEntries(Object.entries(current.fields).filter(([key]) => !(key in fresh)))
      fields = { ...kept, ...fresh }
    }
    return {
      name,
      fields,
      enabled: enabled ?? true,
      page: page ?? null,
      component: component ?? null,
      parents: [...new Set(parents ?? [])].sort(),
      alert_channels: [...new Set(alert_channels ?? [])].sort(),
    }
  })
}

/** An incident template after the template API's rules. */
function desiredTemplate(entry: TemplateEntry): TemplateState {
  return about(`templates "${entry.name}"`, () => ({
    name: parseText('name', entry.name, { max: MAX_TEMPLATE_NAME }),
    title: parseText('title', entry.title, { max: MAX_TEMPLATE_TITLE }),
    message: parseText('message', entry.message ?? '', { max: MAX_TEMPLATE_MESSAGE, multiline: true, allowEmpty: true }),
  }))
}

/** What `file` asks of a team in `current`: the changes in the order apply makes them. */
export function planConfig(current: TeamState, file: ConfigFile, options: PlanOptions): ConfigPlan {
  const changes: PlannedChange[] = []
  const filePages = file.pages ?? []
  const fileChannels = file.channels ?? []
  const fileMonitors = file.monitors ?? []
  unique(filePages.map((p) => p.slug.trim()), 'page')
  unique(fileChannels.map((c) => c.name.trim()), 'channel')
  unique(fileMonitors.map((m) => m.name.trim()), 'monitor')

  const currentPages = new Map(current.pages.map((p) => [p.slug, p]))
  const currentChannels = new Map(current.channels.map((c) => [c.name, c]))
  const currentMonitors = new Map(current.monitors.map((m) => [m.name, m]))

  // Pages and their components.
  const notes: string[] = []
  const pages = filePages.map((entry) => desiredPage(entry, currentPages.get(entry.slug.trim()), options, notes))
  const finalComponents = new Map<string, Set<string>>()
  for (const page of pages) {
    unique(page.components.map((c) => c.name), `page "${page.slug}": component`)
    const now = currentPages.get(page.slug)
    const { components, branding: _branding, automatic_incidents: _automation, maintenance: _maintenance, recurring_maintenance: _recurring, ...fields } = page
    if (!now) {
      changes.push({ action: 'create', kind: 'page', key: page.slug, fields: [] })
      for (const component of components) changes.push({ action: 'create', kind: 'component', key: `${page.slug}/${component.name}`, fields: [] })
      finalComponents.set(page.slug, new Set(components.map((c) => c.name)))
      continue
    }
    const { components: nowComponents, branding: _nowBranding, automatic_incidents: _nowAutomation, maintenance: _nowMaintenance, recurring_maintenance: _nowRecurring, ...nowFields } = now
    const pageFields = changedFields(nowFields, fields)
    const byName = new Map(nowComponents.map((c) => [c.name, c]))
    const named = new Set(components.map((c) => c.name))
    // Components the file leaves out stay (after the named ones) unless pruned.
    const kept = options.prune ? [] : nowComponents.filter((c) => !named.has(c.name))
    const order = [...components.map((c) => c.name), ...kept.map((c) => c.name)]
    // New components come last; the order is set again when that (or a move) is not the file's.
    const afterWrites = [...nowComponents.map((c) => c.name).filter((name) => order.includes(name)), ...components.filter((c) => !byName.has(c.name)).map((c) => c.name)]
    if (!same(afterWrites, order)) pageFields.push('component_order')
    if (pageFields.length > 0) changes.push({ action: 'update', kind: 'page', key: page.slug, fields: pageFields })
    for (const component of components) {
      const was = byName.get(component.name)
      if (!was) changes.push({ action: 'create', kind: 'component', key: `${page.slug}/${component.name}`, fields: [] })
      else {
        const { sla: _was, ...wasFields } = was
        const { sla: _sla, ...componentFields } = component
        const fields = changedFields(wasFields, componentFields)
        if (fields.length > 0) changes.push({ action: 'update', kind: 'component', key: `${page.slug}/${component.name}`, fields })
      }
    }
    finalComponents.set(page.slug, new Set(order))
  }
  const fileSlugs = new Set(pages.map((p) => p.slug))
  if (!options.prune) for (const page of current.pages) if (!fileSlugs.has(page.slug)) finalComponents.set(page.slug, new Set(page.components.map((c) => c.name)))

  // Channels.
  const channels = fileChannels.map((entry) => desiredChannel(entry, currentChannels.get(entry.name.trim())))
  for (const channel of channels) {
    const missing = channel.pages.find((slug) => !finalComponents.has(slug))
    if (missing !== undefined) throw badRequest(`channels "${channel.name}": pages names "${missing}", which is not a page of the file or of the team`)
    const now = currentChannels.get(channel.name)
    if (!now) changes.push({ action: 'create', kind: 'channel', key: channel.name, fields: [] })
    else {
      const fields = changedFields(now, channel)
      // Which settings changed, by name: a secret's value never shows.
      if (fields.includes('settings')) fields.splice(fields.indexOf('settings'), 1, ...changedFields(now.settings, channel.settings))
      if (fields.length > 0) changes.push({ action: 'update', kind: 'channel', key: channel.name, fields: fields.sort() })
    }
  }
  const finalChannels = new Set([...channels.map((c) => c.name), ...(options.prune ? [] : current.channels.map((c) => c.name))])

  // Monitors.
  const monitors = fileMonitors.map((entry) => desiredMonitor(entry, currentMonitors.get(entry.name.trim()), options.minIntervalSeconds))
  const finalMonitors = new Set([...monitors.map((m) => m.name), ...(options.prune ? [] : current.monitors.map((m) => m.name))])
  for (const monitor of monitors) {
    const where = `monitors "${monitor.name}"`
    if (monitor.page !== null && !finalComponents.has(monitor.page)) throw badRequest(`${where}: page "${monitor.page}" is not a page of the file or of the team`)
    if (monitor.page !== null && monitor.component !== null && !finalComponents.get(monitor.page)!.has(monitor.component)) {
      throw badRequest(`${where}: component "${monitor.component}" is not a component of the page "${monitor.page}"`)
    }
    const parent = monitor.parents.find((name) => !finalMonitors.has(name) || name === monitor.name)
    if (parent !== undefined) throw badRequest(`${where}: parents names "${parent}", which is ${parent === monitor.name ? 'the monitor itself' : 'not a monitor of the file or of the team'}`)
    const channel = monitor.alert_channels.find((name) => !finalChannels.has(name))
    if (channel !== undefined) throw badRequest(`${where}: alert_channels names "${channel}", which is not a channel of the file or of the team`)
    const now = currentMonitors.get(monitor.name)
    if (!now) changes.push({ action: 'create', kind: 'monitor', key: monitor.name, fields: [] })
    else {
      const fields = changedFields(now, monitor)
      if (fields.includes('fields')) fields.splice(fields.indexOf('fields'), 1, ...changedFields(now.fields, monitor.fields))
      if (fields.length > 0) changes.push({ action: 'update', kind: 'monitor', key: monitor.name, fields: fields.sort() })
    }
  }

  // Incident templates.
  const fileTemplates = file.templates ?? []
  unique(fileTemplates.map((entry) => entry.name.trim()), 'template')
  const templates = fileTemplates.map(desiredTemplate).sort((a, b) => a.name.localeCompare(b.name))
  const currentTemplates = new Map(current.templates.map((template) => [template.name, template]))
  for (const template of templates) {
    const change = settingChange('template', template.name, currentTemplates.get(template.name) ?? null, template)
    if (change) changes.push(change)
  }

  // The settings of the file's pages and components, once those exist. Automatic incidents that
  // turn fewer components on go first: the plan's limit counts over all the team's pages.
  const settings: PlannedChange[] = []
  const automation: Array<{ change: PlannedChange; added: number }> = []
  for (const page of pages) {
    const where = `pages "${page.slug}"`
    const now = currentPages.get(page.slug)
    const branding = settingChange('branding', page.slug, now?.branding ?? null, page.branding)
    if (branding) settings.push(branding)
    if (page.automatic_incidents) {
      const missing = page.automatic_incidents.components.find((name) => !finalComponents.get(page.slug)!.has(name))
      if (missing !== undefined) throw badRequest(`${where}: automatic_incidents.components names "${missing}", which is not a component of the page`)
    }
    const change = settingChange('automatic_incidents', page.slug, now?.automatic_incidents ?? null, page.automatic_incidents)
    if (change) automation.push({ change, added: (page.automatic_incidents?.components.length ?? 0) - (now?.automatic_incidents?.components.length ?? 0) })
    for (const [kind, list, nowList] of [
      ['maintenance', page.maintenance, now?.maintenance ?? []],
      ['recurring_maintenance', page.recurring_maintenance, now?.recurring_maintenance ?? []],
    ] as const) {
      const byTitle = new Map<string, MaintenanceState | RecurringMaintenanceState>(nowList.map((m) => [m.title, m]))
      for (const window of list) {
        const missing = window.components.find((name) => !finalComponents.get(page.slug)!.has(name))
        if (missing !== undefined) throw badRequest(`${where}: ${kind} "${window.title}": components names "${missing}", which is not a component of the page`)
        const was = byTitle.get(window.title)
        if (was && was.notify_subscribers !== window.notify_subscribers) {
          throw badRequest(`${where}: ${kind} "${window.title}": notify_subscribers cannot be changed once it is scheduled; give it another title for a new one`)
        }
        const change = settingChange(kind, `${page.slug}/${window.title}`, was ?? null, window)
        if (change) settings.push(change)
      }
    }
    const nowComponents = new Map((now?.components ?? []).map((c) => [c.name, c]))
    for (const component of page.components) {
      const sla = settingChange('sla_target', `${page.slug}/${component.name}`, nowComponents.get(component.name)?.sla ?? null, component.sla)
      if (sla) settings.push(sla)
    }
  }
  changes.push(...automation.sort((a, b) => a.added - b.added).map((a) => a.change), ...settings)

  // What the file no longer names, when pruning: monitors first, pages (with what is on them) last.
  if (options.prune) {
    const named = new Set(monitors.map((m) => m.name))
    for (const monitor of current.monitors) if (!named.has(monitor.name)) changes.push({ action: 'delete', kind: 'monitor', key: monitor.name, fields: [] })
    const namedTemplates = new Set(templates.map((template) => template.name))
    for (const template of current.templates) if (!namedTemplates.has(template.name)) changes.push({ action: 'delete', kind: 'template', key: template.name, fields: [] })
    const namedChannels = new Set(channels.map((c) => c.name))
    for (const channel of current.channels) if (!namedChannels.has(channel.name)) changes.push({ action: 'delete', kind: 'channel', key: channel.name, fields: [] })
    for (const page of pages) {
      const was = currentPages.get(page.slug)
      if (!was) continue
      for (const kind of ['maintenance', 'recurring_maintenance'] as const) {
        const keep = new Set(page[kind].map((m) => m.title))
        for (const window of was[kind]) if (!keep.has(window.title)) changes.push({ action: 'delete', kind, key: `${page.slug}/${window.title}`, fields: [] })
      }
    }
    for (const page of pages) {
      const was = currentPages.get(page.slug)
      if (!was) continue
      const keep = new Set(page.components.map((c) => c.name))
      for (const component of was.components) if (!keep.has(component.name)) changes.push({ action: 'delete', kind: 'component', key: `${page.slug}/${component.name}`, fields: [] })
    }
    for (const page of current.pages) if (!fileSlugs.has(page.slug)) changes.push({ action: 'delete', kind: 'page', key: page.slug, fields: [] })
  }

  return { changes, notes, desired: { pages, channels, monitors, templates } }
}
