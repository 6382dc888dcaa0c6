import { t, type Static } from 'elysia'
import { entityId, boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import { MAX_MESSAGE, MAX_POSTMORTEM, MAX_TEMPLATE_NAME, MAX_TITLE, type Incident, type IncidentTemplate } from './types.ts'
import { incidentStateId, INCIDENT_STATES } from './states.ts'

const IncidentStateSchema = t.Union(
  [t.Literal('investigating'), t.Literal('identified'), t.Literal('monitoring'), t.Literal('resolved')],
  { error: `state must be one of ${INCIDENT_STATES.join(', ')}` },
)

const stateName = t.String({ maxLength: 40, error: `state must be one of ${INCIDENT_STATES.join(', ')}` })
const stateId = t.Union([t.String({ maxLength: 10 }), t.Integer()], {
  error: 'incident_state_id must be "1" (investigating), "2" (identified), "3" (monitoring) or "4" (resolved)',
  description: 'Alias of `state` used by scripts for hosted services: "1" investigating, "2" identified, "3" monitoring, "4" resolved',
})
const id = (field: string) => entityId(`${field} must be a positive integer`)
const componentIds = t.Array(entityId('component_ids must contain positive integer ids'), {
  maxItems: 100,
  error: 'component_ids must be an array of at most 100 component ids',
  description: 'Affected components; empty or absent means the whole page',
})
const impact = t.Optional(
  t.Nullable(t.Union([t.Literal('none'), t.Literal('minor'), t.Literal('major'), t.Literal('critical')]), {
    error: 'impact must be none, minor, major, critical or null',
    description: 'The impact shown (Statuspage\'s none, minor, major, critical); null or absent: derived from the worst status of the affected components (major outage → critical, partial outage → major, else minor)',
  }),
)
const title = boundedText('title', MAX_TITLE)
const message = boundedText('message', MAX_MESSAGE)
const notifySubscribers = t.Optional(
  t.Boolean({
    error: 'notify_subscribers must be true or false',
    description: "Also tell the page's subscribers (default false). The owner's own notification channels hear every incident event they listen to.",
  }),
)

export const CreateIncidentBody = t.Object({
  title,
  status_page_id: t.Optional(id('status_page_id')),
  component_id: t.Optional(id('component_id')),
  component_ids: t.Optional(componentIds),
  message: t.Optional(message),
  state: t.Optional(stateName),
  incident_state_id: t.Optional(stateId),
  started_at: t.Optional(t.String({ maxLength: 64, error: 'started_at must be an RFC 3339 date-time' })),
  impact,
  notify_subscribers: notifySubscribers,
})

export const UpdateIncidentBody = t.Object({
  title: t.Optional(title),
  message: t.Optional(message),
  state: t.Optional(stateName),
  incident_state_id: t.Optional(stateId),
  component_ids: t.Optional(componentIds),
  impact,
  notify_subscribers: notifySubscribers,
})

export const IncidentUpdateBody = t.Object({
  message: t.Optional(message),
  state: t.Optional(stateName),
  incident_state_id: t.Optional(stateId),
  notify_subscribers: notifySubscribers,
})

export const FromTemplateBody = t.Object({
  status_page_id: t.Optional(id('status_page_id')),
  component_id: t.Optional(id('component_id')),
  component_ids: t.Optional(componentIds),
  // Instead of the template's own (placeholders filled the same way).
  title: t.Optional(title),
  message: t.Optional(message),
  state: t.Optional(stateName),
  incident_state_id: t.Optional(stateId),
  impact,
  notify_subscribers: notifySubscribers,
})

export const IncidentListQuery = t.Object({
  status_page_id: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'status_page_id must be a positive integer' })),
  state: t.Optional(IncidentStateSchema),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1, error: 'limit must be an integer from 1 to 200' })),
})

export const TemplateBody = t.Object({
  name: t.Optional(boundedText('name', MAX_TEMPLATE_NAME)),
  title: t.Optional(title),
  message: t.Optional(message),
})

export const PostmortemBody = t.Object({
  body: t.String({
    maxLength: MAX_POSTMORTEM,
    error: `body must be text of at most ${MAX_POSTMORTEM} characters`,
    description: 'The postmortem in Markdown (links, emphasis, lists, code); saved as a draft, or changed after it was published',
  }),
})

export const PublishPostmortemBody = t.Object({
  notify_subscribers: t.Optional(
    t.Boolean({ error: 'notify_subscribers must be true or false', description: "Also send it to the page's subscribers (default false)" }),
  ),
})

