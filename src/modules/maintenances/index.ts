import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { CreateMaintenanceBody, maintenanceJson, MaintenanceListQuery, maintenanceModels, MaintenanceRef, UpdateMaintenanceBody } from './model.ts'
import type { Maintenance, MaintenancesService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Maintenances'], summary, description, security: apiKeySecurity })
const one = t.Object({ data: MaintenanceRef })

export function maintenancesRoutes(deps: { accounts: AccountsService; maintenances: MaintenancesService }) {
  const { maintenances } = deps
  const json = (window: Maintenance) => maintenanceJson(window, maintenances.now())
  return new Elysia({ prefix: '/user/api/v1/maintenances' })
    .model(sharedModels)
    .model(maintenanceModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/',
      async ({ owner, query }) => {
        const list = (await maintenances.list(owner, { pageId: query.status_page_id, limit: query.limit })).map(json)
        return { data: list, meta: { count: list.length } }
      },
      {
        query: MaintenanceListQuery,
        response: { 200: t.Object({ data: t.Array(MaintenanceRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List your maintenance windows, newest start first'),
      },
    )
    .post('/', async ({ owner, body, status }) => status(201, { data: json(await maintenances.create(owner, body)) }), {
      body: CreateMaintenanceBody,
      response: { 201: one, ...errorResponses },
      detail: detail(
        'Schedule a maintenance window',
        '`start_at` and `end_at` are RFC 3339 with an offset, `end_at` after `start_at`. The window is active (the page shows `under_maintenance` unless something is down or an incident is open) while now is inside it.',
      ),
    })
    .get('/:id', async ({ owner, params }) => ({ data: json(await maintenances.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Get a maintenance window'),
    })
    .patch('/:id', async ({ owner, params, body }) => ({ data: json(await maintenances.update(owner, params.id, body)) }), {
      params: IdParams,
      body: UpdateMaintenanceBody,
      response: { 200: one, ...errorResponses },
      detail: detail('Change a maintenance window'),
    })
    .delete(
      '/:id',
      async ({ owner, params }) => {
        await maintenances.delete(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail('Delete a maintenance window'),
      },
    )
}
