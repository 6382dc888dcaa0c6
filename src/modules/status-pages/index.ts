import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { conflictResponse, errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { CreateStatusPageBody, statusPageJson, statusPageModels, StatusPageRef, UpdateStatusPageBody } from './model.ts'
import type { StatusPagesService } from './service.ts'

const detail = (summary: string) => ({ tags: ['Status pages'], summary, security: apiKeySecurity })

export function statusPagesRoutes(deps: { accounts: AccountsService; pages: StatusPagesService; config: Config }) {
  const { pages, config } = deps
  const json = (page: Parameters<typeof statusPageJson>[0]) => statusPageJson(page, config)
  return new Elysia({ prefix: '/user/api/v1/status-pages' })
    .model(sharedModels)
    .model(statusPageModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/',
      async ({ owner }) => {
        const list = (await pages.list(owner)).map(json)
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(StatusPageRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List your status pages'),
      },
    )
    .post('/', async ({ owner, body, status }) => status(201, { data: json(await pages.create(owner, body)) }), {
      body: CreateStatusPageBody,
      response: { 201: t.Object({ data: StatusPageRef }), ...errorResponses, ...conflictResponse },
      detail: detail('Create a status page'),
    })
    .get('/:id', async ({ owner, params }) => ({ data: json(await pages.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: t.Object({ data: StatusPageRef }), ...errorResponses },
      detail: detail('Get one of your status pages'),
    })
    .patch('/:id', async ({ owner, params, body }) => ({ data: json(await pages.update(owner, params.id, body)) }), {
      params: IdParams,
      body: UpdateStatusPageBody,
      response: { 200: t.Object({ data: StatusPageRef }), ...errorResponses, ...conflictResponse },
      detail: detail('Change a status page (custom_domain: null removes the domain)'),
    })
    .delete(
      '/:id',
      async ({ owner, params }) => {
        await pages.delete(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail('Delete a status page with its components and history'),
      },
    )
}
