/**
 * The five display statuses of Lantern and their words (pure): one union for a component and for
 * a whole page, one label table per surface (the page's rows and banner, the Statuspage-shaped API).
 */
import type { ComponentStatus } from '../components/tables.ts'
import type { IncidentImpact } from '../incidents/tables.ts'

export const DISPLAY_STATUSES = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'] as const
export type DisplayStatus = (typeof DISPLAY_STATUSES)[number]

export const STATUS_LABELS: Readonly<Record<DisplayStatus, string>> = {
  operational: 'Operational',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  under_maintenance: 'Under maintenance',
}

export const OVERALL_LABELS: Readonly<Record<DisplayStatus, string>> = {
  operational: 'All systems operational',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  under_maintenance: 'Under maintenance',
}

/** Atlassian Statuspage's `status.indicator` and `status.description`. */
export const STATUSPAGE_INDICATORS: Readonly<Record<DisplayStatus, { indicator: string; description: string }>> = {
  operational: { indicator: 'none', description: 'All Systems Operational' },
  degraded_performance: { indicator: 'minor', description: 'Minor Service Outage' },
  partial_outage: { indicator: 'major', description: 'Partial System Outage' },
  major_outage: { indicator: 'critical', description: 'Major Service Outage' },
  under_maintenance: { indicator: 'maintenance', description: 'Service Under Maintenance' },
}

const SEVERITY: Readonly<Record<DisplayStatus, number>> = {
  operational: 0,
  under_maintenance: 1,
  degraded_performance: 2,
  partial_outage: 3,
  major_outage: 4,
}

/**
 * The one mapping from a stored status to what every surface shows: down → major outage, partial →
 * partial outage (both outages: a maintenance window does not hide them), degraded → degraded
 * performance (under maintenance inside a window), up → operational (likewise).
 */
export function componentDisplayStatus(status: ComponentStatus, inMaintenance: boolean): DisplayStatus {
  if (status === 'down') return 'major_outage'
  if (status === 'partial') return 'partial_outage'
  if (inMaintenance) return 'under_maintenance'
  return status === 'degraded' ? 'degraded_performance' : 'operational'
}

export const worstOf = (statuses: readonly DisplayStatus[]): DisplayStatus =>
  statuses.reduce<DisplayStatus>((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst), 'operational')

export const INCIDENT_IMPACTS: readonly IncidentImpact[] = ['none', 'minor', 'major', 'critical']

export const IMPACT_LABELS: Readonly<Record<IncidentImpact, string>> = { none: 'None', minor: 'Minor', major: 'Major', critical: 'Critical' }

/**
 * An incident's Statuspage impact: the one its owner chose, else from the worst status of what it
 * affects (the whole page when it names no component): major outage → critical, partial outage →
 * major, anything else → minor (an incident is news even when nothing shows it).
 */
export function incidentImpact(statuses: readonly DisplayStatus[], chosen: IncidentImpact | null = null): IncidentImpact {
  if (chosen !== null) return chosen
  const worst = worstOf(statuses)
  return worst === 'major_outage' ? 'critical' : worst === 'partial_outage' ? 'major' : 'minor'
}
