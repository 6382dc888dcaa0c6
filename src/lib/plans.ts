/** The plan names: configuration reads them; what each plan holds is src/modules/plans/matrix.ts. */
export const PLANS = ['free', 'pro', 'growth', 'business', 'oss_hero', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value)
}
