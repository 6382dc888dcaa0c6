/**
 * One event as every adapter renders it: the facts loaded ONCE (in the emitting transaction, so
 * they are exactly what was just written), with a title, plain-text lines, a severity and the
 * PagerDuty-style alert key. Adapters (adapters/*.ts) only format this; they never query.
 */
import { counted } from '../../lib/words.ts'
import type { Db } from '../../db/client.ts'
import type { Config } from '../../config.ts'
import { formatDateTime } from '../../lib/human-time.ts'
import { markdownToText } from '../../lib/safe-markdown.ts'
import { toIso } from '../../lib/time.ts'
import { formatDuration } from '../auto-incidents/rules.ts'
import { StatusHistoryReader } from '../components/service.ts'
import type { ComponentStatus } from '../components/tables.ts'
import type { IncidentImpact } from '../incidents/tables.ts'
import { incidentStateLabel } from '../incidents/states.ts'
import type { NotifyEvent, NotifyEventKind } from '../notify/contract.ts'
import { PageStatusRepo } from '../status-pipeline/repo.ts'
import { PageStatusService } from '../status-pipeline/service.ts'
import { componentDisplayStatus, STATUS_LABELS, type DisplayStatus } from '../status-pipeline/status.ts'
import { statusPageUrl } from '../status-pages/urls.ts'

export type Severity = 'critical' | 'warning' | 'info' | 'ok'

export interface IncidentFacts {
  id: number
  name: string
  state: string
  createdAt: number
  updatedAt: number
  startedAt: number
  resolvedAt: number | null
  /** The impact its owner chose; null: derived from the components. */
  impact: IncidentImpact | null
  components: Array<{ id: number; name: string; status: string }>
  /** Newest first (as Statuspage sends them), at most 20. */
  updates: Array<{ id: number; state: string; message: string; at: number }>
  /** The published postmortem (Markdown), null without one. */
  postmortem: string | null
}

export interface MaintenanceFacts {
  id: number
  name: string
  message: string
  startAt: number
  endAt: number
  createdAt: number
  updatedAt: number
  components: Array<{ id: number; name: string }>
}

export interface EventView {
  /** `test` for "Send test". */
  kind: NotifyEventKind | 'test'
  at: number
  /** Stable per event: receivers de-duplicate retried deliveries by it. */
  id: string
  /** One line, e.g. "Incident opened: Database slow". */
  title: string
  /** Plain-text lines under the title (messages, window times, status change). */
  lines: string[]
  severity: Severity
  /** `overall`: the page's status right after the event (its status page's banner). */
  page: { id: number; slug: string; name: string; url: string; overall: DisplayStatus } | null
  /** Where a person reads more (the status page); null for events without one. */
  link: string | null
  /** The alert this event opens or closes (PagerDuty `dedup_key`): `lantern:<what>:<id>`. */
  alertKey: string
  /** Whether the event ends the alert of `alertKey` (resolved, back up, renewed, delisted, ended). */
  resolves: boolean
  incident?: IncidentFacts
  component?: { id: number; name: string; from: string; to: string }
  maintenance?: MaintenanceFacts
  /** The event's own fields, for kinds without richer facts (SLA, certificates, DNSBL, email auth). */
  details: Record<string, string | number | null>
  /**
   * The outage a component change starts or ends: `key` is the same for both messages
   * (`component:<id>:<start ms>`); `endedAt` is set by the change that ends it.
   */
  outage?: { key: string; since: number; endedAt: number | null }
  /** A monitor event's monitor and its screen. */
  monitor?: { id: number; url: string }
  /** The monitors whose change caused the message (grouped messages, outage-view.ts). */
  monitors?: MonitorFacts[]
}

/** A monitor named in a message: what it checks and why it is in the state it is. */
export interface MonitorFacts {
  id: number
  name: string
  /** URL, host:port, name…; null for push monitors. */
  target: string | null
  state: string
  /** The last check's message, e.g. "HTTP 503" or "connect ECONNREFUSED 10.0.0.7:443". */
  reason: string | null
  responseMs: number | null
  since: number
}

/** A component status in the words the public page uses (Operational, Major outage…). */
export const statusLabel = (status: string): string => STATUS_LABELS[componentDisplayStatus(status as ComponentStatus, false)]


async function pageOf(db: Db, pageId: number | null, at: number, config: Pick<Config, 'scheme' | 'statusDomain'>): Promise<EventView['page']> {
  if (pageId === null) return null
  const row = await db
    .selectFrom('status_pages')
    .innerJoin('teams', 'teams.id', 'status_pages.owner_id')
    .select(['status_pages.id', 'status_pages.name', 'status_pages.slug', 'status_pages.custom_domain', 'status_pages.custom_domain_state', 'teams.plan'])
    .where('status_pages.id', '=', pageId)
    .executeTakeFirst()
  if (!row) return null
  // Read in the emitting transaction: the status includes the change that caused the event.
  const { overall } = await new PageStatusService(new PageStatusRepo(db), { now: () => at }).snapshot(pageId, { now: at })
  return { id: row.id, slug: row.slug, name: row.name, url: statusPageUrl({ slug: row.slug, customDomain: row.custom_domain, customDomainState: row.custom_domain_state, plan: row.plan }, config), overall }
}

