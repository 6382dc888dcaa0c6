/**
 * The outgoing webhooks in the OpenAPI document's 3.1 `webhooks` section: one entry per event type,
 * all with the one payload schema (channels/webhook-schema.ts, as `components.schemas.WebhookPayload`),
 * the Standard Webhooks headers, what a receiver answers, and an example built by the same code that
 * builds real payloads.
 */
import { webhookPayload } from '../modules/channels/adapters/webhook.ts'
import type { EventView } from '../modules/channels/event-view.ts'
import { WEBHOOK_EVENT_TYPES, WebhookPayload, type WebhookEventType } from '../modules/channels/webhook-schema.ts'

const AT = Date.UTC(2026, 10, 27, 9, 30, 0)
const PAGE = { id: 7, slug: 'acme', name: 'Acme', url: 'https://acme.status.example.com', overall: 'partial_outage' as const }

/** A made-up event of each kind the example shows, rendered by the real payload builder. */
function exampleView(type: WebhookEventType): EventView {
  const base = { kind: type, at: AT, severity: 'critical' as const, page: PAGE, link: `${PAGE.url}/incidents/42`, alertKey: 'lantern:incident:42', resolves: false, details: {} }
  if (type.startsWith('incident.')) {
    return {
      ...base,
      id: `incident:42:97:${type}`,
      title: 'Incident opened: API errors',
      lines: ['State: investigating', 'Affected: API', 'Requests to the API fail for some customers.'],
      incident: {
        id: 42, name: 'API errors', state: 'investigating', createdAt: AT, updatedAt: AT, startedAt: AT, resolvedAt: null, impact: null,
        components: [{ id: 3, name: 'API', status: 'down' }],
        updates: [{ id: 97, state: 'investigating', message: 'Requests to the API fail for some customers.', at: AT }],
        postmortem: null,
      },
    }
  }
  if (type === 'component.status_changed') {
    return { ...base, id: `component:3:${AT}:down`, title: 'API is down', lines: ['API: operational → down'], link: PAGE.url, alertKey: 'lantern:component:3', component: { id: 3, name: 'API', from: 'up', to: 'down' } }
  }
  if (type.startsWith('maintenance.')) {
    return {
      ...base,
      id: `maintenance:5:${type}`,
      severity: 'info',
      title: 'Maintenance scheduled: Database upgrade',
      lines: ['Window: 2026-11-28 02:00 UTC – 2026-11-28 03:00 UTC', 'Affected: API'],
      link: PAGE.url,
      alertKey: 'lantern:maintenance:5',
      maintenance: { id: 5, name: 'Database upgrade', message: 'Read-only for an hour.', startAt: AT + 16.5 * 3_600_000, endAt: AT + 17.5 * 3_600_000, createdAt: AT, updatedAt: AT, components: [{ id: 3, name: 'API' }] },
    }
  }
  return { ...base, id: `${type}:example`, severity: 'warning', title: `Lantern event: ${type}`, lines: ['What happened, in words.'], page: null, link: null, details: { example: 1 } }
}

const HEADERS = [
  { name: 'webhook-id', description: 'The delivery: the same on every retry and on "send again". De-duplicate by it.', example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt. Reject values more than 5 minutes from now.', example: '1795771800' },
  {
    name: 'webhook-signature',
    description: 'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of your `whsec_` secret after the prefix.',
    example: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
]

const LEGACY_HEADER = {
  name: 'x-lantern-signature',
  description: 'Deprecated: only for webhook channels that have a secret of their own from before; `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.',
  example: 't=1795771800,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
}

function webhookOperation(type: WebhookEventType) {
  const name = type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())
  return {
    post: {
      operationId: `webhook${name[0]!.toUpperCase()}${name.slice(1)}`,
      tags: ['Webhooks'],
      summary: `Lantern calls your webhook: ${type}`,
      description:
        type === 'test'
          ? '"Send test" of a webhook channel: no page, `details.test` is 1.'
          : `Sent to webhook channels that listen to \`${type}\`${type.startsWith('incident.') || type.startsWith('maintenance.') ? ' and, when the owner notifies subscribers, to webhook subscribers of the page' : ''}.`,
      security: [],
      parameters: [...HEADERS, { ...LEGACY_HEADER, deprecated: true }].map(
        ({ name: header, description, example, ...rest }) => ({ name: header, in: 'header', required: header !== LEGACY_HEADER.name, description, schema: { type: 'string' }, example, ...rest }),
      ),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookPayload' }, example: webhookPayload(exampleView(type), { documentation: 'https://lantern.example.com/docs/notifications', unsubscribe: null }) } },
      },
      responses: {
        '2XX': { description: 'Delivered: any 2xx within 10 seconds' },
        '4XX': { description: 'Refused: retried after 1, 5, 30, 120 and 720 minutes, as any answer that is not a 2xx (redirects are not followed)' },
        default: { description: 'Failed (5xx, no answer in 10 s): retried likewise' },
      },
    },
  }
}

type Document = Record<string, unknown> & { components?: { schemas?: Record<string, unknown> } & Record<string, unknown>; tags?: Array<{ name: string; description?: string }> }

/** Adds the `webhooks` section, its schema and its tag to the document. */
export function addWebhooks(doc: Document): void {
  const { $id: _, ...schema } = JSON.parse(JSON.stringify(WebhookPayload)) as Record<string, unknown>
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, WebhookPayload: schema } }
  doc.tags = [...(doc.tags ?? []).filter((tag) => tag.name !== 'Webhooks'), { name: 'Webhooks', description: 'What Lantern sends to webhook channels and webhook subscribers (signed per Standard Webhooks)' }]
  doc.webhooks = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, webhookOperation(type)]))
}
