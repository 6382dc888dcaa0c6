/** `/user/api/v1/tools/lookups`: run a one-off domain lookup, list the recent ones, read one. */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { LOOKUP_RULES, LookupBody, lookupModels, RecentMeta, toolCheckJson, ToolCheckRef } from './model.ts'
import type { LookupToolsService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Tools'], summary, description, security: apiKeySecurity })

export function lookupToolsRoutes(deps: { accounts: AccountsService; tools: LookupToolsService }) {
  const { tools } = deps
  return new Elysia({ prefix: '/user/api/v1/tools/lookups' })
    .model(sharedModels)
    .model(lookupModels)
    .use(ownerAuth(deps.accounts))
    .post('/', async ({ owner, body, status }) => status(201, { data: toolCheckJson(await tools.run(owner, body)) }), {
      body: LookupBody,
      response: { 201: t.Object({ data: ToolCheckRef }), ...errorResponses, 429: 'Error' },
      detail: detail(
        'Run a domain lookup',
        `Tools: dns, mx, spf, dkim (with \`selectors\`), dmarc, ssl (host[:port]; the connection goes through the monitors' address guard, private and reserved addresses are refused), dnsbl. DNS questions go to the instance's own resolvers. ${LOOKUP_RULES}`,
      ),
    })
    .get(
      '/',
      async ({ owner }) => {
        const recent = await tools.recent(owner)
        return { data: recent.items.map(toolCheckJson), meta: { count: recent.items.length, limit: recent.limit, cap: recent.cap } }
      },
      {
        response: { 200: t.Object({ data: t.Array(ToolCheckRef), meta: RecentMeta }), ...errorResponses },
        detail: detail('Your recent lookups, newest first', LOOKUP_RULES),
      },
    )
    .get('/:id', async ({ owner, params }) => ({ data: toolCheckJson(await tools.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: t.Object({ data: ToolCheckRef }), ...errorResponses },
      detail: detail('One of your recent lookups'),
    })
}