async function incidentFacts(db: Db, incidentId: number): Promise<IncidentFacts | undefined> {
  const row = await db.selectFrom('incidents').selectAll().where('id', '=', incidentId).executeTakeFirst()
  if (!row) return undefined
  const [components, updates] = await Promise.all([
    db.selectFrom('incident_components').innerJoin('components', 'components.id', 'incident_components.component_id')
      .select(['components.id', 'components.name', 'components.status']).where('incident_components.incident_id', '=', incidentId)
      .orderBy('components.position').execute(),
    db.selectFrom('incident_updates').select(['id', 'state', 'message', 'at']).where('incident_id', '=', incidentId)
      .orderBy('at', 'desc').orderBy('id', 'desc').limit(20).execute(),
  ])
  return { id: row.id, name: row.title, state: row.state, createdAt: row.created_at, updatedAt: row.updated_at, startedAt: row.started_at, resolvedAt: row.resolved_at, impact: row.impact, components, updates, postmortem: row.postmortem_published_at === null ? null : row.postmortem }
}

async function maintenanceFacts(db: Db, maintenanceId: number): Promise<MaintenanceFacts | undefined> {
  const row = await db.selectFrom('maintenances').selectAll().where('id', '=', maintenanceId).executeTakeFirst()
  if (!row) return undefined
  const components = await db.selectFrom('maintenance_components').innerJoin('components', 'components.id', 'maintenance_components.component_id')
    .select(['components.id', 'components.name']).where('maintenance_components.maintenance_id', '=', maintenanceId).orderBy('components.position').execute()
  return { id: row.id, name: row.title, message: row.message, startAt: row.start_at, endAt: row.end_at, createdAt: row.created_at, updatedAt: row.updated_at, components }
}

const INCIDENT_VERBS = { 'incident.opened': 'Incident opened', 'incident.updated': 'Incident updated', 'incident.resolved': 'Incident resolved', 'incident.postmortem': 'Postmortem published' } as const
const MAINTENANCE_VERBS = { 'maintenance.scheduled': 'Maintenance scheduled', 'maintenance.started': 'Maintenance started', 'maintenance.ended': 'Maintenance ended' } as const

