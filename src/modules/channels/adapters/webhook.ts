/**
 * The webhook payload (webhook-schema.ts) built from an event view: the same body for webhook
 * channels and webhook subscribers (only `meta.unsubscribe` differs). The request is queued
 * unsigned and marked `signed`: the outbox worker signs each attempt (Standard Webhooks headers,
 * notify/webhook-signing.ts) with the receiver's secret at that moment.
 */
import { toIso } from '../../../lib/time.ts'
import type { OutboundRequest } from '../../notify/contract.ts'
import type { ComponentStatus } from '../../components/tables.ts'
import { componentDisplayStatus, incidentImpact, STATUSPAGE_INDICATORS, type DisplayStatus } from '../../status-pipeline/status.ts'
import type { EventView, IncidentFacts, MaintenanceFacts } from '../event-view.ts'
import { WEBHOOK_PAYLOAD_VERSION, type WebhookPayload } from '../webhook-schema.ts'

export const WEBHOOK_USER_AGENT = 'Lantern-Webhook/2'

/** Where the webhook payload is described (`meta.documentation`). */
export const webhookDocsUrl = (baseUrl: string) => `${baseUrl}/docs/notifications`

/** Lantern's component statuses in Statuspage's words. */
const statusWord = (status: string): DisplayStatus => componentDisplayStatus(status as ComponentStatus, false)

const MAINTENANCE_STATUS = { 'maintenance.scheduled': 'scheduled', 'maintenance.started': 'in_progress', 'maintenance.ended': 'completed' } as const

export interface PayloadMeta {
  /** Where the payload is described (the notifications guide). */
  documentation: string
  /** A subscriber's unsubscribe link; null for channels. */
  unsubscribe: string | null
}

type Incident = NonNullable<WebhookPayload['incident']>

function incidentJson(incident: IncidentFacts, view: EventView, pageSlug: string): Incident {
  const components = incident.components.map((c) => ({ id: String(c.id), name: c.name, status: statusWord(c.status) }))
  // The owner's impact, else from the worst affected component.
  const impact = incidentImpact(components.map((c) => c.status), incident.impact)
  const monitoring = [...incident.updates].reverse().find((u) => u.state === 'monitoring')
  return {
    id: String(incident.id),
    name: incident.name,
    status: incident.state as Incident['status'],
    impact,
    created_at: toIso(incident.createdAt),
    updated_at: toIso(incident.updatedAt),
    started_at: toIso(incident.startedAt),
    monitoring_at: monitoring ? toIso(monitoring.at) : null,
    resolved_at: incident.resolvedAt === null ? null : toIso(incident.resolvedAt),
    scheduled_for: null,
    scheduled_until: null,
    postmortem_body: incident.postmortem,
    shortlink: view.link ?? '',
    page_id: pageSlug,
    incident_updates: incident.updates.map((u) => ({
      id: String(u.id),
      incident_id: String(incident.id),
      status: u.state,
      body: u.message,
      created_at: toIso(u.at),
      updated_at: toIso(u.at),
      display_at: toIso(u.at),
    })),
    components,
  }
}

/** A maintenance window as Statuspage sends one: an incident with impact `maintenance`. */
function maintenanceJson(m: MaintenanceFacts, view: EventView, pageSlug: string): Incident {
  const status = MAINTENANCE_STATUS[view.kind as keyof typeof MAINTENANCE_STATUS] ?? 'scheduled'
  const id = `m${m.id}`
  return {
    id,
    name: m.name,
    status,
    impact: 'maintenance',
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
    started_at: toIso(m.startAt),
    monitoring_at: null,
    resolved_at: status === 'completed' ? toIso(m.endAt) : null,
    scheduled_for: toIso(m.startAt),
    scheduled_until: toIso(m.endAt),
    shortlink: view.page ? `${view.page.url}/#maintenance` : '',
    page_id: pageSlug,
    incident_updates: [{ id: `${id}-${status}`, incident_id: id, status, body: m.message, created_at: toIso(view.at), updated_at: toIso(view.at), display_at: toIso(view.at) }],
    components: m.components.map((c) => ({ id: String(c.id), name: c.name, status: 'under_maintenance' as const })),
  }
}

export function webhookPayload(view: EventView, meta: PayloadMeta): WebhookPayload {
  const page = view.page
  const payload: WebhookPayload = {
    version: WEBHOOK_PAYLOAD_VERSION,
    type: view.kind,
    id: view.id,
    meta: { unsubscribe: meta.unsubscribe, documentation: meta.documentation, generated_at: toIso(view.at) },
    page: page && {
      id: page.slug,
      api_id: page.id,
      name: page.name,
      url: page.url,
      status_indicator: STATUSPAGE_INDICATORS[page.overall].indicator as NonNullable<WebhookPayload['page']>['status_indicator'],
      status_description: STATUSPAGE_INDICATORS[page.overall].description,
    },
    summary: { title: view.title, lines: view.lines, severity: view.severity, link: view.link },
  }
  const slug = page?.slug ?? ''
  if (view.incident) payload.incident = incidentJson(view.incident, view, slug)
  if (view.maintenance) payload.incident = maintenanceJson(view.maintenance, view, slug)
  if (view.component) {
    const c = view.component
    const changedAt = toIso(view.at)
    payload.component_update = { id: view.id, component_id: String(c.id), old_status: statusWord(c.from), new_status: statusWord(c.to), created_at: changedAt }
    payload.component = { id: String(c.id), name: c.name, status: statusWord(c.to), created_at: changedAt }
  }
  if (Object.keys(view.details).length > 0) payload.details = view.details
  return payload
}

/** A webhook request as queued: the JSON body, marked to be signed at each attempt. */
export function webhookRequestOf(url: string, body: string): OutboundRequest {
  return { url, headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT }, body, signed: true }
}

/** A webhook channel's request for an event. */
export function webhookRequest(view: EventView, settings: { url: string }, documentation: string): OutboundRequest {
  return webhookRequestOf(settings.url, JSON.stringify(webhookPayload(view, { documentation, unsubscribe: null })))
}
