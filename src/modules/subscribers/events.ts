/**
 * What a page event says to subscribers by mail (pure). Webhook subscribers get the one webhook
 * payload of Lantern (channels/webhook-schema.ts), the same as webhook channels.
 */
import { formatDateTime } from '../../lib/human-time.ts'
import { toIso } from '../../lib/time.ts'
import { incidentStateLabel } from '../incidents/states.ts'
import type { NotifyEvent } from '../notify/contract.ts'
import type { EventLine, EventMessage, PageRef } from './messages.ts'
import type { SubscribersRepo } from './repo.ts'

type Loaded<T> = NonNullable<Awaited<T>>
export type IncidentContent = Loaded<ReturnType<SubscribersRepo['incident']>>
export type MaintenanceContent = Loaded<ReturnType<SubscribersRepo['maintenance']>>

export type SubscriberEvent = Extract<NotifyEvent, { notifySubscribers: boolean }>

export function isSubscriberEvent(event: NotifyEvent): event is SubscriberEvent {
  return 'notifySubscribers' in event && event.notifySubscribers
}



/**
 * "Resolved: All systems are back." from the state and the message. A message that already begins
 * with the state's word ("Resolved - fixed", "monitoring: …") does not get it twice.
 */
export function stateLine(state: string, message: string): string {
  const { label, rest } = stateParts(state, message)
  return rest ? `${label}: ${rest}` : label
}

/** The state's word and the rest of the message (Markdown as written), the word not repeated. */
export function stateParts(state: string, message: string): { label: string; rest: string } {
  const label = incidentStateLabel(state)
  const repeated = new RegExp(`^${label.replace(/[^A-Za-z ]/g, '')}\\s*(?:[:.\\-–—]+\\s*|$)`, 'i')
  return { label, rest: message.trim().replace(repeated, '').trim() }
}

export function incidentMessage(kind: SubscriberEvent['kind'], page: PageRef, content: IncidentContent): EventMessage {
  const { incident, update, components } = content
  if (kind === 'incident.postmortem') {
    const lines: EventLine[] = [{ markdown: incident.postmortem ?? '' }]
    lines.push(`Affected: ${components.length === 0 ? 'all components' : components.map((c) => c.name).join(', ')}`)
    return { subject: `Postmortem: ${incident.title}`, lines, link: `${page.url}/incidents/${incident.id}#postmortem` }
  }
  const state = update?.state ?? incident.state
  // The subject says what happened; the state is said once, in the first line.
  const verb = kind === 'incident.opened' ? 'New incident' : kind === 'incident.resolved' ? 'Resolved' : 'Update'
  const { label, rest } = stateParts(state, update?.message ?? '')
  const lines: EventLine[] = [rest ? { label, markdown: rest } : label]
  lines.push(`Affected: ${components.length === 0 ? 'all components' : components.map((c) => c.name).join(', ')}`)
  lines.push(`Posted ${formatDateTime(update?.at ?? incident.updated_at)}`)
  return { subject: `${verb}: ${incident.title}`, lines, link: `${page.url}/incidents/${incident.id}` }
}

const MAINTENANCE_VERB = { 'maintenance.scheduled': 'Maintenance scheduled', 'maintenance.started': 'Maintenance started', 'maintenance.ended': 'Maintenance completed' } as const

export function maintenanceMessage(kind: keyof typeof MAINTENANCE_VERB, page: PageRef, content: MaintenanceContent): EventMessage {
  const { maintenance, components } = content
  const lines: EventLine[] = [`From ${formatDateTime(maintenance.start_at)} to ${formatDateTime(maintenance.end_at)}`]
  if (maintenance.message.trim()) lines.push({ markdown: maintenance.message })
  lines.push(`Affected: ${components.length === 0 ? 'all components' : components.map((c) => c.name).join(', ')}`)
  return { subject: `${MAINTENANCE_VERB[kind]}: ${maintenance.title}`, lines, link: `${page.url}/#maintenance` }
}
