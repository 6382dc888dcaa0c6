/**
 * What the automation does when a monitored component's confirmed state changes: a pure decision
 * over the facts the engine gathers (automation.ts). No clock, no SQL.
 *
 *   down  → open "<Component> is experiencing issues" (Investigating), unless one is open, or a
 *           maintenance of the component is under way, or a person's open incident covers it, or a
 *           monitor of it is flapping; an automatic incident the automation resolved less than
 *           REOPEN_WINDOW_MS ago is reopened instead (the same incident: no second mail burst).
 *   up    → the open automatic incident resolves (Auto Resolve on, nobody took it over), or gets a
 *           "recovered" update and stays open for the person (taken over, or Auto Resolve off).
 *   degraded → nothing: only down opens, only up resolves.
 */
import { formatDateTime, formatLength } from '../../lib/human-time.ts'
import type { ComponentStatus } from '../components/tables.ts'

/** A failure within this time after an automatic resolve reopens the same incident (documented in monitors.md). */
export const REOPEN_WINDOW_MS = 10 * 60_000

export interface AutomationFacts {
  status: ComponentStatus
  now: number
  /** The page has Auto Incidents on, the component is opted in and within the plan's limit. */
  active: boolean
  autoResolve: boolean
  /** The newest automatic incident of the component, if any. */
  latest: { id: number; open: boolean; acknowledged: boolean; autoResolved: boolean; resolvedAt: number | null; downSince: number | null } | null
  maintenance: boolean
  personIncident: boolean
  flapping: boolean
}

export type SuppressedBy = 'maintenance' | 'person_incident' | 'flapping'

export type Decision =
  | { action: 'none'; suppressedBy?: SuppressedBy }
  | { action: 'open' }
  | { action: 'reopen'; incidentId: number }
  | { action: 'resolve'; incidentId: number; downSince: number | null }
  | { action: 'note_recovery'; incidentId: number; downSince: number | null }

export function decide(facts: AutomationFacts): Decision {
  if (!facts.active) return { action: 'none' }
  const latest = facts.latest
  if (facts.status === 'down') {
    if (latest?.open) return { action: 'none' }
    const suppressedBy = suppression(facts)
    if (suppressedBy) return { action: 'none', suppressedBy }
    if (latest && latest.autoResolved && latest.resolvedAt !== null && facts.now - latest.resolvedAt <= REOPEN_WINDOW_MS) {
      return { action: 'reopen', incidentId: latest.id }
    }
    return { action: 'open' }
  }
  if (facts.status === 'up' && latest?.open) {
    if (facts.autoResolve && !latest.acknowledged) return { action: 'resolve', incidentId: latest.id, downSince: latest.downSince }
    return { action: 'note_recovery', incidentId: latest.id, downSince: latest.downSince }
  }
  return { action: 'none' }
}

function suppression(facts: AutomationFacts): SuppressedBy | undefined {
  if (facts.maintenance) return 'maintenance'
  if (facts.personIncident) return 'person_incident'
  if (facts.flapping) return 'flapping'
  return undefined
}

/** An outage's length for people: "43 min 12 s", "2 h 5 min", "3 d 4 h". */
export const formatDuration = formatLength

export const incidentTitle = (component: string): string => `${component} is experiencing issues`

export const openingMessage = (component: string): string =>
  `Our monitoring confirmed that ${component} is down. This incident was opened automatically; we are looking into it.`

export const reopeningMessage = (component: string, resolvedAt: number): string =>
  `${component} is failing again, shortly after it recovered at ${formatDateTime(resolvedAt)}. We are investigating.`

/** The recovery entry; its state (Resolved, or unchanged) is shown beside it, so the text does not name it. */
export function recoveryMessage(component: string, now: number, downSince: number | null, resolving: boolean): string {
  const length = downSince === null ? '' : ` after ${formatDuration(now - downSince)}`
  const recovered = `${component} recovered at ${formatDateTime(now)}${length}.`
  return resolving ? recovered : `${recovered} The incident stays open until a person resolves it.`
}
