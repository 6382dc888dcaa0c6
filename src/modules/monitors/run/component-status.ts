/**
 * A monitored component's status: the worst confirmed state of its enabled monitors (pending
 * and misconfigured monitors have no say: they measured nothing). down → down (shown as major outage), degraded → degraded
 * (degraded performance), up → up. Pure.
 */
import type { ComponentStatus } from '../../components/tables.ts'

// Monitors never give partial: only people set a partial outage.
const RANK: Record<'up' | 'degraded' | 'down', number> = { up: 0, degraded: 1, down: 2 }

/** null when no monitor has a confirmed state: the component keeps the status it has. */
export function componentStatusFromMonitors(states: readonly string[]): ComponentStatus | null {
  let worst: 'up' | 'degraded' | 'down' | null = null
  for (const state of states) {
    if (state !== 'up' && state !== 'degraded' && state !== 'down') continue
    if (worst === null || RANK[state] > RANK[worst]) worst = state
  }
  return worst
}
