/**
 * What a plan allows, for people (the plan screen and GET /user/api/v1/plan): each feature of the
 * matrix with whether the plan has it and, when not, the cheapest plan that does; and the usage of
 * the things an account holds against the plan's limit for them.
 *
 * Lantern's plans mostly limit features, not amounts: no plan caps pages, components or keys today,
 * so those limits are null ("no limit"). The amounts the matrix does cap — components
 * with automatic incidents, subscribers per page — come from matrix.ts, the same functions the
 * features enforce; the screen draws a capped line as a "3 / 5" bar.
 */
import { autoIncidentLimit, lowestPlanWith, planHas, planLabel, subscriberLimit, type Feature, type Plan } from './matrix.ts'

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

export type UsageKey = 'pages' | 'components' | 'components_per_page' | 'api_keys' | 'auto_incident_components' | 'subscribers_per_page'

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
  auto_incident_components: 'Components with automatic incidents',
  subscribers_per_page: 'Subscribers on your fullest page',
}

/** Counted limits of a plan, from the matrix (a key left out: no limit). */
export function planLimits(plan: Plan): Partial<Record<UsageKey, number>> {
  const limits: Partial<Record<UsageKey, number>> = {}
  const auto = autoIncidentLimit(plan)
  if (auto !== null) limits.auto_incident_components = auto
  const subscribers = subscriberLimit(plan)
  if (subscribers !== null) limits.subscribers_per_page = subscribers
  return limits
}

export function planUsage(plan: Plan, used: Record<UsageKey, number>, limits = planLimits(plan)): UsageLine[] {
  return (Object.keys(USAGE_LABELS) as UsageKey[]).map((key) => ({ key, label: USAGE_LABELS[key], used: used[key], limit: limits[key] ?? null }))
}

export { planLabel }
