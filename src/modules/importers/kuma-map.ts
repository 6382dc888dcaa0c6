/**
 * Uptime Kuma rows → an import plan (pure). The rules:
 * - Monitors: http, keyword, json-query, port (tcp), dns, push, ping, redis, postgres and websocket-upgrade
 *   become monitors of the same kind; group monitors become the group names of their children's components; other kinds are left out.
 *   Kuma's retries (failed checks before down) become confirm_failures = retries + 1, Kuma going up
 *   on the first success becomes confirm_successes = 1. Intervals under Lantern's floor are raised.
 *   Upside-down monitors are left out: Lantern has no inverted check, and a normal one would be wrong.
 *   Paused monitors stay paused. Push monitors keep their token (the push path is the same).
 * - Status pages become pages, each monitor shown on a page a component in its group; the monitor
 *   drives the first component it is shown on (a monitor in Lantern belongs to one component).
 * - Heartbeats become each component's status changes: up and down are kept, pending and
 *   maintenance beats keep the status before them.
 * - Notifications become channels on the pages of the monitors they were on (a default one: all pages).
 * - Single maintenance windows become maintenances on each page they were shown on; recurring
 *   and cron windows are left out (Lantern's maintenances are single windows).
 */
import type { ComponentStatus, ComponentType } from '../components/tables.ts'
import { parseSettings, type ChannelType } from '../channels/types.ts'
import { MIN_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS, MAX_CONFIRM, type MonitorInput } from '../monitors/definition.ts'
import { MAX_PING_COUNT } from '../monitors/kinds/ping.ts'
import type { KumaData } from './kuma-read.ts'
import { MAX_PAGE_DESCRIPTION } from '../status-pages/types.ts'
import { importedDescription, type ImportPlan, type PlannedChannel, type PlannedComponent, type PlannedMaintenance, type PlannedMonitor, type PlannedPage, type ReportLine } from './types.ts'

type Row = Record<string, unknown>

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null)
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null)
const id = (v: unknown): number => num(v) ?? -1

/** Kuma writes UTC times as `YYYY-MM-DD HH:MM:SS(.mmm)`. */
export function kumaTime(raw: unknown): number | null {
  const text = str(raw)
  if (!text) return null
  const at = Date.parse(`${text.trim().replace(' ', 'T')}${/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? '' : 'Z'}`)
  return Number.isFinite(at) ? at : null
}

/** A wall-clock time `YYYY-MM-DDTHH:MM` in `zone` → epoch ms; null for an unknown zone or a bad time. */
export function zonedTime(local: string, zone: string): number | null {
  const guess = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`)
  if (!Number.isFinite(guess)) return null
  if (zone === 'UTC') return guess
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(guess))
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
    const asZone = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
    return guess - (asZone - guess)
  } catch {
    return null
  }
}

const SIMPLE_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/
const JSON_OPERATORS = new Set(['==', '!=', '<', '<=', '>', '>=', 'contains'])

/** Kuma's json-query (a JSONata path, an operator, an expected value) as a Lantern condition, or why not. */
export function jsonQueryCondition(path: string | null, operator: string | null, expected: string | null): { condition: string } | { reason: string } {
  if (!path) return { reason: 'it has no JSON query' }
  if (!SIMPLE_PATH.test(path.trim())) return { reason: `the JSONata expression "${path}" is more than a path; Lantern's conditions take paths such as a.b[0]` }
  const op = operator ?? '=='
  if (!JSON_OPERATORS.has(op)) return { reason: `the operator "${op}" has no Lantern counterpart` }
  const value = expected ?? ''
  const numeric = value.trim() !== '' && Number.isFinite(Number(value))
  const literal = numeric && op !== 'contains' ? String(Number(value)) : value === 'true' || value === 'false' ? value : JSON.stringify(value)
  return { condition: `[BODY].${path.trim()} ${op} ${literal}` }
}

const componentType = (kind: string): ComponentType => (kind === 'dns' ? 'dns' : kind === 'http' || kind === 'keyword' ? 'site' : 'api')

function acceptedStatus(raw: unknown): string | undefined {
  try {
    const list = JSON.parse(str(raw) ?? '[]') as unknown
    if (!Array.isArray(list) || list.length === 0) return undefined
    return list.map(String).join(',')
  } catch {
    return undefined
  }
}

