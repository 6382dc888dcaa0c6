/**
 * Public error budgets (pure): what a page shows of a component's SLA budget when its owner chose
 * to show it — the running period's allowance and what is left of it, in words and in seconds.
 */
import { formatLength } from '../../lib/human-time.ts'
import type { SlaPeriod } from './tables.ts'

export interface PublicBudget {
  componentId: number
  period: SlaPeriod
  /** Parts per million: 999000 = 99.9 %. */
  targetPpm: number
  periodStart: number
  periodEnd: number
  /** The whole period's allowance (less excluded maintenance and time before the first status). */
  allowedMs: number
  usedMs: number
  /** Negative once the budget is spent. */
  leftMs: number
}

/** Reads the public budgets of a page (the SLA service; status pages and the status JSON ask it). */
export type PublicBudgetReader = (pageId: number) => Promise<PublicBudget[]>

const PERIOD_WORDS: Record<SlaPeriod, string> = { month: 'this month', quarter: 'this quarter', year: 'this year' }

/** "43 min of 43 min 12 s left this month", "Over by 5 min this month": leftover rounded down to the second. */
export function budgetPhrase(budget: Pick<PublicBudget, 'period' | 'allowedMs' | 'leftMs'>): string {
  const when = PERIOD_WORDS[budget.period]
  if (budget.leftMs < 0) return `Error budget spent: over by ${formatLength(-budget.leftMs)} ${when}`
  return `${formatLength(Math.floor(budget.leftMs / 1000) * 1000)} of ${formatLength(budget.allowedMs)} error budget left ${when}`
}

/** The share of the budget left, 0–100 (0 once spent), for a bar. */
export function budgetLeftPercent(budget: Pick<PublicBudget, 'allowedMs' | 'leftMs'>): number {
  if (budget.allowedMs <= 0) return 0
  return Math.max(0, Math.min(100, Math.floor((budget.leftMs / budget.allowedMs) * 100)))
}
