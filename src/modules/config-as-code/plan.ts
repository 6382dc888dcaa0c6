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
import { HttpError } from '../../lib/errors.ts'
import type { AutomaticIncidentsEntry, BrandingEntry, ChannelEntry, ConfigFile, MonitorEntry, PageEntry, SlaEntry } from './model.ts'
import type { AutomaticIncidentsState, ChannelState, ConfigPlan, MonitorFields, MonitorState, PageState, PlannedChange, SlaTargetState, TeamState } from './types.ts'

export interface PlanOptions {
  /** Delete what the file no longer names. */
  prune: boolean
  /** The plan's shortest monitor interval: the default interval of a monitor that names none. */
  minIntervalSeconds: number
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

/**
 * A page after the API's defaults. A setting (branding, automatic incidents, a component's SLA
 * target) the file leaves out is kept as it is, or removed with prune.
 */
function desiredPage(entry: PageEntry, current: PageState | undefined, prune: boolean): PageState {
  const where = `pages "${entry.slug}"`
  return about(where, () => {
    const kept = <T>(value: T | null | undefined): T | null => (prune ? null : value ?? null)
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
  const pages = filePages.map((entry) => desiredPage(entry, currentPages.get(entry.slug.trim()), options.prune))
  const finalComponents = new Map<string, Set<string>>()
  for (const page of pages) {
    unique(page.components.map((c) => c.name), `page "${page.slug}": component`)
    const now = currentPages.get(page.slug)
    const { components, branding: _branding, automatic_incidents: _automation, ...fields } = page
    if (!now) {
      changes.push({ action: 'create', kind: 'page', key: page.slug, fields: [] })
      for (const component of components) changes.push({ action: 'create', kind: 'component', key: `${page.slug}/${component.name}`, fields: [] })
      finalComponents.set(page.slug, new Set(components.map((c) => c.name)))
      continue
    }
    const { components: nowComponents, branding: _nowBranding, automatic_incidents: _nowAutomation, ...nowFields } = now
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
    const namedChannels = new Set(channels.map((c) => c.name))
    for (const channel of current.channels) if (!namedChannels.has(channel.name)) changes.push({ action: 'delete', kind: 'channel', key: channel.name, fields: [] })
    for (const page of pages) {
      const was = currentPages.get(page.slug)
      if (!was) continue
      const keep = new Set(page.components.map((c) => c.name))
      for (const component of was.components) if (!keep.has(component.name)) changes.push({ action: 'delete', kind: 'component', key: `${page.slug}/${component.name}`, fields: [] })
    }
    for (const page of current.pages) if (!fileSlugs.has(page.slug)) changes.push({ action: 'delete', kind: 'page', key: page.slug, fields: [] })
  }

  return { changes, desired: { pages, channels, monitors } }
}