/** The view of `event`, or undefined when what it names is gone (deleted in the same transaction). */
export async function loadEventView(db: Db, event: NotifyEvent, config: Pick<Config, 'scheme' | 'statusDomain' | 'baseUrl'>): Promise<EventView | undefined> {
  const page = await pageOf(db, event.pageId, event.at, config)
  const base = { kind: event.kind, at: event.at, page, link: page?.url ?? null }
  switch (event.kind) {
    case 'incident.opened':
    case 'incident.updated':
    case 'incident.resolved':
    case 'incident.postmortem': {
      const incident = await incidentFacts(db, event.incidentId)
      if (!incident) return undefined
      const latest = event.updateId === undefined ? incident.updates[0] : (incident.updates.find((u) => u.id === event.updateId) ?? incident.updates[0])
      const affected = incident.components.length === 0 ? 'All systems' : incident.components.map((c) => c.name).join(', ')
      const lines = [`State: ${incidentStateLabel(incident.state)}`, `Affected: ${affected}`]
      if (event.kind === 'incident.postmortem') lines.push(markdownToText(incident.postmortem ?? ''))
      else if (latest?.message) lines.push(markdownToText(latest.message))
      return {
        ...base,
        id: `incident:${incident.id}:${latest?.id ?? 0}:${event.kind}`,
        title: `${INCIDENT_VERBS[event.kind]}: ${incident.name}`,
        lines,
        severity: event.kind === 'incident.resolved' || event.kind === 'incident.postmortem' ? 'ok' : 'critical',
        link: page ? `${page.url}/incidents/${incident.id}` : null,
        alertKey: `lantern:incident:${incident.id}`,
        resolves: event.kind === 'incident.resolved',
        incident,
        details: {},
      }
    }
    case 'component.status_changed': {
      const row = await db.selectFrom('components').select(['id', 'name']).where('id', '=', event.componentId).executeTakeFirst()
      if (!row) return undefined
      const since = event.from === 'up' ? event.at : await outageStart(db, row.id, event.at)
      const ended = event.to === 'up' && since !== null
      const lines = [`${row.name}: ${statusLabel(event.from)} → ${statusLabel(event.to)}`]
      lines.push(ended ? `Duration: ${formatDuration(event.at - since)}, since ${formatDateTime(since)}` : `Since ${formatDateTime(event.at)}`)
      return {
        ...base,
        id: `component:${row.id}:${event.at}:${event.to}`,
        title: ended ? `${row.name}: ${statusLabel('up')} again after ${formatDuration(event.at - since)}` : `${row.name}: ${statusLabel(event.to)}`,
        lines,
        severity: event.to === 'down' || event.to === 'partial' ? 'critical' : event.to === 'degraded' ? 'warning' : 'ok',
        alertKey: `lantern:component:${row.id}`,
        resolves: event.to === 'up',
        component: { id: row.id, name: row.name, from: event.from, to: event.to },
        details: {},
        ...(since !== null ? { outage: { key: `component:${row.id}:${since}`, since, endedAt: event.to === 'up' ? event.at : null } } : {}),
      }
    }
    case 'maintenance.scheduled':
    case 'maintenance.started':
    case 'maintenance.ended': {
      const maintenance = await maintenanceFacts(db, event.maintenanceId)
      if (!maintenance) return undefined
      const affected = maintenance.components.length === 0 ? 'All systems' : maintenance.components.map((c) => c.name).join(', ')
      const lines = [`Window: ${formatDateTime(maintenance.startAt)} – ${formatDateTime(maintenance.endAt)}`, `Affected: ${affected}`]
      if (maintenance.message) lines.push(maintenance.message)
      return {
        ...base,
        id: `maintenance:${maintenance.id}:${event.kind}`,
        title: `${MAINTENANCE_VERBS[event.kind]}: ${maintenance.name}`,
        lines,
        severity: event.kind === 'maintenance.ended' ? 'ok' : 'info',
        alertKey: `lantern:maintenance:${maintenance.id}`,
        resolves: event.kind === 'maintenance.ended',
        maintenance,
        details: {},
      }
    }
    case 'sla.breach': {
      const row = await db.selectFrom('components').select(['id', 'name']).where('id', '=', event.componentId).executeTakeFirst()
      const name = row?.name ?? `Component ${event.componentId}`
      return {
        ...base,
        id: `sla:${event.componentId}:${event.periodStart}:${event.thresholdPct}`,
        title: `${name}: ${event.thresholdPct}% of the SLA error budget used`,
        lines: [`Target ${event.targetPct}%, actual ${event.actualPct}% this period (since ${formatDateTime(event.periodStart)})`],
        severity: event.thresholdPct >= 100 ? 'critical' : 'warning',
        alertKey: `lantern:sla:${event.componentId}:${event.periodStart}`,
        resolves: false,
        details: { component_id: event.componentId, threshold_pct: event.thresholdPct, target_pct: event.targetPct, actual_pct: event.actualPct, period_start: toIso(event.periodStart) },
      }
    }
    case 'certificate.expiring':
    case 'certificate.renewed': {
      const renewed = event.kind === 'certificate.renewed'
      return {
        ...base,
        id: `certificate:${event.monitorId}:${event.notAfter}:${event.kind}:${event.daysLeft}`,
        title: renewed ? `Certificate of ${event.host} renewed` : `Certificate of ${event.host} expires in ${counted(event.daysLeft, 'day')}`,
        lines: [`Valid until ${formatDateTime(event.notAfter)}`],
        severity: renewed ? 'ok' : event.daysLeft <= 5 ? 'critical' : 'warning',
        alertKey: `lantern:certificate:${event.monitorId}`,
        resolves: renewed,
        details: { monitor_id: event.monitorId, host: event.host, days_left: event.daysLeft, not_after: toIso(event.notAfter) },
      }
    }
    case 'dnsbl.listed':
    case 'dnsbl.delisted': {
      const listed = event.kind === 'dnsbl.listed'
      return {
        ...base,
        id: `dnsbl:${event.monitorId}:${event.zone}:${event.kind}:${event.at}`,
        title: listed ? `${event.target} is listed on ${event.zone}` : `${event.target} is no longer listed on ${event.zone}`,
        lines: [`Checked ${formatDateTime(event.at)}`],
        severity: listed ? 'critical' : 'ok',
        alertKey: `lantern:dnsbl:${event.monitorId}:${event.zone}`,
        resolves: !listed,
        details: { monitor_id: event.monitorId, target: event.target, zone: event.zone },
      }
    }
    case 'monitor.down':
    case 'monitor.up':
    case 'monitor.degraded':
    case 'monitor.misconfigured':
      return monitorEventView(db, event, base, config)
    case 'email_auth.changed':
      return {
        ...base,
        id: `email_auth:${event.monitorId}:${event.at}`,
        title: `Email authentication of ${event.domain} changed`,
        lines: [event.summary],
        severity: 'warning',
        alertKey: `lantern:email_auth:${event.monitorId}`,
        resolves: false,
        details: { monitor_id: event.monitorId, domain: event.domain, summary: event.summary },
      }
  }
}

