import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { badRequest } from '../../lib/errors.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import {
  componentJson,
  componentModels,
  ComponentOrderBody,
  ComponentRef,
  CorrectionBody,
  CorrectionsQuery,
  CreateComponentBody,
  HISTORY_NOT_ARRAY,
  HistoryImportBody,
  HistoryQuery,
  statusChangeJson,
  RenameGroupBody,
  StatusChangeRef,
  statusCorrectionJson,
  StatusCorrectionRef,
  UpdateComponentBody,
} from './model.ts'
import type { ComponentsService } from './service.ts'

const detail = (summary: string, description?: string) => ({
  tags: ['Components'],
  summary,
  description,
  security: apiKeySecurity,
})
const one = t.Object({ data: ComponentRef })

export function componentsRoutes(deps: { accounts: AccountsService; components: ComponentsService }) {
  const { components } = deps
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(componentModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/status-pages/:id/components',
      async ({ owner, params }) => {
        const list = (await components.list(owner, params.id)).map(componentJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Array(ComponentRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List the components of a status page'),
      },
    )
    .post(
      '/status-pages/:id/components',
      async ({ owner, params, body, status }) => status(201, { data: componentJson(await components.create(owner, params.id, body)) }),
      {
        params: IdParams,
        body: CreateComponentBody,
        response: { 201: one, ...errorResponses },
        detail: detail('Add a component to a status page'),
      },
    )
    .put(
      '/status-pages/:id/components/order',
      async ({ owner, params, body }) => {
        const list = (await components.reorder(owner, params.id, body.ids)).map(componentJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        params: IdParams,
        body: ComponentOrderBody,
        response: { 200: t.Object({ data: t.Array(ComponentRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail(
          'Reorder the components of a status page',
          'Body: `{"ids": [3, 1, 2]}`, every component of the page exactly once. The public page shows them in this order; a group stands where its first member does. Answers the components in their new order.',
        ),
      },
    )
    .post(
      '/status-pages/:id/component-groups/rename',
      async ({ owner, params, body }) => ({ data: await components.renameGroup(owner, params.id, body) }),
      {
        params: IdParams,
        body: RenameGroupBody,
        response: { 200: t.Object({ data: t.Object({ moved: t.Integer() }) }), ...errorResponses },
        detail: detail(
          'Rename a component group',
          'Body: `{"from": "Backend", "to": "Servers"}`. Every component of group `from` moves to `to` (an existing group merges them; null ungroups them). 400 when no component is in `from`.',
        ),
      },
    )
    .get('/components/:id', async ({ owner, params }) => ({ data: componentJson(await components.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Get a component'),
    })
    .patch(
      '/components/:id',
      async ({ owner, params, body }) => ({ data: componentJson(await components.update(owner, params.id, body)) }),
      {
        params: IdParams,
        body: UpdateComponentBody,
        response: { 200: one, ...errorResponses },
        detail: detail('Change a component', 'A new status is recorded in the status history with the current time.'),
      },
    )
    .delete(
      '/components/:id',
      async ({ owner, params }) => {
        await components.delete(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail('Delete a component and its history'),
      },
    )
    .get(
      '/components/:id/history',
      async ({ owner, params, query }) => {
        const list = (await components.history(owner, params.id, query.limit ?? 100)).map(statusChangeJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        params: IdParams,
        query: HistoryQuery,
        response: { 200: t.Object({ data: t.Array(StatusChangeRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('Recent status changes of a component, newest first'),
      },
    )
    .post(
      '/components/:id/history',
      async ({ owner, params, body }) => {
        const result = await components.importHistory(owner, params.id, body)
        return { data: { imported: result.imported, component: componentJson(result.component) } }
      },
      {
        params: IdParams,
        body: HistoryImportBody,
        // Elysia would coerce a lone object into a one-item array before validating: refuse it here.
        transform: ({ body }) => {
          if (!Array.isArray(body)) throw badRequest(HISTORY_NOT_ARRAY)
        },
        response: { 200: t.Object({ data: t.Object({ imported: t.Integer(), component: ComponentRef }) }), ...errorResponses },
        detail: detail(
          'Import past status changes',
          'Body: `[{"status": "down", "at": "2026-01-01T10:00:00Z"}, …]`. All entries are validated first and written in one transaction: either all are imported or none. The component takes the status of its latest change.',
        ),
      },
    )
    .get(
      '/components/:id/history/corrections',
      async ({ owner, params, query }) => {
        const list = (await components.corrections(owner, params.id, query.limit ?? 100)).map(statusCorrectionJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        params: IdParams,
        query: CorrectionsQuery,
        response: { 200: t.Object({ data: t.Array(StatusCorrectionRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('Corrections of a component\'s status history, newest first', 'Each with who made it and when, the reason, and what the span held before.'),
      },
    )
    .post(
      '/components/:id/history/corrections',
      async ({ owner, params, body, status }) => status(201, { data: statusCorrectionJson(await components.correctHistory(owner, params.id, body)) }),
      {
        params: IdParams,
        body: CorrectionBody,
        response: { 201: t.Object({ data: StatusCorrectionRef }), ...errorResponses },
        detail: detail(
          'Correct the status history over a past span',
          'Body: `{"from": "2026-11-20T10:00:00Z", "to": "2026-11-20T14:00:00Z", "status": "up", "reason": "false outage: the monitor was misconfigured"}`. The changes inside [from, to) are replaced by the given status; the status before and after the span, and the current status, stay as they were. Uptime, the 90-day bars, the status JSON, analytics and SLA figures are recomputed from the corrected history at once. The correction is recorded (who, when, reason, what was replaced: see GET). Nothing is announced. 400 for a span in the future, reversed, before the first recorded status, or one that changes nothing.',
        ),
      },
    )
}
