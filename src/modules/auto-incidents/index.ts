/** Automatic incidents in the management API: a page's settings and the components taking part. */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { AutomationBody, automationJson, autoIncidentModels, AutoIncidentSettingsRef } from './model.ts'
import type { AutoIncidentSettingsService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Status pages'], summary, description, security: apiKeySecurity })
const one = t.Object({ data: AutoIncidentSettingsRef })

export function autoIncidentsRoutes(deps: { accounts: AccountsService; settings: AutoIncidentSettingsService }) {
  const { settings } = deps
  return new Elysia({ name: 'auto-incidents', prefix: '/user/api/v1/status-pages' })
    .model(sharedModels)
    .model(autoIncidentModels)
    .use(ownerAuth(deps.accounts))
    .get('/:id/auto-incidents', async ({ owner, params }) => ({ data: automationJson(await settings.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail(
        'Automatic incidents of a page',
        'The three settings, each component with whether it takes part and, when paused, why (`plan_limit` after a downgrade, `page_off`), and the plan limit with its use.',
      ),
    })
    .patch('/:id/auto-incidents', async ({ owner, params, body }) => ({ data: automationJson(await settings.update(owner, params.id, body)) }), {
      params: IdParams,
      body: AutomationBody,
      response: { 200: one, ...errorResponses },
      detail: detail(
        'Change the automatic incidents of a page',
        'Fields left out keep their value; `component_ids` replaces the set of components with automatic incidents on. Turning on more components than the plan allows (counted over all your pages: Free 0, Pro 5, Growth 20, Business and up unlimited) is a 403 naming the limit and the count; nothing changes then.',
      ),
    })
}
