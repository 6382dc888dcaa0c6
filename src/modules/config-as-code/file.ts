/**
 * The file's text both ways: a team's state written as YAML with its secrets as references (the
 * values go to `secrets`, for whoever needs them — never into the file), and a text read back,
 * checked against the schema with the path of the first problem. Pure.
 */
import { Value } from '@sinclair/typebox/value'
import { badRequest } from '../../lib/errors.ts'
import { offsetAt } from '../maintenances/service.ts'
import { SECRET_FIELDS } from '../channels/service.ts'
import { ConfigFileSchema, type ChannelEntry, type ConfigFile, type MonitorEntry, type PageEntry } from './model.ts'
import { channelVariable, hasCredentials, isSecretHeader, monitorVariable, reference } from './secrets.ts'
import { MAX_CONFIG_BYTES, type TeamState } from './types.ts'

/** What export writes: the file, and the values its references stand for. */
export interface ExportedFile {
  file: ConfigFile
  secrets: Record<string, string>
}

/** An instant as RFC 3339 in a zone's offset at that instant (`2027-01-10T02:00:00+01:00`): what a person wrote. */
export function isoInZone(ms: number, zone: string): string {
  const offset = offsetAt(zone, ms)
  const local = new Date(ms + offset).toISOString().replace(/\.000Z$|Z$/, '')
  if (offset === 0) return `${local}Z`
  const minutes = Math.abs(offset) / 60_000
  return `${local}${offset < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

/** Null and absent mean the same to the API; the file leaves them out. */
const withoutNulls = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T

export function fileOfState(state: TeamState): ExportedFile {
  const secrets: Record<string, string> = {}
  // Two names may give one variable name (`Ops Slack`, `ops-slack`): the second gets a number.
  const secret = (variable: string, value: string): string => {
    let name = variable
    for (let n = 2; secrets[name] !== undefined && secrets[name] !== value; n++) name = `${variable}_${n}`
    secrets[name] = value
    return reference(name)
  }
  const pages: PageEntry[] = state.pages.map((page) => withoutNulls({
    slug: page.slug,
    name: page.name,
    visibility: page.visibility,
    language: page.language,
    time_zone: page.time_zone,
    description: page.description === '' ? undefined : page.description,
    custom_domain: page.custom_domain,
    components: page.components.map((c) => withoutNulls({ name: c.name, type: c.type, group: c.group, description: c.description === '' ? undefined : c.description, sla: c.sla === null ? undefined : { ...c.sla } })),
    branding: page.branding === null ? undefined : { palette: { ...page.branding } },
    automatic_incidents:
      page.automatic_incidents === null
        ? undefined
        : {
            auto_incidents: page.automatic_incidents.auto_incidents,
            auto_incident_notify: page.automatic_incidents.auto_incident_notify,
            auto_resolve: page.automatic_incidents.auto_resolve,
            ...(page.automatic_incidents.components.length > 0 ? { components: [...page.automatic_incidents.components] } : {}),
          },
    maintenance: page.maintenance.length === 0 ? undefined : page.maintenance.map((window) => withoutNulls({
      title: window.title,
      // In the page's time zone: one-off windows have none of their own.
      start_at: isoInZone(window.start_at, page.time_zone),
      end_at: isoInZone(window.end_at, page.time_zone),
      message: window.message === '' ? undefined : window.message,
      components: window.components.length === 0 ? undefined : [...window.components],
      notify_subscribers: window.notify_subscribers ? true : undefined,
    })),
    recurring_maintenance: page.recurring_maintenance.length === 0 ? undefined : page.recurring_maintenance.map((series) => withoutNulls({
      title: series.title,
      message: series.message === '' ? undefined : series.message,
      time_zone: series.time_zone,
      starts_on: series.starts_on,
      start_time: series.start_time,
      duration_minutes: series.duration_minutes,
      frequency: series.frequency,
      interval: series.interval,
      weekdays: series.weekdays.length === 0 ? undefined : [...series.weekdays],
      month_day: series.month_day,
      until: series.until,
      count: series.count,
      exceptions: series.exceptions.length === 0 ? undefined : [...series.exceptions],
      components: series.components.length === 0 ? undefined : [...series.components],
      notify_subscribers: series.notify_subscribers ? true : undefined,
    })),
  }))
  const channels: ChannelEntry[] = state.channels.map((channel) => {
    const settings: Record<string, string> = {}
    for (const [field, value] of Object.entries(channel.settings)) {
      settings[field] = SECRET_FIELDS.has(field as never) ? secret(channelVariable(channel.name, field), value) : value
    }
    return {
      name: channel.name,
      type: channel.type,
      ...settings,
      events: [...channel.events],
      all_pages: channel.all_pages,
      ...(channel.all_pages ? {} : { pages: [...channel.pages] }),
      all_monitors: channel.all_monitors,
      enabled: channel.enabled,
    }
  })
  const monitors: MonitorEntry[] = state.monitors.map((monitor) => {
    const fields: Record<string, unknown> = { ...monitor.fields }
    if (hasCredentials(monitor.fields.target)) fields.target = secret(monitorVariable(monitor.name, 'target'), monitor.fields.target!)
    if (monitor.fields.headers) {
      fields.headers = Object.fromEntries(
        Object.entries(monitor.fields.headers).map(([header, value]) => [header, isSecretHeader(header) ? secret(monitorVariable(monitor.name, `header_${header}`), value) : value]),
      )
    }
    const { type, target, ...rest } = fields
    return withoutNulls({
      name: monitor.name,
      type,
      target,
      page: monitor.page,
      component: monitor.component,
      enabled: monitor.enabled,
      ...rest,
      ...(monitor.parents.length > 0 ? { parents: [...monitor.parents] } : {}),
      ...(monitor.alert_channels.length > 0 ? { alert_channels: [...monitor.alert_channels] } : {}),
    }) as MonitorEntry
  })
  const templates = state.templates.map((template) => ({ name: template.name, title: template.title, ...(template.message === '' ? {} : { message: template.message }) }))
  return { file: { version: 1, pages, channels, monitors, templates }, secrets }
}

const HEADER = '# Lantern configuration (lantern apply -f). Secrets are ${NAME} references, read from the environment.\n'

export function configText(file: ConfigFile): string {
  return `${HEADER}${Bun.YAML.stringify(file, null, 2)}\n`
}

/** The file from its text (YAML or JSON), checked against the schema: a 400 naming the first bad field. */
export function parseConfigText(text: string): ConfigFile {
  if (text.length > MAX_CONFIG_BYTES) throw badRequest(`the file is larger than ${MAX_CONFIG_BYTES} bytes`)
  if (text.includes('\u0000')) throw badRequest('the file must be YAML or JSON text (it holds a NUL character)')
  let parsed: unknown
  try {
    parsed = Bun.YAML.parse(text)
  } catch (error) {
    throw badRequest(`the file is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
  return checkConfig(parsed)
}

