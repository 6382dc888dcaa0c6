import { t, type Static } from 'elysia'
import { boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { toIso } from '../../lib/time.ts'
import { maintenancePhase } from '../status-pipeline/windows.ts'
import { MAX_MESSAGE, MAX_TITLE, type Maintenance } from './types.ts'

const time = (field: string) => t.String({ maxLength: 64, error: `${field} must be an RFC 3339 date-time`, description: 'RFC 3339' })
const title = boundedText('title', MAX_TITLE)
const message = boundedText('message', MAX_MESSAGE)
const componentIds = t.Array(t.Integer({ minimum: 1, error: 'component_ids must contain positive integer ids' }), {
  maxItems: 100,
  error: 'component_ids must be an array of at most 100 component ids',
  description: 'Affected components; empty or absent means the whole page',
})

export const CreateMaintenanceBody = t.Object({
  status_page_id: t.Integer({ minimum: 1, error: 'status_page_id must be a positive integer' }),
  title,
  start_at: time('start_at'),
  end_at: time('end_at'),
  message: t.Optional(message),
  component_ids: t.Optional(componentIds),
  notify_subscribers: t.Optional(
    t.Boolean({
      error: 'notify_subscribers must be true or false',
      description: "Also tell the page's subscribers when the window is scheduled, starts and ends (default false). The owner's own notification channels hear every maintenance event they listen to.",
    }),
  ),
})

export const UpdateMaintenanceBody = t.Object({
  title: t.Optional(title),
  start_at: t.Optional(time('start_at')),
  end_at: t.Optional(time('end_at')),
  message: t.Optional(message),
  component_ids: t.Optional(componentIds),
})

/** What create and update take: the JSON bodies; the service checks what is required itself. */
export type MaintenanceInput = Partial<Static<typeof CreateMaintenanceBody>>

export const MaintenanceListQuery = t.Object({
  status_page_id: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'status_page_id must be a positive integer' })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1, error: 'limit must be an integer from 1 to 200' })),
})

const MaintenanceJson = t.Object({
  id: t.Integer(),
  page_id: t.Integer(),
  title: t.String(),
  message: t.String(),
  start_at: t.String({ description: 'RFC 3339' }),
  end_at: t.String({ description: 'RFC 3339' }),
  status: t.Union([t.Literal('scheduled'), t.Literal('in_progress'), t.Literal('completed')], {
    description: 'Derived from the current time',
  }),
  components: t.Array(t.Object({ id: t.Integer(), name: t.String() })),
  created_at: t.String(),
  updated_at: t.String(),
})

/** The named models of the OpenAPI document this module defines. */
export const maintenanceModels = namedModels({ Maintenance: MaintenanceJson })
export const MaintenanceRef = modelRef(maintenanceModels, 'Maintenance')

export function maintenanceJson(window: Maintenance, now: number): Static<typeof MaintenanceJson> {
  return {
    id: window.id,
    page_id: window.pageId,
    title: window.title,
    message: window.message,
    start_at: toIso(window.startAt),
    end_at: toIso(window.endAt),
    status: maintenancePhase(window, now),
    components: window.components,
    created_at: toIso(window.createdAt),
    updated_at: toIso(window.updatedAt),
  }
}