function headersOf(raw: unknown): Record<string, string> | { error: string } {
  const text = str(raw)
  if (!text) return {}
  try {
    const parsed = JSON.parse(text) as unknown
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'its headers are not a JSON object' }
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]))
  } catch {
    return { error: 'its headers are not valid JSON' }
  }
}

/** The monitor as Lantern's API takes it, or why it cannot come. */
function monitorInput(m: Row, changed: ReportLine[]): { input: MonitorInput } | { reason: string } {
  const name = (str(m.name) ?? `Monitor ${id(m.id)}`).slice(0, 100)
  const kind = str(m.type) ?? ''
  const note = (reason: string) => changed.push({ kind: 'monitor', name, reason })
  if (num(m.upside_down) === 1) return { reason: 'it is upside down (up while the target fails); Lantern has no inverted checks' }
  const kuma = num(m.interval) ?? 60
  const interval = Math.min(MAX_INTERVAL_SECONDS, Math.max(MIN_INTERVAL_SECONDS, Math.round(kuma)))
  if (interval !== kuma) note(`interval ${kuma} s became ${interval} s (Lantern checks every ${MIN_INTERVAL_SECONDS} to ${MAX_INTERVAL_SECONDS} s)`)
  const retries = Math.max(0, Math.round(num(m.maxretries) ?? 0))
  const confirm = Math.min(MAX_CONFIRM, retries + 1)
  if (confirm !== retries + 1) note(`${retries} retries became ${confirm - 1} (at most ${MAX_CONFIRM} checks in a row confirm an outage)`)
  const base: MonitorInput = { name, interval_seconds: interval, retries: 0, confirm_failures: confirm, confirm_successes: 1 }
  const timeout = num(m.timeout)
  if (timeout !== null && timeout > 0) base.timeout_ms = Math.min(60_000, Math.max(100, Math.round(timeout * 1000)))
  const http = (): MonitorInput | { reason: string } => {
    const url = str(m.url)
    if (!url) return { reason: 'it has no URL' }
    const headers = headersOf(m.headers)
    if ('error' in headers) return { reason: headers.error as string }
    const user = str(m.basic_auth_user)
    if (user) headers.Authorization = `Basic ${btoa(`${user}:${str(m.basic_auth_pass) ?? ''}`)}`
    const method = (str(m.method) ?? 'GET').toUpperCase() as MonitorInput['method']
    const input: MonitorInput = { ...base, target: url, method, accepted_status: acceptedStatus(m.accepted_statuscodes_json), follow_redirects: (num(m.maxredirects) ?? 10) > 0 }
    if (Object.keys(headers).length > 0) input.headers = headers as Record<string, string>
    const body = str(m.body)
    if (body) input.body = body
    if (num(m.ignore_tls) === 1) note('"ignore TLS errors" is not kept: Lantern always checks certificates')
    return input
  }
  switch (kind) {
    case 'http': {
      const input = http()
      return 'reason' in input ? input : { input: { ...input, type: 'http' } }
    }
    case 'keyword': {
      const input = http()
      if ('reason' in input) return input
      const keyword = str(m.keyword)
      if (!keyword) return { reason: 'it has no keyword' }
      return { input: { ...input, type: 'keyword', keyword, keyword_present: num(m.invert_keyword) !== 1, keyword_case_sensitive: true } }
    }
    case 'json-query': {
      const input = http()
      if ('reason' in input) return input
      const translated = jsonQueryCondition(str(m.json_path), str(m.json_path_operator), str(m.expected_value))
      if ('reason' in translated) return translated
      return { input: { ...input, type: 'json', conditions: [translated.condition] } }
    }
    case 'port': {
      const host = str(m.hostname)
      const port = num(m.port)
      if (!host || port === null) return { reason: 'it has no host or port' }
      return { input: { ...base, type: 'tcp', target: host, port } }
    }
    case 'dns': {
      const host = str(m.hostname)
      if (!host) return { reason: 'it has no host name' }
      const input: MonitorInput = { ...base, type: 'dns', target: host, record_type: (str(m.dns_resolve_type) ?? 'A') as MonitorInput['record_type'] }
      const server = str(m.dns_resolve_server)
      if (server) {
        const port = num(m.port) ?? 53
        input.resolver = port === 53 ? server : server.includes(':') ? `[${server}]:${port}` : `${server}:${port}`
      }
      const conditions = parseKumaConditions(m.conditions)
      if ('reason' in conditions) return conditions
      if (conditions.expected.length > 0) input.expected = conditions.expected
      return { input }
    }
    case 'push':
      return { input: { ...base, type: 'push', push_grace_seconds: 0 } }
    case 'ping': {
      const host = str(m.hostname)
      if (!host) return { reason: 'it has no host name' }
      const input: MonitorInput = { ...base, type: 'ping', target: host }
      // Kuma 2 chooses the echo requests per run; Kuma 1 always sends one.
      const count = num(m.ping_count) ?? 1
      input.ping_count = Math.min(MAX_PING_COUNT, Math.max(1, Math.round(count)))
      if (input.ping_count !== count) note(`${count} echo requests per run became ${input.ping_count} (at most ${MAX_PING_COUNT})`)
      if ((num(m.packet_size) ?? 56) !== 56) note(`the packet size ${num(m.packet_size)} is not kept: Lantern sends the system ping's default`)
      return { input }
    }
    case 'redis': {
      const url = str(m.database_connection_string)
      if (!url) return { reason: 'it has no connection string' }
      return { input: { ...base, type: 'redis', target: url } }
    }
    case 'postgres': {
      const url = str(m.database_connection_string)
      if (!url) return { reason: 'it has no connection string' }
      const input: MonitorInput = { ...base, type: 'postgres', target: url }
      const query = str(m.database_query)
      if (query) input.query = query
      return { input }
    }
    case 'websocket-upgrade': {
      const url = str(m.url)
      if (!url) return { reason: 'it has no URL' }
      return { input: { ...base, type: 'websocket', target: url } }
    }
    default:
      return { reason: `Lantern has no "${kind}" monitor kind` }
  }
}

