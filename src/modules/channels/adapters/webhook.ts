/**
 * Generic webhook: Statuspage-v2-shaped JSON (`meta`, `page`, `incident` with `incident_updates`,
 * `component_update` + `component`), plus `version`, `type` and `id` (OpenStatus's envelope), signed:
 *
 *   X-Lantern-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * A receiver recomputes the HMAC over the raw body with its secret and compares in constant time
 * (`verifyWebhookSignature` below is the reference). `t` is the time of the attempt: the outbox
 * keeps the body only and the worker signs each attempt (`signWebhookRequest`), so a retry hours
 * later carries a fresh `t` with the same `id` and body; de-duplicate by `id`.
 */
import { constantTimeEqual } from '../../../lib/crypto.ts'
import { toIso } from '../../../lib/time.ts'
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'
import { jsonPost } from './shared.ts'

export const WEBHOOK_VERSION = '1'
export const SIGNATURE_HEADER = 'x-lantern-signature'

const STATUSPAGE_STATUS: Record<string, string> = { up: 'operational', degraded: 'degraded_performance', down: 'major_outage' }

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text)))
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')
}

export async function signatureHeader(secret: string, body: string, atMs: number): Promise<string> {
  const t = Math.floor(atMs / 1000)
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`
}

/** True when `header` is a valid signature of `body` with `secret` (what a receiver does). */
export async function verifyWebhookSignature(secret: string, body: string, header: string | null): Promise<boolean> {
  const match = header?.match(/^t=(\d{1,12}),v1=([0-9a-f]{64})$/)
  if (!match) return false
  return constantTimeEqual(await hmacHex(secret, `${match[1]}.${body}`), match[2]!)
}

export function webhookPayload(view: EventView) {
  const payload: Record<string, unknown> = {
    version: WEBHOOK_VERSION,
    type: view.kind,
    id: view.id,
    meta: { unsubscribe: null, documentation: null, generated_at: toIso(view.at) },
    page: view.page ? { id: String(view.page.id), name: view.page.name, url: view.page.url } : null,
    summary: { title: view.title, lines: view.lines, severity: view.severity, link: view.link },
  }
  if (view.incident) {
    const incident = view.incident
    payload.incident = {
      id: String(incident.id),
      name: incident.name,
      status: incident.state,
      created_at: toIso(incident.createdAt),
      updated_at: toIso(incident.updatedAt),
      resolved_at: incident.resolvedAt === null ? null : toIso(incident.resolvedAt),
      shortlink: view.link,
      components: incident.components.map((c) => ({ id: String(c.id), name: c.name, status: STATUSPAGE_STATUS[c.status] ?? c.status })),
      incident_updates: incident.updates.map((u) => ({
        id: String(u.id),
        incident_id: String(incident.id),
        status: u.state,
        body: u.message,
        created_at: toIso(u.at),
        display_at: toIso(u.at),
      })),
    }
  }
  if (view.component) {
    const c = view.component
    payload.component_update = {
      component_id: String(c.id),
      old_status: STATUSPAGE_STATUS[c.from] ?? c.from,
      new_status: STATUSPAGE_STATUS[c.to] ?? c.to,
      created_at: toIso(view.at),
    }
    payload.component = { id: String(c.id), name: c.name, status: STATUSPAGE_STATUS[c.to] ?? c.to }
  }
  if (view.maintenance) {
    const m = view.maintenance
    payload.maintenance = {
      id: `m${m.id}`,
      name: m.name,
      message: m.message,
      scheduled_for: toIso(m.startAt),
      scheduled_until: toIso(m.endAt),
      components: m.components.map((c) => ({ id: String(c.id), name: c.name })),
    }
  }
  if (Object.keys(view.details).length > 0) payload.details = view.details
  return payload
}

/** The request as queued: signed later, at each attempt (the secret stays with the channel). */
export function webhookRequest(view: EventView, settings: { url: string }): OutboundRequest {
  return { ...jsonPost(settings.url, webhookPayload(view), { 'user-agent': 'Lantern-Webhook/1' }), signed: true }
}

/** The request of one attempt: the signature of its body at `now`. */
export async function signWebhookRequest(request: OutboundRequest, secret: string, now: number): Promise<OutboundRequest> {
  return { ...request, headers: { ...request.headers, [SIGNATURE_HEADER]: await signatureHeader(secret, request.body, now) } }
}