export function checkConfig(parsed: unknown): ConfigFile {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('the file must be a mapping with version: 1 at the top')
  if (Value.Check(ConfigFileSchema, parsed)) return parsed
  const first = Value.Errors(ConfigFileSchema, parsed).First()
  const said = (first?.schema as { error?: unknown } | undefined)?.error
  throw badRequest(`${first?.path ? whereIn(parsed, first.path) : 'the file'}: ${typeof said === 'string' ? said : first?.message ?? 'is not a Lantern configuration'}`)
}

/**
 * A JSON pointer as a person reads it, an item of a list named by its key where it has one:
 * `/pages/0/components/1/sla/target_percent` → `pages "acme", components "API", sla.target_percent`.
 */
function whereIn(root: unknown, pointer: string): string {
  let node: unknown = root
  let out = ''
  let afterItem = false
  for (const segment of pointer.split('/').slice(1)) {
    const item = Array.isArray(node) && /^\d+$/.test(segment) ? (node[Number(segment)] as unknown) : undefined
    if (item !== undefined) {
      const named = item as { slug?: unknown; name?: unknown; title?: unknown } | null
      const key = named !== null && typeof named === 'object' ? (named.slug ?? named.name ?? named.title) : undefined
      out += typeof key === 'string' && key.length <= 200 ? ` ${JSON.stringify(key)}` : `[${segment}]`
      afterItem = true
    } else {
      out += out === '' ? segment : afterItem ? `, ${segment}` : `.${segment}`
      afterItem = false
    }
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined
  }
  return out || 'the file'
}