/** Kuma 2's DNS conditions: only "record equals X" (joined with or/and of the same kind) map to expected answers. */
function parseKumaConditions(raw: unknown): { expected: string[] } | { reason: string } {
  let list: unknown
  try {
    list = JSON.parse(str(raw) ?? '[]')
  } catch {
    return { reason: 'its conditions are not valid JSON' }
  }
  if (!Array.isArray(list)) return { reason: 'its conditions are not a list' }
  const expected: string[] = []
  for (const c of list as Row[]) {
    if (c?.type !== 'expression' || c.variable !== 'record' || c.operator !== 'equals' || typeof c.value !== 'string') {
      return { reason: `the condition ${JSON.stringify(c)} has no Lantern counterpart (DNS monitors compare the answer with expected values)` }
    }
    expected.push(c.value)
  }
  return { expected }
}

/** A Kuma notification as a channel's type and settings, or why it cannot come. */
function channelOf(n: Row, changed: ReportLine[]): { type: ChannelType; settings: Record<string, string> } | { reason: string } {
  let config: Row
  try {
    config = JSON.parse(str(n.config) ?? '{}') as Row
  } catch {
    return { reason: 'its settings are not valid JSON' }
  }
  const name = str(n.name) ?? `Notification ${id(n.id)}`
  const note = (reason: string) => changed.push({ kind: 'notification', name, reason })
  const provider = str(config.type) ?? ''
  let type: ChannelType
  let input: Record<string, string | undefined>
  switch (provider.toLowerCase()) {
    case 'smtp': {
      const to = (str(config.smtpTo) ?? '').split(/[,;]/).map((s) => s.trim()).filter(Boolean)
      if (to.length === 0) return { reason: 'it has no recipient' }
      if (to.length > 1 || str(config.smtpCC) || str(config.smtpBCC)) note(`only the first recipient (${to[0]}) is kept; add a channel for each other address (CC/BCC too)`)
      note('Lantern sends from its own mail server and asks the address to confirm before mailing it')
      type = 'email'
      input = { address: to[0] }
      break
    }
    case 'webhook':
      type = 'webhook'
      input = { url: str(config.webhookURL) ?? undefined }
      if (str(config.webhookAdditionalHeaders) || str(config.webhookCustomBody)) note('extra headers and a custom body are not kept; Lantern signs its webhooks (Standard Webhooks) instead')
      break
    case 'slack':
      type = 'slack'
      input = { url: str(config.slackwebhookURL) ?? undefined }
      break
    case 'discord':
      type = 'discord'
      input = { url: str(config.discordWebhookUrl) ?? undefined }
      break
    case 'teams':
      type = 'teams'
      input = { url: str(config.webhookUrl) ?? undefined }
      break
    case 'ntfy': {
      type = 'ntfy'
      const server = str(config.ntfyserverurl)
      if (server && !/^https:\/\/ntfy\.sh\/?$/.test(server)) return { reason: `it posts to the ntfy server ${server}; Lantern's ntfy channels post to ntfy.sh` }
      input = { topic: str(config.ntfytopic) ?? undefined, access_token: str(config.ntfyaccesstoken) ?? undefined }
      break
    }
    case 'telegram': {
      type = 'telegram'
      const server = str(config.telegramServerUrl)
      if (server && !/^https:\/\/api\.telegram\.org\/?$/.test(server)) note(`the bot API server ${server} is not kept; Lantern talks to api.telegram.org`)
      input = { bot_token: str(config.telegramBotToken) ?? undefined, chat_id: str(config.telegramChatID) ?? undefined }
      break
    }
    case 'pagerduty': {
      type = 'pagerduty'
      const url = str(config.pagerdutyIntegrationUrl)
      if (url && !/^https:\/\/events\.pagerduty\.com\/v2\/enqueue\/?$/.test(url)) note(`the events URL ${url} is not kept; Lantern sends to events.pagerduty.com`)
      input = { routing_key: str(config.pagerdutyIntegrationKey) ?? undefined }
      break
    }
    default:
      return { reason: `Lantern has no "${provider}" channel type` }
  }
  try {
    return { type, settings: parseSettings(type, input) }
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) }
  }
}

