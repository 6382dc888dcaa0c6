/**
 * JSON in the shape of Atlassian Statuspage's public API v2 (`/api/v2/summary.json`, …), so tools
 * and widgets written for it read a Lantern page unchanged (pure presenters).
 * Ids are strings, as there; groups are components with `group: true` and `components: [ids]`.
 */
import { toIso } from '../../lib/time.ts'
import type { ComponentType } from '../components/tables.ts'
import type { PageSnapshot, SnapshotMaintenance } from '../status-pipeline/service.ts'
import { isMaintenanceActive, maintenancePhase } from '../status-pipeline/windows.ts'
import type { PublicIncident, PublicMaintenance } from './events.ts'
import { incidentImpact, STATUSPAGE_INDICATORS, worstOf, type DisplayStatus } from '../status-pipeline/status.ts'

export interface ApiComponent {
  id: number
  name: string
  type: ComponentType
  group: string | null
  status: DisplayStatus
  /** Markdown as the owner wrote it ('' for none). */
  description: string
  position: number
  createdAt: number
  updatedAt: number
}

export interface ApiSnapshot {
  slug: string
  name: string
  url: string
  updatedAt: number
  overall: DisplayStatus
  components: ApiComponent[]
}

/** A stable id for a group, from its name (FNV-1a; groups have no row of their own). */
export function groupId(name: string): string {
  let hash = 0x811c9dc5
  for (const ch of new TextEncoder().encode(name)) {
    hash ^= ch
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return `group-${hash.toString(16).padStart(8, '0')}`
}

export const pageJson = (s: ApiSnapshot) => ({
  id: s.slug,
  name: s.name,
  url: s.url,
  time_zone: 'Etc/UTC',
  updated_at: toIso(s.updatedAt),
})

export const statusJson = (overall: DisplayStatus) => ({ ...STATUSPAGE_INDICATORS[overall] })

function componentJson(c: ApiComponent, slug: string) {
  return {
    id: String(c.id),
    name: c.name,
    status: c.status,
    created_at: toIso(c.createdAt),
    updated_at: toIso(c.updatedAt),
    position: c.position + 1,
    // Statuspage gives the text as written, null for none.
    description: c.description === '' ? null : c.description,
    showcase: true,
    start_date: null,
    group_id: c.group === null ? null : groupId(c.group),
    page_id: slug,
    group: false,
    only_show_if_degraded: false,
  }
}

/** Components and their groups, in page order (a group stands where its first component does). */
export function componentsJson(s: ApiSnapshot) {
  const out: Array<Record<string, unknown>> = []
  const groups = new Map<string, { entry: Record<string, unknown>; members: ApiComponent[] }>()
  for (const c of s.components) {
    if (c.group !== null && !groups.has(c.group)) {
      const entry: Record<string, unknown> = {}
      groups.set(c.group, { entry, members: [] })
      out.push(entry)
    }
    if (c.group !== null) groups.get(c.group)!.members.push(c)
    out.push(componentJson(c, s.slug))
  }
  let position = 0
  for (const [name, { entry, members }] of groups) {
    Object.assign(entry, {
      id: groupId(name),
      name,
      status: worstOf(members.map((m) => m.status)),
      created_at: toIso(Math.min(...members.map((m) => m.createdAt))),
      updated_at: toIso(Math.max(...members.map((m) => m.updatedAt))),
      position: position++,
      description: null,
      showcase: false,
      start_date: null,
      group_id: null,
      page_id: s.slug,
      group: true,
      only_show_if_degraded: false,
      components: members.map((m) => String(m.id)),
    })
  }
  // Positions follow the order of the list, as Statuspage numbers them.
  out.forEach((entry, index) => (entry.position = index + 1))
  return out
}

function affectedComponents(s: ApiSnapshot, affected: ReadonlyArray<{ id: number }>) {
  const ids = new Set(affected.map((c) => c.id))
  return s.components.filter((c) => ids.has(c.id)).map((c) => componentJson(c, s.slug))
}


export function incidentJson(s: ApiSnapshot, incident: PublicIncident) {
  const affected = incident.components.length === 0 ? s.components : s.components.filter((c) => incident.components.some((a) => a.id === c.id))
  const monitoring = incident.updates.find((u) => u.state === 'monitoring')
  return {
    id: String(incident.id),
    name: incident.title,
    status: incident.state,
    created_at: toIso(incident.createdAt),
    updated_at: toIso(incident.updatedAt),
    monitoring_at: monitoring ? toIso(monitoring.at) : null,
    resolved_at: incident.resolvedAt === null ? null : toIso(incident.resolvedAt),
    impact: incidentImpact(affected.map((c) => c.status), incident.impactChosen),
    shortlink: `${s.url}/incidents/${incident.id}`,
    started_at: toIso(incident.startedAt),
    page_id: s.slug,
    incident_updates: [...incident.updates].reverse().map((u) => ({
      id: String(u.id),
      status: u.state,
      body: u.message,
      incident_id: String(incident.id),
      created_at: toIso(u.at),
      updated_at: toIso(u.at),
      display_at: toIso(u.at),
      affected_components: null,
      deliver_notifications: true,
      custom_tweet: null,
      tweet_id: null,
    })),
    components: affectedComponents(s, incident.components),
  }
}

export function maintenanceJson(s: ApiSnapshot, m: PublicMaintenance, now: number) {
  const status = maintenancePhase(m, now)
  const stamp = toIso(m.updatedAt)
  return {
    id: `m${m.id}`,
    name: m.title,
    status,
    created_at: toIso(m.createdAt),
    updated_at: stamp,
    monitoring_at: null,
    resolved_at: status === 'completed' ? toIso(m.endAt) : null,
    impact: 'maintenance',
    shortlink: `${s.url}/#maintenance`,
    started_at: toIso(m.startAt),
    page_id: s.slug,
    // Newest first, as Statuspage: the owner's updates, then the window's description as it was scheduled.
    incident_updates: [
      ...m.updates.map((u) => ({
        id: `m${m.id}-u${u.id}`,
        status: u.status,
        body: u.message,
        incident_id: `m${m.id}`,
        created_at: toIso(u.at),
        updated_at: toIso(u.at),
        display_at: toIso(u.at),
        affected_components: null,
        deliver_notifications: false,
        custom_tweet: null,
        tweet_id: null,
      })),
      {
        id: `m${m.id}-1`,
        status,
        body: m.message,
        incident_id: `m${m.id}`,
        created_at: toIso(m.createdAt),
        updated_at: stamp,
        display_at: toIso(m.createdAt),
        affected_components: null,
        deliver_notifications: true,
        custom_tweet: null,
        tweet_id: null,
      },
    ],
    components: affectedComponents(s, m.components),
    scheduled_for: toIso(m.startAt),
    scheduled_until: toIso(m.endAt),
  }
}

/** The page as the documents describe it: its snapshot (status-pipeline) and the windows shown. */
export function apiSnapshot(
  page: { slug: string; name: string; url: string; updatedAt: number },
  status: PageSnapshot,
  maintenances: readonly SnapshotMaintenance[],
): ApiSnapshot {
  return {
    slug: page.slug,
    name: page.name,
    url: page.url,
    overall: status.overall,
    updatedAt: Math.max(
      page.updatedAt,
      ...status.components.map((c) => c.updatedAt),
      ...status.incidents.map((i) => i.updatedAt),
      ...maintenances.map((m) => m.updatedAt),
    ),
    components: status.components.map((c) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      group: c.group,
      description: c.description,
      status: c.display,
      position: c.position,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    })),
  }
}

