/**
 * The overall status of a page as one pure function.
 *
 * - Worst component wins: any component down → `partial_outage`, or `major_outage` when every
 *   component is down; else any component in partial outage → `partial_outage`; else any degraded
 *   → `degraded_performance`; else `operational`.
 * - An open (unresolved) incident shows at least `degraded_performance`, also during a maintenance:
 *   an incident is news that planned work does not explain. Incidents never improve anything.
 * - Otherwise an active maintenance shows `under_maintenance`, also over degraded components
 *   (the work explains them), but never over a component that is down or in partial outage.
 *
 * The banner of the public page, the status JSON, the badge and the v2 (Statuspage) JSON all take
 * their status from this function.
 * - A page without components is `operational` (unless an incident or a maintenance says otherwise).
 */
import type { ComponentStatus } from '../components/tables.ts'
import type { DisplayStatus } from './status.ts'

/** A page's overall status is one of the five display statuses. */
export type OverallStatus = DisplayStatus

export interface OverallInput {
  components: ReadonlyArray<{ status: ComponentStatus }>
  /** Unresolved incidents of the page. */
  activeIncidents: number
  /** Maintenance windows of the page in progress now. */
  activeMaintenances: number
}

export function overallStatus(input: OverallInput): OverallStatus {
  const total = input.components.length
  const down = input.components.filter((c) => c.status === 'down').length
  if (down > 0) return down === total ? 'major_outage' : 'partial_outage'
  if (input.components.some((c) => c.status === 'partial')) return 'partial_outage'
  if (input.activeIncidents > 0) return 'degraded_performance'
  if (input.activeMaintenances > 0) return 'under_maintenance'
  if (input.components.some((c) => c.status === 'degraded')) return 'degraded_performance'
  return 'operational'
}