export type StatusChanges = Array<{ status: ComponentStatus; at: number }>

/**
 * Heartbeats (by monitor, in time order) → each monitor's status changes: up and down kept, pending
 * and maintenance keep what was before. The beats are read one at a time and only the changes are
 * kept: a year of a thousand monitors' beats is millions of rows, their changes a few thousand.
 */
export function historiesOf(beats: Iterable<Row>): Map<number, StatusChanges> {
  const histories = new Map<number, StatusChanges>()
  for (const beat of beats) {
    const code = num(beat.status)
    const status: ComponentStatus | null = code === 1 ? 'up' : code === 0 ? 'down' : null
    const at = kumaTime(beat.time)
    if (status === null || at === null) continue
    const monitorId = id(beat.monitor_id)
    let changes = histories.get(monitorId)
    if (!changes) histories.set(monitorId, (changes = []))
    if (changes.at(-1)?.status !== status) changes.push({ status, at })
  }
  return histories
}

export function planFromKuma(data: KumaData): ImportPlan {
  const skipped: ReportLine[] = []
  const changed: ReportLine[] = []
  const monitorsById = new Map(data.monitors.map((m) => [id(m.id), m]))
  const monitorName = (mid: number) => str(monitorsById.get(mid)?.name) ?? `Monitor ${mid}`

  // Pages.
  const pages: PlannedPage[] = []
  const pageKeyOf = new Map<number, string>()
  for (const p of data.statusPages) {
    const pid = id(p.id)
    const key = `page:${pid}`
    const name = (str(p.title) ?? str(p.slug) ?? `Page ${pid}`).slice(0, 100)
    const domains = data.cnames.filter((c) => id(c.status_page_id) === pid).map((c) => str(c.domain)).filter((d): d is string => d !== null)
    if (domains.length > 1) changed.push({ kind: 'status page', name, reason: `only the first custom domain (${domains[0]}) is kept; a Lantern page has one` })
    pageKeyOf.set(pid, key)
    const description = importedDescription(str(p.description), MAX_PAGE_DESCRIPTION)
    if (description.cut) changed.push({ kind: 'status page', name, reason: `its description is cut to ${MAX_PAGE_DESCRIPTION} characters` })
    pages.push({ key, slug: (str(p.slug) ?? `page-${pid}`).toLowerCase(), name, customDomain: domains[0] ?? null, customCss: str(p.custom_css), description: description.text })
    const left: string[] = []
    if (str(p.footer_text)) left.push('footer')
    if (str(p.icon) && str(p.icon) !== '/icon.svg') left.push('icon')
    if (str(p.password)) left.push('password')
    if (str(p.analytics_id) || str(p.google_analytics_tag_id)) left.push('analytics')
    if (str(p.rss_title)) left.push('RSS title')
    if (left.length > 0) skipped.push({ kind: 'status page setting', name, reason: `${left.join(', ')} not brought: Lantern pages have no such field (write them into the page's text by hand)` })
    if (num(p.published) === 0) changed.push({ kind: 'status page', name, reason: 'it was unpublished in Kuma; it is public in Lantern (make it private if needed)' })
  }

  // Components: one per monitor shown on a page, in the page's group order.
  const components: PlannedComponent[] = []
  const groupsById = new Map(data.groups.map((g) => [id(g.id), g]))
  const firstComponentOf = new Map<number, { key: string; pageKey: string }>()
  const componentsOfMonitor = new Map<number, PlannedComponent[]>()
  const positions = new Map<string, number>()
  const orderedLinks = [...data.monitorGroups].sort((a, b) => {
    const ga = groupsById.get(id(a.group_id))
    const gb = groupsById.get(id(b.group_id))
    return id(ga?.status_page_id) - id(gb?.status_page_id) || (num(ga?.weight) ?? 0) - (num(gb?.weight) ?? 0) || id(a.group_id) - id(b.group_id) || (num(a.weight) ?? 0) - (num(b.weight) ?? 0) || id(a.id) - id(b.id)
  })
  for (const link of orderedLinks) {
    const group = groupsById.get(id(link.group_id))
    const pageKey = group ? pageKeyOf.get(id(group.status_page_id)) : undefined
    const mid = id(link.monitor_id)
    const monitor = monitorsById.get(mid)
    if (!group || !pageKey || !monitor) {
      skipped.push({ kind: 'status page entry', name: monitorName(mid), reason: 'its group, page or monitor no longer exists in the Kuma database' })
      continue
    }
    const position = positions.get(pageKey) ?? 0
    positions.set(pageKey, position + 1)
    const component: PlannedComponent = {
      key: `${pageKey}:group:${id(group.id)}:monitor:${mid}`,
      pageKey,
      name: (str(monitor.name) ?? `Monitor ${mid}`).slice(0, 100),
      type: componentType(str(monitor.type) ?? ''),
      groupName: str(group.name),
      position,
      description: '',
      history: data.histories.get(mid) ?? [],
    }
    components.push(component)
    if (!firstComponentOf.has(mid)) firstComponentOf.set(mid, { key: component.key, pageKey })
    componentsOfMonitor.set(mid, [...(componentsOfMonitor.get(mid) ?? []), component])
    if (str(link.custom_url)) changed.push({ kind: 'status page entry', name: component.name, reason: `its link ${str(link.custom_url)} is not shown (Lantern components have no link)` })
  }

  // Monitors.
  const monitors: PlannedMonitor[] = []
  const importedMonitor = new Set<number>()
  const tagsById = new Map(data.tags.map((t) => [id(t.id), str(t.name) ?? '']))
  for (const m of data.monitors) {
    const mid = id(m.id)
    const name = monitorName(mid)
    const kind = str(m.type) ?? ''
    const tags = data.monitorTags.filter((t) => id(t.monitor_id) === mid).map((t) => (str(t.value) ? `${tagsById.get(id(t.tag_id))}:${str(t.value)}` : tagsById.get(id(t.tag_id)) ?? ''))
    if (kind === 'group') {
      const children = data.monitors.filter((c) => id(c.parent) === mid).map((c) => str(c.name))
      skipped.push({ kind: 'monitor', name, reason: `a group monitor is not a check in Lantern; its ${children.length} children are imported on their own (${children.join(', ')})` })
      continue
    }
    const result = monitorInput(m, changed)
    if ('reason' in result) {
      skipped.push({ kind: 'monitor', name, reason: result.reason })
      continue
    }
    const placed = firstComponentOf.get(mid)
    const shown = componentsOfMonitor.get(mid) ?? []
    if (shown.length > 1) changed.push({ kind: 'monitor', name, reason: `shown on ${shown.length} status page entries; it drives the first, the others keep its history and are set by hand` })
    if (tags.length > 0 || str(m.description)) {
      changed.push({ kind: 'monitor', name, reason: `${[tags.length > 0 ? `tags ${tags.join(', ')}` : '', str(m.description) ? `description "${str(m.description)}"` : ''].filter(Boolean).join(' and ')} not kept: Lantern monitors have no tags or notes` })
    }
    monitors.push({
      key: `monitor:${mid}`,
      input: result.input,
      enabled: num(m.active) !== 0,
      componentKey: placed?.key ?? null,
      pageKey: placed?.pageKey ?? null,
      pushToken: kind === 'push' ? str(m.push_token) : null,
    })
    importedMonitor.add(mid)
  }
  // Components whose monitor did not come keep their history and are not driven by a check.
  for (const [mid, list] of componentsOfMonitor) {
    if (!importedMonitor.has(mid) && str(monitorsById.get(mid)?.type) !== 'group') {
      for (const c of list) changed.push({ kind: 'status page entry', name: c.name, reason: 'its monitor was not brought; the component keeps its history and is set by hand' })
    }
  }

  // Channels.
  const channels: PlannedChannel[] = []
  for (const n of data.notifications) {
    const nid = id(n.id)
    const name = (str(n.name) ?? `Notification ${nid}`).slice(0, 100)
    const result = channelOf(n, changed)
    if ('reason' in result) {
      skipped.push({ kind: 'notification', name, reason: result.reason })
      continue
    }
    const onMonitors = data.monitorNotifications.filter((l) => id(l.notification_id) === nid).map((l) => id(l.monitor_id))
    const pageKeys = [...new Set(onMonitors.flatMap((mid) => (componentsOfMonitor.get(mid) ?? []).map((c) => c.pageKey)))].sort()
    const allPages = num(n.is_default) === 1
    if (!allPages && onMonitors.length > 0) {
      const off = onMonitors.filter((mid) => !componentsOfMonitor.has(mid)).map(monitorName)
      if (off.length > 0) changed.push({ kind: 'notification', name, reason: `it was on monitors shown on no status page (${off.join(', ')}); Lantern channels follow pages, so it does not hear them` })
    }
    channels.push({ key: `notification:${nid}`, type: result.type, name, settings: result.settings, enabled: num(n.active) !== 0, allPages, pageKeys: allPages ? [] : pageKeys })
  }

  // Maintenances.
  const maintenances: PlannedMaintenance[] = []
  for (const w of data.maintenances) {
    const wid = id(w.id)
    const title = (str(w.title) ?? `Maintenance ${wid}`).slice(0, 200)
    const strategy = str(w.strategy) ?? ''
    if (strategy !== 'single') {
      skipped.push({ kind: 'maintenance', name: title, reason: `it repeats (${strategy}${str(w.cron) ? ` ${str(w.cron)}` : ''}); Lantern maintenances are single windows: schedule the next ones by hand` })
      continue
    }
    const zone = str(w.timezone) ?? 'UTC'
    const start = str(w.start_date) ? zonedTime(str(w.start_date)!, zone === 'SAME_AS_SERVER' ? 'UTC' : zone) : null
    const end = str(w.end_date) ? zonedTime(str(w.end_date)!, zone === 'SAME_AS_SERVER' ? 'UTC' : zone) : null
    if (start === null || end === null || end <= start) {
      skipped.push({ kind: 'maintenance', name: title, reason: 'its start and end are missing or not in order' })
      continue
    }
    const onPages = data.maintenancePages.filter((l) => id(l.maintenance_id) === wid).map((l) => pageKeyOf.get(id(l.status_page_id))).filter((k): k is string => k !== undefined)
    if (onPages.length === 0) {
      skipped.push({ kind: 'maintenance', name: title, reason: 'it is shown on no status page; a Lantern maintenance belongs to a page' })
      continue
    }
    const onMonitors = new Set(data.monitorMaintenances.filter((l) => id(l.maintenance_id) === wid).map((l) => id(l.monitor_id)))
    for (const pageKey of onPages) {
      maintenances.push({
        key: `maintenance:${wid}:${pageKey}`,
        pageKey,
        title,
        message: str(w.description) ?? '',
        startAt: start,
        endAt: end,
        componentKeys: components.filter((c) => c.pageKey === pageKey && [...onMonitors].some((mid) => c.key.endsWith(`:monitor:${mid}`))).map((c) => c.key),
      })
    }
  }

  for (const incident of data.incidents) {
    skipped.push({ kind: 'incident', name: str(incident.title) ?? `Incident ${id(incident.id)}`, reason: 'Kuma incidents are pinned notes; they are not brought (post them as incidents by hand if still current)' })
  }
  for (const [table, count] of Object.entries(data.leftOut)) {
    skipped.push({ kind: 'setting', name: table, reason: `${count} row(s) not brought: Lantern has no counterpart (API keys are made anew; proxies and Docker hosts do not exist)` })
  }
  return { source: 'uptime-kuma', sourceVersion: data.version, pages, components, monitors, channels, maintenances, skipped, changed }
}