/** What the service takes: the JSON bodies (snake_case); it checks what is required itself. */
export type CreateIncidentInput = Partial<Static<typeof CreateIncidentBody>>
export type UpdateIncidentInput = Static<typeof UpdateIncidentBody>
export type TemplateInput = Static<typeof TemplateBody>
export type IncidentUpdateInput = Static<typeof IncidentUpdateBody>
export type FromTemplateInput = Static<typeof FromTemplateBody>
export type PostmortemInput = Static<typeof PostmortemBody>
export type PublishPostmortemInput = Static<typeof PublishPostmortemBody>

const ComponentRef = t.Object({ id: t.Integer(), name: t.String() })

const IncidentJson = t.Object({
  id: t.Integer(),
  page_id: t.Integer(),
  title: t.String(),
  state: IncidentStateSchema,
  incident_state_id: t.String({ description: '"1".."4", the numeric alias of state' }),
  started_at: t.String({ description: 'RFC 3339' }),
  resolved_at: t.Nullable(t.String({ description: 'RFC 3339' })),
  components: t.Array(ComponentRef, { description: 'Affected components; empty means the whole page' }),
  impact: t.Union([t.Literal('none'), t.Literal('minor'), t.Literal('major'), t.Literal('critical')], {
    description: 'The impact shown on the page and in the v2 JSON: the one chosen, else derived from the worst status of the affected components now',
  }),
  impact_chosen: t.Boolean({ description: 'true: the owner chose the impact; false: it is derived' }),
  updates: t.Array(
    t.Object({ id: t.Integer(), state: IncidentStateSchema, message: t.String(), at: t.String({ description: 'RFC 3339' }) }),
    { description: 'Timeline, oldest first' },
  ),
  created_at: t.String(),
  updated_at: t.String(),
  source: t.Union([t.Literal('manual'), t.Literal('auto')], { description: 'auto: opened by automatic incidents (a monitored component confirmed down)' }),
  automatic: t.Nullable(
    t.Object({
      component_id: t.Nullable(t.Integer({ description: 'The component it watches' })),
      acknowledged_at: t.Nullable(t.String({ description: 'RFC 3339: when a person first changed it; from then on it is theirs (a recovery adds an update instead of resolving)' })),
      auto_resolved: t.Boolean(),
    }),
    { description: 'Set on automatic incidents' },
  ),
  postmortem: t.Nullable(
    t.Object({
      body: t.String({ description: 'Markdown' }),
      updated_at: t.String({ description: 'RFC 3339' }),
      published_at: t.Nullable(t.String({ description: 'RFC 3339; null while it is a draft' })),
    }),
    { description: 'The postmortem of a resolved incident: a draft until published, then shown on the page and in the feeds' },
  ),
})

const TemplateJson = t.Object({
  id: t.Integer(),
  name: t.String(),
  title: t.String({ description: 'May contain {{component}} and {{page}}' }),
  message: t.String({ description: 'May contain {{component}} and {{page}}' }),
  created_at: t.String(),
  updated_at: t.String(),
})

/** The named models of the OpenAPI document this module defines. */
export const incidentModels = namedModels({ Incident: IncidentJson, IncidentTemplate: TemplateJson })
export const IncidentRef = modelRef(incidentModels, 'Incident')
export const IncidentTemplateRef = modelRef(incidentModels, 'IncidentTemplate')

export function incidentJson(incident: Incident): Static<typeof IncidentJson> {
  return {
    id: incident.id,
    page_id: incident.pageId,
    title: incident.title,
    state: incident.state,
    incident_state_id: incidentStateId(incident.state),
    started_at: toIso(incident.startedAt),
    resolved_at: toIsoOrNull(incident.resolvedAt),
    components: incident.components,
    impact: incident.impact,
    impact_chosen: incident.impactChosen !== null,
    updates: incident.updates.map((u) => ({ id: u.id, state: u.state, message: u.message, at: toIso(u.at) })),
    created_at: toIso(incident.createdAt),
    updated_at: toIso(incident.updatedAt),
    source: incident.automatic ? 'auto' : 'manual',
    automatic: incident.automatic
      ? { component_id: incident.automatic.componentId, acknowledged_at: toIsoOrNull(incident.automatic.acknowledgedAt), auto_resolved: incident.automatic.autoResolved }
      : null,
    postmortem: incident.postmortem
      ? { body: incident.postmortem.body, updated_at: toIso(incident.postmortem.updatedAt), published_at: toIsoOrNull(incident.postmortem.publishedAt) }
      : null,
  }
}

export function templateJson(template: IncidentTemplate): Static<typeof TemplateJson> {
  return {
    id: template.id,
    name: template.name,
    title: template.title,
    message: template.message,
    created_at: toIso(template.createdAt),
    updated_at: toIso(template.updatedAt),
  }
}
