import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import { conflictResponse, errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { CreateStatusPageBody, statusPageJson, statusPageModels, StatusPageRef, UpdateStatusPageBody } from './model.ts'
import type { StatusPagesService } from './service.ts'
import type { DomainVerifier } from './domain-verifier.ts'

const detail = (summary: string) => ({ tags: ['Status pages'], summary, security: apiKeySecurity })

export function statusPagesRoutes(deps: { accounts: AccountsService; pages: StatusPagesService; domains: DomainVerifier; config: Config }) {
  const { pages, domains, config } = deps
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
    .post('/:id/custom-domain/check', async ({ owner, params }) => ({ data: json(await domains.checkNow(owner, params.id)) }), {
      params: IdParams,
      response: { 200: t.Object({ data: StatusPageRef }), 503: 'Error', ...errorResponses },
      detail: {
        ...detail('Check the custom domain\'s DNS now'),
        description:
          'Looks the domain up and stores what it found in `custom_domain_status` (the server also checks every 15 minutes). Once the domain resolves to this instance it is `verified` and every public link (snippets, status JSON `page_url`, the widget, mails) uses it. 400 when the page has no custom domain; 503 when this server cannot look up DNS.',
      },
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
