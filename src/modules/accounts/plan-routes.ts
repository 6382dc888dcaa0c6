/** GET /user/api/v1/plan: the caller's plan, what it allows and the account's usage (as /user/plan shows it). */
import { Elysia, t, type Static } from 'elysia'
import { errorResponses, modelRef, namedModels, sharedModels } from '../../http/schemas.ts'
import { planFeatures, planLabel, planUsage, type UsageKey } from '../plans/overview.ts'
import type { Plan } from '../plans/matrix.ts'
import { apiKeySecurity, ownerAuth } from './auth.ts'
import type { AccountUsage, AccountsService } from './service.ts'

const PlanJson = t.Object({
  plan: t.String({ description: 'The plan id (free, pro, growth, business, oss_hero, enterprise)' }),
  label: t.String(),
  features: t.Array(
    t.Object({
      feature: t.String(),
      label: t.String(),
      included: t.Boolean(),
      available_from: t.Nullable(t.String({ description: 'The cheapest plan with the feature, when this plan lacks it' })),
    }),
  ),
  usage: t.Array(
    t.Object({
      key: t.String(),
      label: t.String(),
      used: t.Integer(),
      limit: t.Nullable(t.Integer({ description: 'The plan\'s cap; null for no limit' })),
    }),
  ),
})

const planModels = namedModels({ PlanOverview: PlanJson })
const PlanRef = modelRef(planModels, 'PlanOverview')

export const usageCounts = (usage: AccountUsage): Record<UsageKey, number> => ({
  pages: usage.pages,
  components: usage.components,
  components_per_page: usage.mostComponentsOnOnePage,
  api_keys: usage.activeApiKeys,
  auto_incident_components: usage.autoIncidentComponents,
  subscribers_per_page: usage.mostSubscribersOnOnePage,
})

export function planJson(plan: Plan, usage: AccountUsage): Static<typeof PlanJson> {
  return {
    plan,
    label: planLabel(plan),
    features: planFeatures(plan).map((line) => ({ feature: line.feature, label: line.label, included: line.included, available_from: line.availableFrom })),
    usage: planUsage(plan, usageCounts(usage)),
  }
}

export function planRoutes(deps: { accounts: AccountsService }) {
  const { accounts } = deps
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(planModels)
    .use(ownerAuth(accounts))
    .get('/plan', async ({ owner }) => ({ data: planJson(owner.plan, await accounts.usage(owner.id)) }), {
      response: { 200: t.Object({ data: PlanRef }), ...errorResponses },
      detail: {
        tags: ['Plan'],
        summary: 'Your plan and usage',
        description: 'The features of your plan (with the cheapest plan that has each one you lack) and what the account holds against the plan\'s limits (`limit: null` = no limit).',
        security: apiKeySecurity,
      },
    })
}
