/**
 * The plan matrix as data: every plan check in Lantern reads from here.
 */
import { PLANS, type Plan } from '../../lib/plans.ts'

export { isPlan, PLANS, type Plan } from '../../lib/plans.ts'

const FEATURES = [
  'badge_widget',
  'markdown_snippets',
  'status_json_details',
  'custom_domain_private',
  'custom_css',
  'analytics_share_tokens',
  /** SSL monitors: the certificate chain and OCSP stapling details (every paid plan). */
  'ssl_chain_details',
] as const
export type Feature = (typeof FEATURES)[number]

interface PlanRow {
  features: ReadonlySet<Feature>
}

const all = (...features: Feature[]): ReadonlySet<Feature> => new Set(features)
const growthAndUp = all(...FEATURES)

const MATRIX: Readonly<Record<Plan, PlanRow>> = {
  free: { features: all() },
  pro: { features: all('badge_widget', 'custom_domain_private', 'analytics_share_tokens', 'ssl_chain_details') },
  growth: { features: growthAndUp },
  business: { features: growthAndUp },
  oss_hero: { features: growthAndUp },
  enterprise: { features: growthAndUp },
}

export function planHas(plan: Plan, feature: Feature): boolean {
  return MATRIX[plan].features.has(feature)
}

/** The cheapest plan that has `feature`, for error messages ("requires Growth plan or higher"). */
export function lowestPlanWith(feature: Feature): Plan {
  const plan = PLANS.find((candidate) => planHas(candidate, feature))
  if (!plan) throw new Error(`no plan has ${feature}`)
  return plan
}

const PLAN_LABELS: Readonly<Record<Plan, string>> = {
  free: 'Free',
  pro: 'Pro',
  growth: 'Growth',
  business: 'Business',
  oss_hero: 'OSS Hero',
  enterprise: 'Enterprise',
}

export function planLabel(plan: Plan): string {
  return PLAN_LABELS[plan]
}

/** Monitors per plan: how many an owner may have (null: no limit) and the shortest interval. */
export interface MonitorLimits {
  maxMonitors: number | null
  minIntervalSeconds: number
}

// 10 s (the engine's floor, MIN_INTERVAL_SECONDS) only from Business up; the scheduler's caps are the same for every plan.
const MONITOR_LIMITS: Readonly<Record<Plan, MonitorLimits>> = {
  free: { maxMonitors: 5, minIntervalSeconds: 300 },
  pro: { maxMonitors: 50, minIntervalSeconds: 30 },
  growth: { maxMonitors: 100, minIntervalSeconds: 30 },
  business: { maxMonitors: null, minIntervalSeconds: 10 },
  oss_hero: { maxMonitors: null, minIntervalSeconds: 10 },
  enterprise: { maxMonitors: null, minIntervalSeconds: 10 },
}

export function monitorLimits(plan: Plan): MonitorLimits {
  return MONITOR_LIMITS[plan]
}

/** Components with automatic incidents on, per plan (the `auto_incidents` feature); null: no limit. */
const AUTO_INCIDENT_COMPONENTS: Readonly<Record<Plan, number | null>> = {
  free: 0,
  pro: 5,
  growth: 20,
  business: null,
  oss_hero: null,
  enterprise: null,
}

export function autoIncidentLimit(plan: Plan): number | null {
  return AUTO_INCIDENT_COMPONENTS[plan]
}

/** Active subscribers (email and webhook, pending ones included) a page may have; null: no limit. */
const SUBSCRIBER_LIMITS: Readonly<Record<Plan, number | null>> = {
  free: 100,
  pro: 1_000,
  growth: 10_000,
  business: null,
  oss_hero: null,
  enterprise: null,
}

export function subscriberLimit(plan: Plan): number | null {
  return SUBSCRIBER_LIMITS[plan]
}
