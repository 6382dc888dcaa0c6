/**
 * What a page event says to subscribers (pure): the text of the mail and the Statuspage-shaped JSON
 * that webhook subscribers get (`incident` with `incident_updates`, as Statuspage's subscriber
 * webhooks send it; maintenance as an incident with impact `maintenance`).
 */
import { formatDateTime } from '../../lib/human-time.ts'
import { toIso } from '../../lib/time.ts'
import type { NotifyEvent } from '../notify/contract.ts'
import type { EventMessage, PageRef } from './messages.ts'
import type { SubscribersRepo } from './repo.ts'

type Loaded<T> = NonNullable<Awaited<T>>
export type IncidentContent = Loaded<ReturnType<SubscribersRepo['incident']>>
export type MaintenanceContent = Loaded<ReturnType<SubscribersRepo['maintenance']>>

export type SubscriberEvent = Extract<NotifyEvent, { notifySubscribers: boolean }>

export function isSubscriberEvent(event: NotifyEvent): event is SubscriberEvent {
  return 'notifySubscribers' in event && event.notifySubscribers
}

const STATE_LABEL: Record<string, string> = { investigating: 'Investigating', identified: 'Identified', monitoring: 'Monitoring', resolved: 'Resolved' }


export function incidentMessage(kind: SubscriberEvent['kind'], page: PageRef, content: IncidentContent): EventMessage {
  const { incident, update, components } = content
  const verb = kind === 'incident.opened' ? 'New incident' : kind === 'incident.resolved' ? 'Resolved' : 'Update'
  const lines = [`${STATE_LABEL[update?.state ?? incident.state]} — ${update?.message ?? ''}`.replace(/ — $/, '')]
  lines.push(`Affected: ${components.length === 0 ? 'all components' : components.map((c) => c.name).join(', ')}`)
  lines.push(`Posted ${formatDateTime(update?.at ?? incident.updated_at)}`)
  return { subject: `${verb}: ${incident.title}`, lines, link: `${page.url}/incidents/${incident.id}` }
}

const MAINTENANCE_VERB = { 'maintenance.scheduled': 'Maintenance scheduled', 'maintenance.started': 'Maintenance started', 'maintenance.ended': 'Maintenance completed' } as const
const MAINTENANCE_STATUS = { 'maintenance.scheduled': 'scheduled', 'maintenance.started': 'in_progress', 'maintenance.ended': 'completed' } as const

export function maintenanceMessage(kind: keyof typeof MAINTENANCE_VERB, page: PageRef, content: MaintenanceContent): EventMessage {
  const { maintenance, components } = content
  const lines = [`From ${formatDateTime(maintenance.start_at)} to ${formatDateTime(maintenance.end_at)}`]
  if (maintenance.message) lines.push(maintenance.message)
  lines.push(`Affected: ${components.length === 0 ? 'all components' : components.map((c) => c.name).join(', ')}`)
  return { subject: `${MAINTENANCE_VERB[kind]}: ${maintenance.title}`, lines, link: `${page.url}/#maintenance` }
}

const componentJson = (c: { id: number; name: string; status: string }) => ({ id: String(c.id), name: c.name, status: c.status })

/** The JSON body a webhook subscriber receives; `unsubscribe` is its own link. */
export function subscriberWebhookBody(
  page: PageRef & { slug: string },
  event: SubscriberEvent,
  content: { kind: 'incident'; value: IncidentContent } | { kind: 'maintenance'; value: MaintenanceContent },
  unsubscribe: string,
) {
  const meta = { unsubscribe, generated_at: toIso(event.at), event: event.kind }
  const pageJson = { id: page.slug, name: page.name, url: page.url }
  if (content.kind === 'incident') {
    const { incident, update, components } = content.value
    return {
      meta,
      page: pageJson,
      incident: {
        id: String(incident.id),
        name: incident.title,
        status: incident.state,
        created_at: toIso(incident.created_at),
        updated_at: toIso(incident.updated_at),
        resolved_at: incident.resolved_at === null ? null : toIso(incident.resolved_at),
        started_at: toIso(incident.started_at),
        shortlink: `${page.url}/incidents/${incident.id}`,
        page_id: page.slug,
        incident_updates: update
          ? [{ id: String(update.id), status: update.state, body: update.message, incident_id: String(incident.id), created_at: toIso(update.at), updated_at: toIso(update.at), display_at: toIso(update.at) }]
          : [],
        components: components.map(componentJson),
      },
    }
  }
  const { maintenance, components } = content.value
  const status = MAINTENANCE_STATUS[event.kind as keyof typeof MAINTENANCE_STATUS]
  return {
    meta,
    page: pageJson,
    incident: {
      id: `m${maintenance.id}`,
      name: maintenance.title,
      status,
      impact: 'maintenance',
      created_at: toIso(maintenance.created_at),
      updated_at: toIso(maintenance.updated_at),
      scheduled_for: toIso(maintenance.start_at),
      scheduled_until: toIso(maintenance.end_at),
      shortlink: `${page.url}/#maintenance`,
      page_id: page.slug,
      incident_updates: [{ id: `m${maintenance.id}-${event.at}`, status, body: maintenance.message, incident_id: `m${maintenance.id}`, created_at: toIso(event.at), updated_at: toIso(event.at), display_at: toIso(event.at) }],
      components: components.map(componentJson),
    },
  }
}
