/** GET /user/plan: the plan and usage screen (views/plan.ts), on the data GET /user/api/v1/plan answers. */
import { Elysia, t } from 'elysia'
import { usageCounts } from '../../modules/accounts/plan-routes.ts'
import { planFeatures, planUsage } from '../../modules/plans/overview.ts'
import { screens } from '../kit/guard.ts'
import { ACCOUNT_HEAD } from '../views/account.ts'
import { planView } from '../views/plan.ts'
import type { ScreenDeps } from './deps.ts'

export function planScreens(deps: ScreenDeps<'accounts'>) {
  const accounts = deps.services.accounts
  const screen = screens({ accounts, config: deps.config })
  return new Elysia().get(
    '/user/plan',
    screen(async ({ user, render }) => {
      const usage = planUsage(user.plan, usageCounts(await accounts.usage(user.id)))
      return render({ title: 'Plan and usage', head: ACCOUNT_HEAD }, planView(user.plan, planFeatures(user.plan), usage))
    }),
    { response: { 200: t.String({ description: 'An HTML page' }) }, detail: { tags: ['User area'], summary: 'Plan and usage' } },
  )
}
