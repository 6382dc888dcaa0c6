/**
 * One message for a group of events (notify/contract.ts): what one monitor change caused — the
 * component's new status, the automatic incident opened, reopened or resolved — becomes ONE view
 * for mail and chat channels, naming the monitors behind it, their targets and the reason.
 *
 *   title:  "Website: Major outage — Homepage check: connect ECONNREFUSED 10.0.0.7:443"
 *   lines:  "Website: Operational → Major outage"
 *           "Monitor "Homepage check" (https://example.com/) is down: connect ECONNREFUSED 10.0.0.7:443"
 *           "Since 2026-11-27 10:00 UTC"
 *           "Incident opened: Website is experiencing issues (Investigating)"
 *
 * The component's view leads (its alert key opens and closes the PagerDuty alert of the outage);
 * the others add one line each, and the link goes to the incident when there is one.
 */
import type { Db } from '../../db/client.ts'
import { incidentStateLabel } from '../incidents/states.ts'
import type { NotifyCause, NotifyEvent } from '../notify/contract.ts'
import type { EventView, MonitorFacts } from './event-view.ts'

/** Longest reason put into a title (the lines carry it whole). */
const TITLE_REASON_MAX = 120

/** The cause of a group (the first event that has one), or undefined for a person's change. */
export function causeOf(events: readonly NotifyEvent[]): NotifyCause | undefined {
  for (const event of events) if ('cause' in event && event.cause) return event.cause
  return undefined
}

/** The monitors a cause names, as they are now (in the flushing transaction: just after the change). */
export async function loadMonitorFacts(db: Db, cause: NotifyCause | undefined): Promise<MonitorFacts[]> {
  if (!cause || cause.monitorIds.length === 0) return []
  const rows = await db
    .selectFrom('monitors')
    .select(['id', 'name', 'target', 'state', 'last_message', 'last_response_ms', 'state_since'])
    .where('id', 'in', cause.monitorIds)
    .orderBy('name')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    target: row.target,
    state: row.state,
    reason: row.last_message?.trim() || null,
    responseMs: row.last_response_ms,
    since: row.state_since,
  }))
}

/** `Monitor "API" (https://api.example.com/health) is down: HTTP 503`. */
export function monitorLine(monitor: MonitorFacts): string {
  const what = `Monitor "${monitor.name}" (${monitor.target ?? 'push'})`
  if (monitor.state === 'up') return `${what} is up again${monitor.responseMs === null ? '' : ` (${monitor.responseMs} ms)`}`
  return `${what} is ${monitor.state}${monitor.reason ? `: ${monitor.reason}` : ''}`
}

/** One line for an event that is not the group's lead: "Incident opened: API errors (Investigating)". */
function summaryLine(view: EventView): string {
  if (view.incident && view.incident.state !== 'resolved') return `${view.title} (${incidentStateLabel(view.incident.state)})`
  return view.title
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/**
 * The one view of `views` (the events of a group a channel listens to, in order) and the monitors
 * of its cause. A single view without monitors is returned as it is.
 */
export function outageView(views: readonly EventView[], monitors: readonly MonitorFacts[]): EventView {
  const lead = views.find((view) => view.component) ?? views[0]
  if (!lead) throw new Error('outageView needs at least one view')
  // A monitor's own alert already names the monitor, its target and the reason.
  if (views.length === 1 && (monitors.length === 0 || lead.monitor)) return lead
  // Monitor alerts in a component's group are told by the monitor lines (and their screens' links).
  const others = views.filter((view) => view !== lead && !view.monitor)
  const screens = views.filter((view) => view !== lead && view.monitor).map((view) => `Monitor screen: ${view.monitor!.url}`)
  const id = views.map((view) => view.id).join(' + ')
  if (lead.monitor) return { ...lead, id, lines: [...lead.lines, ...others.map(summaryLine)], monitors: [...monitors] }
  const failing = monitors.filter((monitor) => monitor.state !== 'up')
  const first = failing[0]
  const title = failing.length === 1 && first?.reason && lead.severity !== 'ok' ? `${lead.title} — ${first.name}: ${clip(first.reason, TITLE_REASON_MAX)}` : lead.title
  const [headline, ...rest] = lead.lines
  const incident = views.find((view) => view.incident)
  return {
    ...lead,
    id,
    title,
    lines: [...(headline === undefined ? [] : [headline]), ...monitors.map(monitorLine), ...screens, ...rest, ...others.map(summaryLine)],
    link: incident?.link ?? lead.link,
    ...(incident?.incident ? { incident: incident.incident } : {}),
    monitors: [...monitors],
  }
}
