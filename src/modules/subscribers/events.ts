/**
 * What a page event says to subscribers by mail (pure). Webhook subscribers get the one webhook
 * payload of Lantern (channels/webhook-schema.ts), the same as webhook channels.
 */
import { words, type Words } from '../../lib/i18n.ts'
import { INCIDENT_STATES, incidentStateLabel } from '../incidents/states.ts'
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
 * with the state's word ("Resolved - fixed", "monitoring: …", or the word of the mail's language)
 * does not get it twice.
 */
export function stateLine(state: string, message: string, w: Words = words('en')): string {
  const { label, rest } = stateParts(state, message, w)
  return rest ? `${label}: ${rest}` : label
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The state's word in the mail's language and the rest of the message (Markdown as written), the word not repeated. */
export function stateParts(state: string, message: string, w: Words = words('en')): { label: string; rest: string } {
  const known = (INCIDENT_STATES as readonly string[]).includes(state)
  const label = known ? w.t(`state.${state}`) : incidentStateLabel(state)
  const said = [...new Set([label, incidentStateLabel(state)])].map(escapeRegExp).join('|')
  const repeated = new RegExp(`^(?:${said})\\s*(?:[:.\\-–—]+\\s*|$)`, 'iu')
  return { label, rest: message.trim().replace(repeated, '').trim() }
}

const affected = (w: Words, components: ReadonlyArray<{ name: string }>) =>
  w.t('incident.affects', { list: components.length === 0 ? w.t('affects.all') : components.map((c) => c.name).join(w.t('list.separator')) })

const INCIDENT_SUBJECT = { 'incident.opened': 'mail.incident.opened', 'incident.resolved': 'mail.incident.resolved' } as const

/** An incident event's message in the subscriber's language (`w`: its words and the page's zone). */
export function incidentMessage(kind: SubscriberEvent['kind'], page: PageRef, content: IncidentContent, w: Words = words('en')): EventMessage {
  const { incident, update, components } = content
  if (kind === 'incident.postmortem') {
    const lines: EventLine[] = [{ markdown: incident.postmortem ?? '' }, affected(w, components)]
    return { subject: w.t('mail.incident.postmortem', { title: incident.title }), lines, link: `${page.url}/incidents/${incident.id}${langQuery(w)}#postmortem` }
  }
  const state = update?.state ?? incident.state
  // The subject says what happened; the state is said once, in the first line.
  const subject = INCIDENT_SUBJECT[kind as keyof typeof INCIDENT_SUBJECT] ?? 'mail.incident.updated'
  const { label, rest } = stateParts(state, update?.message ?? '', w)
  const lines: EventLine[] = [rest ? { label, markdown: rest } : label]
  lines.push(affected(w, components))
  lines.push(w.t('mail.posted', { time: w.dateTime(update?.at ?? incident.updated_at) }))
  return { subject: w.t(subject, { title: incident.title }), lines, link: `${page.url}/incidents/${incident.id}${langQuery(w)}` }
}

const MAINTENANCE_SUBJECT = { 'maintenance.scheduled': 'mail.maintenance.scheduled', 'maintenance.started': 'mail.maintenance.started', 'maintenance.ended': 'mail.maintenance.ended' } as const

export function maintenanceMessage(kind: keyof typeof MAINTENANCE_SUBJECT, page: PageRef, content: MaintenanceContent, w: Words = words('en')): EventMessage {
  const { maintenance, components } = content
  const lines: EventLine[] = [w.t('mail.maintenance.span', { start: w.dateTime(maintenance.start_at), end: w.dateTime(maintenance.end_at) })]
  if (maintenance.message.trim()) lines.push({ markdown: maintenance.message })
  lines.push(affected(w, components))
  return { subject: w.t(MAINTENANCE_SUBJECT[kind], { title: maintenance.title }), lines, link: `${page.url}/${langQuery(w)}#maintenance` }
}

/** Links from a mail open the page in the mail's language. */
const langQuery = (w: Words) => `?lang=${w.lang}`
