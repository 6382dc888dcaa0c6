/**
 * What an import will make, in Lantern's terms, before anything is written: every object carries
 * the key of what it came from in the source, and refers to others by those keys. The report says
 * what was left out and what was changed on the way; nothing is dropped without a line in it.
 */
import type { MaintenanceUpdateStatus } from '../maintenances/types.ts'
import type { ComponentStatus, ComponentType } from '../components/tables.ts'
import type { MonitorInput } from '../monitors/definition.ts'
import type { ChannelType } from '../channels/types.ts'
import type { IncidentImpact, IncidentState } from '../incidents/tables.ts'

export type ImportSource = 'uptime-kuma' | 'gatus' | 'statuspage'

/** The largest Uptime Kuma database the Import screen takes (the CLI reads any size). */
export const KUMA_UPLOAD_MAX_BYTES = 50 * 1024 * 1024
/** The largest Gatus configuration the Import screen takes. */
export const GATUS_UPLOAD_MAX_BYTES = 1024 * 1024
/** Where the Import screen posts a Kuma database: the one path whose body may exceed the usual limit. */
export const KUMA_UPLOAD_PATH = '/user/import/uptime-kuma'

export interface PlannedPage {
  key: string
  slug: string
  name: string
  customDomain: string | null
  customCss: string | null
  /** Markdown under the page's name ('' for none), within MAX_PAGE_DESCRIPTION. */
  description: string
}

export interface PlannedComponent {
  key: string
  pageKey: string
  name: string
  type: ComponentType
  groupName: string | null
  position: number
  /** Markdown under the component's name ('' for none), within MAX_COMPONENT_DESCRIPTION. */
  description: string
  /** Status changes in time order (one per change), from the source's history. */
  history: Array<{ status: ComponentStatus; at: number }>
}

export interface PlannedMonitor {
  key: string
  /** The definition as the API takes it; checked by the monitors' own rules before writing. */
  input: MonitorInput
  enabled: boolean
  componentKey: string | null
  pageKey: string | null
  /** A push monitor keeps the source's secret, so its senders only change the host. */
  pushToken: string | null
}

export interface PlannedChannel {
  key: string
  type: ChannelType
  name: string
  settings: Record<string, string>
  enabled: boolean
  allPages: boolean
  pageKeys: string[]
}

export interface PlannedMaintenance {
  key: string
  pageKey: string
  title: string
  message: string
  startAt: number
  endAt: number
  componentKeys: string[]
  /** The window's timeline after its first message (Statuspage's later maintenance updates). */
  updates?: PlannedMaintenanceUpdate[]
}

export interface PlannedMaintenanceUpdate {
  status: MaintenanceUpdateStatus
  message: string
  at: number
}

export interface PlannedIncident {
  key: string
  pageKey: string
  title: string
  state: IncidentState
  /** Null: derived from what it affects, as for incidents opened in Lantern. */
  impact: IncidentImpact | null
  startedAt: number
  resolvedAt: number | null
  /** Oldest first; the message in Markdown as the source wrote it. */
  updates: Array<{ state: IncidentState; message: string; at: number }>
  componentKeys: string[]
  /** Markdown; `publishedAt` null keeps it a draft. */
  postmortem: { body: string; updatedAt: number; publishedAt: number | null } | null
}

export interface PlannedSubscriber {
  key: string
  pageKey: string
  email: string
  /** Null: every component (also when the source listed all of them). */
  componentKeys: string[] | null
  createdAt: number
}

export interface ReportLine {
  /** What it was in the source: monitor, notification, status page, maintenance, condition… */
  kind: string
  name: string
  reason: string
}

export interface ImportPlan {
  source: ImportSource
  /** The source's version as read from it (e.g. `2.x`), for the report. */
  sourceVersion: string
  pages: PlannedPage[]
  components: PlannedComponent[]
  monitors: PlannedMonitor[]
  channels: PlannedChannel[]
  maintenances: PlannedMaintenance[]
  /** Statuspage brings these; the monitoring tools have none. */
  incidents?: PlannedIncident[]
  subscribers?: PlannedSubscriber[]
  /** Left out, with why. */
  skipped: ReportLine[]
  /** Brought with a change (an interval raised, a setting not kept). */
  changed: ReportLine[]
}

export type ImportedKind = 'pages' | 'components' | 'monitors' | 'channels' | 'maintenances' | 'incidents' | 'subscribers' | 'history'

export interface ImportReport {
  source: ImportSource
  source_version: string
  /** Made by this run. */
  created: Record<ImportedKind, number>
  /** Already imported by an earlier run, left as they are. */
  unchanged: Record<ImportedKind, number>
  skipped: ReportLine[]
  changed: ReportLine[]
}

export const emptyCounts = (): Record<ImportedKind, number> => ({ pages: 0, components: 0, monitors: 0, channels: 0, maintenances: 0, incidents: 0, subscribers: 0, history: 0 })

/** The report as lines for a terminal. */
export function reportText(report: ImportReport): string {
  const counts = (c: Record<ImportedKind, number>) => (Object.entries(c) as Array<[ImportedKind, number]>).map(([k, n]) => `${n} ${k === 'history' ? 'status changes' : k}`).join(', ')
  const lines = [
    `Imported from ${report.source} ${report.source_version}.`,
    `Created: ${counts(report.created)}.`,
    `Already there (unchanged): ${counts(report.unchanged)}.`,
  ]
  if (report.changed.length > 0) {
    lines.push(`Brought with changes (${report.changed.length}):`)
    for (const line of report.changed) lines.push(`  ~ ${line.kind} "${line.name}": ${line.reason}`)
  }
  if (report.skipped.length > 0) {
    lines.push(`Not brought (${report.skipped.length}):`)
    for (const line of report.skipped) lines.push(`  - ${line.kind} "${line.name}": ${line.reason}`)
  } else lines.push('Nothing was left out.')
  return lines.join('\n')
}

/**
 * A source's description as Lantern keeps it: control characters but line breaks and tabs left out,
 * trimmed, cut to `max` characters (`cut` tells whether it was). The sources allow longer texts.
 */
export function importedDescription(raw: string | null, max: number): { text: string; cut: boolean } {
  const clean = (raw ?? '').replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').toWellFormed().trim()
  if (clean.length <= max) return { text: clean, cut: false }
  const cut = clean.slice(0, max)
  const last = cut.charCodeAt(cut.length - 1)
  return { text: (last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut).trimEnd(), cut: true }
}
