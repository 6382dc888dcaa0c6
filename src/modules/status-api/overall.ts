/**
 * The overall status of a page (DESIGN §5.2) as one pure function.
 *
 * - Worst component wins: any component down → `partial_outage`, or `major_outage` when every
 *   component is down; else any degraded → `degraded_performance`; else `operational`.
 * - An active maintenance shows `under_maintenance` unless something is down (an outage is news
 *   even during maintenance).
 * - Active (unresolved) incidents can only make it worse: an otherwise operational page with an
 *   active incident shows `degraded_performance`; they never improve anything.
 * - A page without components is `operational` (unless an incident or a maintenance says otherwise).
 */
export const OVERALL_STATUSES = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'] as const
export type OverallStatus = (typeof OVERALL_STATUSES)[number]

export interface OverallInput {
  components: ReadonlyArray<{ status: 'up' | 'degraded' | 'down' }>
  /** Unresolved incidents of the page. */
  activeIncidents: number
  /** Maintenance windows of the page in progress now. */
  activeMaintenances: number
}

export function overallStatus(input: OverallInput): OverallStatus {
  const total = input.components.length
  const down = input.components.filter((c) => c.status === 'down').length
  if (down > 0) return down === total ? 'major_outage' : 'partial_outage'
  if (input.activeMaintenances > 0) return 'under_maintenance'
  if (input.components.some((c) => c.status === 'degraded')) return 'degraded_performance'
  if (input.activeIncidents > 0) return 'degraded_performance'
  return 'operational'
}
