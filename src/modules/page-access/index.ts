/** The owner's access settings of a private page in the management API: gate password, embed token. */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { AccessBody, accessJson, accessModels, PageAccessRef } from './model.ts'
import type { PageAccessSettingsService } from './settings.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Status pages'], summary, description, security: apiKeySecurity })

export function pageAccessRoutes(deps: { accounts: AccountsService; settings: PageAccessSettingsService }) {
  const { settings } = deps
  return new Elysia({ name: 'page-access', prefix: '/user/api/v1/status-pages' })
    .model(sharedModels)
    .model(accessModels)
    .use(ownerAuth(deps.accounts))
    .get('/:id/access', async ({ owner, params }) => ({ data: accessJson(await settings.accessSettings(owner, params.id)) }), {
      params: IdParams,
      response: { 200: t.Object({ data: PageAccessRef }), ...errorResponses },
      detail: detail('Access settings of a private page'),
    })
    .put(
      '/:id/access',
      async ({ owner, params, body }) => ({ data: accessJson(await settings.setPassword(owner, params.id, body.password)) }),
      {
        params: IdParams,
        body: AccessBody,
        response: { 200: t.Object({ data: PageAccessRef }), ...errorResponses },
        detail: detail(
          'Set the password of a private page',
          'At least 8 characters (shorter passwords set before keep working); `null` removes it. Visitors who typed it get a 1-hour session on that host. Changing it ends every session.',
        ),
      },
    )
    .post(
      '/:id/access/token',
      async ({ owner, params, status }) => status(201, { data: { auth_token: await settings.rotateEmbedToken(owner, params.id) } }),
      {
        params: IdParams,
        response: { 201: t.Object({ data: t.Object({ auth_token: t.String() }) }), ...errorResponses },
        detail: detail(
          'Create a read-only embed token for a private page (replaces the previous one)',
          'Shown once. Add `auth_token=<token>` to the status JSON, badge or widget URLs and to `/api/v2/*.json` and the feeds of the page.',
        ),
      },
    )
    .delete(
      '/:id/access/token',
      async ({ owner, params }) => {
        await settings.revokeEmbedToken(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses },
        detail: detail('Revoke the embed token of a private page'),
      },
    )
}