type MonitorEvent = Extract<NotifyEvent, { kind: 'monitor.down' | 'monitor.up' | 'monitor.degraded' | 'monitor.misconfigured' }>

/** The owner's screen of a monitor. */
export const monitorScreenUrl = (baseUrl: string, monitorId: number) => `${baseUrl}/user/monitors/${monitorId}`

const MONITOR_WORDS: Record<MonitorEvent['kind'], string> = {
  'monitor.down': 'is down',
  'monitor.up': 'is up',
  'monitor.degraded': 'is degraded',
  'monitor.misconfigured': 'cannot run: its settings need a fix',
}

/**
 * A monitor's own alert: the monitor, its target, the reason, since when, the last response time,
 * the regions that see it down and its screen. One alert key per outage (`lantern:monitor:<id>:<since>`):
 * the recovery and every reminder close or repeat the alert the outage opened.
 */
async function monitorEventView(db: Db, event: MonitorEvent, base: Pick<EventView, 'kind' | 'at' | 'page' | 'link'>, config: { baseUrl: string }): Promise<EventView | undefined> {
  const row = await db
    .selectFrom('monitors')
    .select(['id', 'name', 'type', 'target', 'state', 'last_message', 'last_response_ms', 'state_since', 'regions_json'])
    .where('id', '=', event.monitorId)
    .executeTakeFirst()
  if (!row) return undefined
  const regions = JSON.parse(row.regions_json) as string[]
  const regionsDown =
    regions.length > 1 || regions[0] !== 'local'
      ? (await db.selectFrom('monitor_region_states').select('region').where('monitor_id', '=', row.id).where('state', '=', 'down').orderBy('region').execute()).map((r) => r.region)
      : []
  const up = event.kind === 'monitor.up'
  const reason = row.last_message?.trim() || null
  const target = row.target ?? 'push'
  const name = `Monitor "${row.name}"`
  const title = up
    ? `${name} is up again after ${formatDuration(event.at - event.since)}`
    : `${event.reminder ? `Still down (reminder ${event.reminder}): ` : ''}${name} ${MONITOR_WORDS[event.kind]}${reason ? `: ${reason}` : ''}`
  const lines = [`Target: ${target}`]
  if (!up && reason) lines.push(`Reason: ${reason}`)
  lines.push(up ? `Duration: ${formatDuration(event.at - event.since)}, since ${formatDateTime(event.since)}` : `Since ${formatDateTime(event.since)}`)
  if (row.last_response_ms !== null) lines.push(`Last response time: ${row.last_response_ms} ms`)
  if (regionsDown.length > 0) lines.push(`Regions seeing it down: ${regionsDown.join(', ')}`)
  const link = monitorScreenUrl(config.baseUrl, row.id)
  return {
    ...base,
    id: `monitor:${row.id}:${event.at}:${event.kind}${event.reminder ? `:${event.reminder}` : ''}`,
    title,
    lines,
    severity: event.kind === 'monitor.down' ? 'critical' : up ? 'ok' : 'warning',
    link,
    alertKey: `lantern:monitor:${row.id}:${event.since}`,
    resolves: up,
    details: {
      monitor_id: row.id,
      monitor_name: row.name,
      monitor_type: row.type,
      target: row.target,
      previous_state: event.from,
      state: event.to,
      reason,
      since: toIso(event.since),
      response_ms: row.last_response_ms,
      regions_down: regionsDown.length > 0 ? regionsDown.join(',') : null,
      reminder: event.reminder ?? null,
      monitor_url: link,
    },
    outage: { key: `monitor:${row.id}:${event.since}`, since: event.since, endedAt: up ? event.at : null },
    monitor: { id: row.id, url: link },
  }
}

/**
 * When the component's current spell away from Operational began: the first change after its last
 * Operational one before `at` (null when the history does not say).
 */
async function outageStart(db: Db, componentId: number, at: number): Promise<number | null> {
  const rows = await new StatusHistoryReader(db).newestFirst(componentId, 500, at)
  let start: number | null = null
  for (const row of rows) {
    if (row.status === 'up') return start
    start = row.at
  }
  // The whole window is one spell (or there is no history): its oldest change, if any.
  return start
}

/** The view of a test send ("Send test" in the web app and POST …/test). */
export function testEventView(channelName: string, at: number, config: Pick<Config, 'baseUrl'>): EventView {
  return {
    kind: 'test',
    at,
    id: `test:${at}`,
    title: `Test notification from Lantern`,
    lines: [`This is a test of the channel "${channelName}". If you read this, it works.`],
    severity: 'info',
    page: null,
    link: `${config.baseUrl}/user/notifications`,
    alertKey: `lantern:test:${at}`,
    resolves: false,
    details: { test: 1 },
  }
}
