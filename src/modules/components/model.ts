import { t, type Static } from 'elysia'
import { entityId, boundedText, modelRef, namedModels, nullableBoundedText } from '../../http/schemas.ts'
import { toIso } from '../../lib/time.ts'
import { MAX_COMPONENT_DESCRIPTION, MAX_COMPONENT_NAME, MAX_GROUP_NAME, MAX_HISTORY_IMPORT, type Component, type StatusChange, type StatusCorrection } from './types.ts'
import { MAX_CORRECTION_REASON } from './corrections.ts'

const ComponentTypeSchema = t.Union([t.Literal('site'), t.Literal('api'), t.Literal('dns')], {
  error: 'type must be one of site, api, dns',
})
const ComponentStatusSchema = t.Union([t.Literal('up'), t.Literal('degraded'), t.Literal('partial'), t.Literal('down')], {
  error: 'status must be one of up, degraded, partial, down',
  description: 'up (operational), degraded (degraded performance), partial (partial outage: set by people, never by monitors), down (major outage)',
})

const name = boundedText('name', MAX_COMPONENT_NAME)
const group = nullableBoundedText('group', MAX_GROUP_NAME)
const description = t.String({
  maxLength: 1000,
  error: 'description must be a string',
  description: `Markdown shown under the component's name on the public page and in the Statuspage-style JSON (at most ${MAX_COMPONENT_DESCRIPTION} characters; links, emphasis and code; HTML stays text). An empty string removes it.`,
  examples: ['Sign-in, billing and the dashboard at `app.example.com`'],
})

export const CreateComponentBody = t.Object({
  name,
  type: t.Optional(ComponentTypeSchema),
  group: t.Optional(group),
  description: t.Optional(description),
  status: t.Optional(ComponentStatusSchema),
})

export const UpdateComponentBody = t.Object({
  name: t.Optional(name),
  type: t.Optional(ComponentTypeSchema),
  group: t.Optional(group),
  description: t.Optional(description),
  status: t.Optional(ComponentStatusSchema),
  status_override: t.Optional(
    t.Boolean({
      error: 'status_override must be true or false',
      description: 'On a component with monitors, a status set by hand is an override (true); false hands the status back to the monitors.',
    }),
  ),
})

/** The most components a page's order may list (far above any plan's limit). */
export const MAX_ORDER_IDS = 1000

export const ComponentOrderBody = t.Object({
  ids: t.Array(entityId('ids must contain positive integer ids'), {
    maxItems: MAX_ORDER_IDS,
    error: `ids must be an array of at most ${MAX_ORDER_IDS} component ids`,
    description: 'Every component of the page, each once, in the new order',
  }),
})

export const RenameGroupBody = t.Object({
  from: boundedText('from', MAX_GROUP_NAME),
  to: nullableBoundedText('to', MAX_GROUP_NAME),
})

/** What create and update take (create checks that the name is there). */
export type ComponentInput = Static<typeof UpdateComponentBody>

export const HISTORY_NOT_ARRAY = `history must be an array of at most ${MAX_HISTORY_IMPORT} {status, at} entries`

export const HistoryImportBody = t.Array(
  t.Object({
    status: t.String({ maxLength: 20, error: 'status must be one of up, degraded, partial, down' }),
    at: t.String({ maxLength: 64, error: 'at must be an RFC 3339 date-time' }),
  }),
  { title: 'history', maxItems: MAX_HISTORY_IMPORT, error: HISTORY_NOT_ARRAY },
)

export const HistoryQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 1000, multipleOf: 1, error: 'limit must be an integer from 1 to 1000' })),
})

const ComponentJson = t.Object({
  id: t.Integer(),
  page_id: t.Integer(),
  name: t.String(),
  type: ComponentTypeSchema,
  group: t.Nullable(t.String()),
  status: ComponentStatusSchema,
  status_override: t.Boolean({ description: 'The status was set by hand on a monitored component; monitors leave it alone until cleared.' }),
  description: t.String({ description: "Markdown shown under the name on the public page ('' for none)", examples: [''] }),
  position: t.Integer(),
  created_at: t.String({ description: 'RFC 3339' }),
  updated_at: t.String({ description: 'RFC 3339' }),
})

/** A status change's shape; a new object each time, since a registered model carries its own $id. */
const statusChangeShape = () => t.Object({ status: ComponentStatusSchema, at: t.String({ description: 'RFC 3339' }) })
const StatusChangeJson = statusChangeShape()

export const CorrectionBody = t.Object({
  from: t.String({ maxLength: 64, error: 'from must be an RFC 3339 date-time', description: 'start of the span (RFC 3339), at or after the first recorded status' }),
  to: t.String({ maxLength: 64, error: 'to must be an RFC 3339 date-time', description: 'end of the span (RFC 3339, excluded), after from and not in the future' }),
  status: t.String({ maxLength: 20, error: 'status must be one of up, degraded, partial, down', description: 'the status the component really had: up, degraded, partial or down' }),
  reason: t.String({ maxLength: MAX_CORRECTION_REASON * 2, error: `reason must be a string of 1 to ${MAX_CORRECTION_REASON} characters`, description: 'why, kept with the correction' }),
})

export const CorrectionsQuery = t.Object({
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 500, multipleOf: 1, error: 'limit must be an integer from 1 to 500' })),
})

const StatusCorrectionJson = t.Object({
  id: t.Integer(),
  component_id: t.Integer(),
  from: t.String({ description: 'RFC 3339' }),
  to: t.String({ description: 'RFC 3339 (excluded)' }),
  status: ComponentStatusSchema,
  reason: t.String(),
  corrected_by: t.String({ description: 'the email of the account that made it, as it was then' }),
  corrected_at: t.String({ description: 'RFC 3339' }),
  // What the span held before (two top-level fields: a nullable object nested deeper trips Elysia's response check).
  replaced_before: t.Nullable(statusChangeShape(), { description: 'the change in force when the span began (null: the span began at the first recorded status)' }),
  replaced_changes: t.Array(statusChangeShape(), { description: 'every change that was inside the span, oldest first' }),
})

/** The named models of the OpenAPI document this module defines. */
export const componentModels = namedModels({ Component: ComponentJson, StatusChange: StatusChangeJson, StatusCorrection: StatusCorrectionJson })
export const ComponentRef = modelRef(componentModels, 'Component')
export const StatusChangeRef = modelRef(componentModels, 'StatusChange')
export const StatusCorrectionRef = modelRef(componentModels, 'StatusCorrection')

export function statusCorrectionJson(c: StatusCorrection): Static<typeof StatusCorrectionJson> {
  return {
    id: c.id,
    component_id: c.componentId,
    from: toIso(c.from),
    to: toIso(c.to),
    status: c.status,
    reason: c.reason,
    corrected_by: c.by,
    corrected_at: toIso(c.at),
    replaced_before: c.replaced.before ? statusChangeJson(c.replaced.before) : null,
    replaced_changes: c.replaced.changes.map(statusChangeJson),
  }
}

export function componentJson(component: Component): Static<typeof ComponentJson> {
  return {
    id: component.id,
    page_id: component.pageId,
    name: component.name,
    type: component.type,
    group: component.group,
    status: component.status,
    status_override: component.statusOverride,
    description: component.description,
    position: component.position,
    created_at: toIso(component.createdAt),
    updated_at: toIso(component.updatedAt),
  }
}

export const statusChangeJson = (change: StatusChange): Static<typeof StatusChangeJson> => ({ status: change.status, at: toIso(change.at) })
