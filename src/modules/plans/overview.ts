/**
 * What a plan allows, for people (the plan screen and GET /user/api/v1/plan): each feature of the
 * matrix with whether the plan has it and, when not, the cheapest plan that does; and the usage of
 * the things an account holds against the plan's limit for them.
 *
 * Lantern's plans limit features, not amounts: no plan caps pages, components or keys today
 * (DESIGN §4), so every limit below is null ("no limit"). A counted limit added to the matrix
 * appears here as `limit` and the screen draws it as a "3 / 5" bar.
 */
import { lowestPlanWith, planHas, planLabel, type Feature, type Plan } from './matrix.ts'

const FEATURE_LABELS = {
  badge_widget: 'SVG status badge and live widget',
  markdown_snippets: 'Markdown status snippets (/api/embed/markdown)',
  status_json_details: 'Status JSON with sparklines and incidents',
  custom_domain_private: 'Custom domain and private pages',
  custom_css: 'Custom CSS and favicon',
  analytics_share_tokens: 'Share links for analytics',
  ssl_chain_details: 'SSL monitors: certificate chain and OCSP stapling details',
} as const satisfies Record<Feature, string>

export interface FeatureLine {
  feature: Feature
  label: string
  included: boolean
  /** The cheapest plan with the feature, when this plan lacks it. */
  availableFrom: Plan | null
}

export function planFeatures(plan: Plan): FeatureLine[] {
  return (Object.keys(FEATURE_LABELS) as Feature[]).map((feature) => {
    const included = planHas(plan, feature)
    return { feature, label: FEATURE_LABELS[feature], included, availableFrom: included ? null : lowestPlanWith(feature) }
  })
}

export type UsageKey = 'pages' | 'components' | 'components_per_page' | 'api_keys'

export interface UsageLine {
  key: UsageKey
  label: string
  used: number
  /** The plan's cap, or null for none. */
  limit: number | null
}

const USAGE_LABELS: Record<UsageKey, string> = {
  pages: 'Status pages',
  components: 'Components (all pages)',
  components_per_page: 'Components on your fullest page',
  api_keys: 'Active API keys',
}

/** Counted limits per plan (none today: see the top of this file). */
const PLAN_LIMITS: Readonly<Record<Plan, Partial<Record<UsageKey, number>>>> = {
  free: {},
  pro: {},
  growth: {},
  business: {},
  oss_hero: {},
  enterprise: {},
}

export function planUsage(plan: Plan, used: Record<UsageKey, number>, limits = PLAN_LIMITS[plan]): UsageLine[] {
  return (Object.keys(USAGE_LABELS) as UsageKey[]).map((key) => ({ key, label: USAGE_LABELS[key], used: used[key], limit: limits[key] ?? null }))
}

export { planLabel }
