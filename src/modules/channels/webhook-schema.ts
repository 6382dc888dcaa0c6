/**
 * The one webhook payload of Lantern, as a JSON Schema (TypeBox): what webhook channels and webhook
 * subscribers both receive. It is the single source of the code that builds payloads (typed by it,
 * adapters/webhook.ts), of the OpenAPI `webhooks` section and of the guide's field list.
 *
 * The shape is Atlassian Statuspage's webhook: `meta`, `page` with `status_indicator` and
 * `status_description`, `incident` with `incident_updates` (maintenance is an incident with
 * `impact: "maintenance"` and `scheduled_for`/`scheduled_until`, as Statuspage sends it),
 * `component_update` with `component`. Ids are strings and statuses use Statuspage's words, so
 * receivers written for Statuspage read it unchanged. Lantern adds `version`, `type`, `id`,
 * `summary` (ready-made text) and `details` (the fields of events Statuspage does not have).
 * Receivers must ignore fields they do not know: later versions may add some.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { NOTIFY_EVENT_KINDS } from '../notify/contract.ts'

/** Bumped on a change that breaks receivers (a field removed, renamed or of another type). */
export const WEBHOOK_PAYLOAD_VERSION = '2'

const literals = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Union(values.map((value) => Type.Literal(value)), options)
const nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {})
const Timestamp = (description?: string) => Type.String({ format: 'date-time', description: description ?? 'RFC 3339, UTC' })
const Id = (description: string) => Type.String({ description })

export const WEBHOOK_EVENT_TYPES = [...NOTIFY_EVENT_KINDS, 'test'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const COMPONENT_STATUSES = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'] as const
const ComponentStatus = literals(COMPONENT_STATUSES, { description: "Statuspage's component status" })

export const STATUS_INDICATORS = ['none', 'minor', 'major', 'critical', 'maintenance'] as const

const Meta = Type.Object(
  {
    unsubscribe: nullable(Type.String({ format: 'uri' }), "Subscriber webhooks: the subscriber's own unsubscribe link (a POST or GET there ends the subscription). Channels: null"),
    documentation: Type.String({ format: 'uri', description: 'This guide' }),
    generated_at: Timestamp('When the event happened'),
  },
  { description: 'About this delivery' },
)

const Page = Type.Object(
  {
    id: Id("The page's slug, as `page.id` of its /api/v2 JSON"),
    api_id: Type.Integer({ minimum: 1, description: "The page's id in the management API" }),
    name: Type.String(),
    url: Type.String({ format: 'uri', description: 'The public status page' }),
    status_indicator: literals(STATUS_INDICATORS, { description: "The page's overall status right after the event, in Statuspage's words: none, minor, major, critical (or maintenance)" }),
    status_description: Type.String({ description: 'The same in words, e.g. "All Systems Operational", "Partial System Outage"' }),
  },
  { description: 'The status page of the event; null for events without a page (certificates, blocklists without a page, tests)' },
)

const Summary = Type.Object(
  {
    title: Type.String({ description: 'One line, e.g. "Incident opened: Database slow"' }),
    lines: Type.Array(Type.String(), { description: 'Plain-text lines under the title' }),
    severity: literals(['critical', 'warning', 'info', 'ok'] as const),
    link: nullable(Type.String({ format: 'uri' }), 'Where a person reads more'),
  },
  { description: 'Ready-made text for receivers that only show a message' },
)

const IncidentUpdate = Type.Object({
  id: Id('Stable per update'),
  incident_id: Id("The incident's id"),
  status: Type.String({ description: 'The status this update set' }),
  body: Type.String({ description: 'The message (plain text, may be empty)' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  display_at: Timestamp(),
})

const AffectedComponent = Type.Object({
  id: Id("The component's id"),
  name: Type.String(),
  status: ComponentStatus,
})

const Incident = Type.Object(
  {
    id: Id('The incident id, or `m<id>` for a maintenance window'),
    name: Type.String(),
    status: literals(['investigating', 'identified', 'monitoring', 'resolved', 'scheduled', 'in_progress', 'completed'] as const, {
      description: 'Incidents: investigating, identified, monitoring, resolved. Maintenance: scheduled, in_progress, completed',
    }),
    impact: literals(['none', 'minor', 'major', 'critical', 'maintenance'] as const, { description: "The impact the owner chose, else from the worst affected component (critical: major outage, major: partial outage, else minor); maintenance for maintenance windows" }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    started_at: Timestamp('Incidents: when it began; maintenance: the window start'),
    monitoring_at: nullable(Timestamp()),
    resolved_at: nullable(Timestamp('When it was resolved (maintenance: the window end, once completed)')),
    scheduled_for: nullable(Timestamp('Maintenance: the window start; incidents: null')),
    scheduled_until: nullable(Timestamp('Maintenance: the window end; incidents: null')),
    postmortem_body: Type.Optional(nullable(Type.String(), 'Incidents: the published postmortem in Markdown, as written (null without one); absent for maintenance')),
    shortlink: Type.String({ format: 'uri', description: 'Its page on the status page' }),
    page_id: Id('The page slug (as `page.id`)'),
    incident_updates: Type.Array(IncidentUpdate, { description: 'Newest first (at most 20): the first is the one this event is about' }),
    components: Type.Array(AffectedComponent, { description: 'The affected components (empty: the whole page)' }),
  },
  { description: 'incident.* and maintenance.* events' },
)

const ComponentUpdate = Type.Object(
  {
    id: Id('Stable per change'),
    component_id: Id("The component's id"),
    old_status: ComponentStatus,
    new_status: ComponentStatus,
    created_at: Timestamp('When the status changed'),
  },
  { description: 'component.status_changed events' },
)

const Component = Type.Object(
  { id: Id("The component's id"), name: Type.String(), status: ComponentStatus, created_at: Timestamp('When the status changed') },
  { description: 'component.status_changed events: the component after the change' },
)

export const WebhookPayload = Type.Object(
  {
    version: Type.Literal(WEBHOOK_PAYLOAD_VERSION),
    type: literals(WEBHOOK_EVENT_TYPES, { description: 'The event kind; `test` for "Send test"' }),
    id: Type.String({ description: 'The event, the same for every receiver and every retry: de-duplicate by it (or by the `webhook-id` header, per receiver)' }),
    meta: Meta,
    page: Type.Union([Page, Type.Null()], { description: Page.description }),
    summary: Summary,
    incident: Type.Optional(Incident),
    component_update: Type.Optional(ComponentUpdate),
    component: Type.Optional(Component),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]), {
        description: 'The fields of SLA, certificate, blocklist, email-authentication and monitor events (monitor.*: monitor_id, monitor_name, monitor_type, target, previous_state, state, reason, since, response_ms, regions_down, reminder, monitor_url; and `test: 1`)',
      }),
    ),
  },
  {
    $id: 'WebhookPayload',
    title: 'Lantern webhook',
    description: 'What webhook channels and webhook subscribers receive: a POST with this JSON body, signed per Standard Webhooks.',
  },
)
export type WebhookPayload = Static<typeof WebhookPayload>
