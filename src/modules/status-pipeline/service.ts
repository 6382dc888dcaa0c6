/**
 * What is the status of this page, now and over N days: one snapshot from one read,
 * used by the status site, the v2 (Statuspage-shaped) JSON, the status JSON and the badges alike.
 * Data only: callers build their answers (and cache them no longer than `nextBoundary`).
 */
import type { Clock } from '../../lib/clock.ts'
import { MINUTE_MS } from '../../lib/time.ts'
import { meanSeries, minuteStart } from '../component-checks/rollup.ts'
import type { Plan } from '../plans/matrix.ts'
import { slugForLookup } from '../status-pages/slug.ts'
import type { DomainState } from '../status-pages/tables.ts'
import { overallStatus } from './overall.ts'
import type { ComponentRow, IncidentRow, MaintenanceRow, PageRow, PageStatusRepo } from './repo.ts'
import { componentDisplayStatus, incidentImpact, type DisplayStatus } from './status.ts'
import type { IncidentImpact } from '../incidents/tables.ts'
import { combinedUptime, dailyUptime, rolledUpUptime, windowStart, type DayUptime } from './uptime.ts'
import { coversComponent, isMaintenanceActive, maintenanceWindowsOf, nextBoundary } from './windows.ts'

export interface PublicPage {
  id: number
  slug: string
  name: string
  customDomain: string | null
  customDomainState: DomainState | null
  plan: Plan
  /** The page's default language (a tag of src/content/locales/): the widget's words are in it unless asked otherwise. */
  language: string
}

export interface SnapshotComponent extends Omit<ComponentRow, 'statusAtStart' | 'changes' | 'rollup'> {
  /** What the page shows for it: its status, or `under_maintenance` while a window covers it (never over down). */
  display: DisplayStatus
  /** With `uptimeDays`: per UTC day, oldest first (today last); else empty. */
  days: DayUptime[]
}

/** An unresolved incident (the incidents module's public shape, page id implied), with the impact shown. */
export type SnapshotIncident = IncidentRow & { impact: IncidentImpact }
/** A maintenance window (the maintenances module's public shape, page id implied). */
export type SnapshotMaintenance = MaintenanceRow

export interface PageSnapshot {
  now: number
  overall: DisplayStatus
  /** In page order. */
  components: SnapshotComponent[]
  /** Unresolved incidents, newest first. */
  incidents: SnapshotIncident[]
  /** Windows not yet over (in progress or scheduled), soonest first. */
  maintenances: SnapshotMaintenance[]
  /** The windows in progress at `now`. */
  activeMaintenances: SnapshotMaintenance[]
  /** When this snapshot changes without any write: the next maintenance start or end. */
  nextBoundary: number | undefined
  /** The number of UTC days of `components[].days` (0 without uptime). */
  uptimeDays: number
  /** With `rtmMinutes`: mean response time (ms) per minute over all components, oldest first (null without data). */
  responseTimes: Array<number | null>
}

export interface UptimeFigures {
  /** Per UTC day, oldest first (today last): % available, null without data. */
  daily: Array<number | null>
  /** Over the whole window. */
  total: number | null
}

export class PageStatusService {
  constructor(
    private readonly repo: PageStatusRepo,
    private readonly clock: Clock,
  ) {}

  /** The page for a slug from a URL when visitors may see it; private and blocked pages are unknown. */
  async findPublicPage(rawSlug: string): Promise<PublicPage | undefined> {
    const slug = slugForLookup(rawSlug)
    if (slug === undefined) return undefined
    return publicPage(await this.repo.findPageBySlug(slug))
  }

  /**
   * The page at `now` (default: the clock): components with their display status, unresolved
   * incidents, open maintenance windows, the overall status, and with `uptimeDays` the daily uptime
   * of each component over that many UTC days ending today (maintenance left out, uptime.ts), and
   * with `rtmMinutes` the mean response time per minute over that many minutes ending now.
   */
  async snapshot(pageId: number, options: SnapshotOptions = {}): Promise<PageSnapshot> {
    return (await this.read({ id: pageId }, options)).snapshot
  }

