/** `GET /user/api/v1/monitors/:id/email-auth`: the last answered report of an email-auth monitor. */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { toIso } from '../../lib/time.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { emailAuthReportJson } from './json.ts'
import { EmailAuthMonitorReportJson } from './schemas.ts'
import type { EmailAuthService } from './service.ts'

export function emailAuthRoutes(deps: { accounts: AccountsService; emailAuth: EmailAuthService }) {
  return new Elysia({ prefix: '/user/api/v1/monitors' })
    .model(sharedModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/:id/email-auth',
      async ({ owner, params }) => {
        const stored = await deps.emailAuth.lastReport(owner, params.id)
        return {
          data: stored && { report: emailAuthReportJson(stored.report), summary: stored.summary, checked_at: toIso(stored.checkedAt), changed_at: toIso(stored.changedAt) },
        }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Nullable(EmailAuthMonitorReportJson) }), ...errorResponses },
        detail: {
          tags: ['Monitors'],
          summary: 'The last report of an email_auth monitor',
          description:
            'SPF, DKIM and DMARC, each pass / warning / fail / missing with the reason (error: the DNS did not answer after two retries). `data` is null until a run answered. A change of the summary emits `email_auth.changed` to the owner’s channels.',
          security: apiKeySecurity,
        },
      },
    )
}