export const STATUS_API_DOCUMENTS = [
  'summary',
  'status',
  'components',
  'incidents',
  'incidents/unresolved',
  'scheduled-maintenances',
  'scheduled-maintenances/upcoming',
  'scheduled-maintenances/active',
] as const
export type StatusApiDocument = (typeof STATUS_API_DOCUMENTS)[number]

/** What the documents are built from; the archive lists are read only by the documents that show them. */
export interface DocumentSource {
  api: ApiSnapshot
  now: number
  overall: DisplayStatus
  activeIncidents: readonly PublicIncident[]
  /** The windows not yet over that the page shows, soonest first. */
  maintenances: readonly PublicMaintenance[]
  incidentHistory(): Promise<PublicIncident[]>
  recentMaintenances(): Promise<PublicMaintenance[]>
}

/** The body of one Statuspage-shaped document. */
export async function documentBody(document: StatusApiDocument, source: DocumentSource): Promise<unknown> {
  const s = source.api
  const page = pageJson(s)
  const maint = (list: readonly PublicMaintenance[]) => list.map((m) => maintenanceJson(s, m, source.now))
  switch (document) {
    case 'summary':
      return {
        page,
        components: componentsJson(s),
        incidents: source.activeIncidents.map((i) => incidentJson(s, i)),
        scheduled_maintenances: maint(source.maintenances),
        status: statusJson(source.overall),
      }
    case 'status':
      return { page, status: statusJson(source.overall) }
    case 'components':
      return { page, components: componentsJson(s) }
    case 'incidents':
      return { page, incidents: (await source.incidentHistory()).map((i) => incidentJson(s, i)) }
    case 'incidents/unresolved':
      return { page, incidents: source.activeIncidents.map((i) => incidentJson(s, i)) }
    case 'scheduled-maintenances':
      return { page, scheduled_maintenances: maint(await source.recentMaintenances()) }
    case 'scheduled-maintenances/upcoming':
      return { page, scheduled_maintenances: maint(source.maintenances.filter((m) => source.now < m.startAt)) }
    case 'scheduled-maintenances/active':
      return { page, scheduled_maintenances: maint(source.maintenances.filter((m) => isMaintenanceActive(m, source.now))) }
  }
}
