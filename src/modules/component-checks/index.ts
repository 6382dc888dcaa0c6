import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { CheckBatchBody } from './model.ts'
import { MAX_CHECKS_PER_BATCH, type ChecksService } from './service.ts'

export function checksRoutes(deps: { accounts: AccountsService; checks: ChecksService }) {
  return new Elysia({ prefix: '/user/api/v1' }).model(sharedModels).use(ownerAuth(deps.accounts)).post(
    '/components/:id/checks',
    async ({ owner, params, body, status }) => status(201, { data: await deps.checks.ingest(owner, params.id, body) }),
    {
      params: IdParams,
      body: CheckBatchBody,
      response: { 201: t.Object({ data: t.Object({ accepted: t.Integer() }) }), ...errorResponses },
      detail: {
        tags: ['Checks'],
        summary: 'Report check results for a component',
        description: `Body: \`[{"at": "2026-01-01T10:00:00Z", "ok": true, "response_ms": 123}, …]\` (1–${MAX_CHECKS_PER_BATCH} entries; \`response_ms\` optional or null). All entries are validated first and stored in one transaction. Results feed response-time sparklines and daily figures; they do not change the component's status.`,
        security: apiKeySecurity,
      },
    },
  )
}