  /**
   * A visible page for a slug from a URL and its snapshot, from the same single read (the status
   * JSON and the badges); undefined for unknown, private and blocked pages.
   */
  async publicSnapshot(rawSlug: string, options: SnapshotOptions = {}): Promise<{ page: PublicPage; snapshot: PageSnapshot } | undefined> {
    const slug = slugForLookup(rawSlug)
    if (slug === undefined) return undefined
    const { page, snapshot } = await this.read({ slug }, options)
    const visible = publicPage(page)
    return visible && { page: visible, snapshot }
  }

  private async read(which: { id: number } | { slug: string }, options: SnapshotOptions) {
    const now = options.now ?? this.clock.now()
    const uptimeDays = options.uptimeDays ?? 0
    const rtmMinutes = options.rtmMinutes ?? 0
    const minutesFrom = minuteStart(now) - (rtmMinutes - 1) * MINUTE_MS
    const rows = await this.repo.snapshotRows(which, now, {
      uptimeFrom: uptimeDays > 0 ? windowStart(now, uptimeDays) : undefined,
      minutes: rtmMinutes > 0 ? { from: minutesFrom, to: minuteStart(now) + MINUTE_MS } : undefined,
    })
    const activeMaintenances = rows.openWindows.filter((m) => isMaintenanceActive(m, now))
    const components = rows.components.map(({ statusAtStart, changes, rollup, ...row }): SnapshotComponent => ({
      ...row,
      display: componentDisplayStatus(row.status, activeMaintenances.some((m) => coversComponent(m, row.id))),
      days:
        uptimeDays === 0
          ? []
          : rollup
            ? rolledUpUptime({ ...rollup, days: uptimeDays, now })
            : dailyUptime({ changes, statusAtStart, maintenance: maintenanceWindowsOf(rows.uptimeWindows, row.id), days: uptimeDays, now }),
    }))
    const snapshot: PageSnapshot = {
      now,
      // The one overall-status rule of Lantern, for every surface. A vendor component whose feed
      // cannot be read is unknown: never an outage (or an all-clear) of the page.
      overall: overallStatus({ components: components.filter((c) => !c.feedUnknown), activeIncidents: rows.incidents.length, activeMaintenances: activeMaintenances.length }),
      components,
      // An incident naming no component affects the whole page.
      incidents: rows.incidents.map((incident) => {
        const ids = new Set(incident.components.map((c) => c.id))
        const affected = ids.size === 0 ? components : components.filter((c) => ids.has(c.id))
        return { ...incident, impact: incidentImpact(affected.map((c) => c.display), incident.impactChosen) }
      }),
      maintenances: rows.openWindows,
      activeMaintenances,
      nextBoundary: nextBoundary(rows.openWindows, now),
      uptimeDays,
      responseTimes: rtmMinutes > 0 ? meanSeries(rows.minutes, minutesFrom, MINUTE_MS, rtmMinutes) : [],
    }
    return { page: rows.page, snapshot }
  }
}

export interface SnapshotOptions {
  now?: number
  uptimeDays?: number
  rtmMinutes?: number
}

/** Visitors may see a page that exists, is public and is not blocked. */
function publicPage(row: PageRow | undefined): PublicPage | undefined {
  if (!row || row.blocked === 1 || row.visibility !== 'public') return undefined
  return { id: row.id, slug: row.slug, name: row.name, customDomain: row.custom_domain, customDomainState: row.custom_domain_state, plan: row.plan, language: row.language }
}

/** The page's uptime figures from a snapshot taken with `uptimeDays` (all components together). */
export const snapshotUptime = (snapshot: PageSnapshot): UptimeFigures =>
  combinedUptime(
    snapshot.components.map((c) => c.days),
    snapshot.uptimeDays,
  )
