/** Incident states, in their usual order, and the numeric ids hosted status services use for them. */
import { badRequest } from '../../lib/errors.ts'
import type { IncidentState } from './tables.ts'

export const INCIDENT_STATES: readonly IncidentState[] = ['investigating', 'identified', 'monitoring', 'resolved']

/** The states as people read them (pages, mails, chat messages). */
export const INCIDENT_STATE_LABELS: Readonly<Record<IncidentState, string>> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
}

/** The label of a stored state (unknown words are shown as they are). */
export const incidentStateLabel = (state: string): string => INCIDENT_STATE_LABELS[state as IncidentState] ?? state

/** `incident_state_id` "1".."4" (scripts written for hosted services send these). */
const INCIDENT_STATE_IDS: Readonly<Record<string, IncidentState>> = {
  '1': 'investigating',
  '2': 'identified',
  '3': 'monitoring',
  '4': 'resolved',
}

export function incidentStateId(state: IncidentState): string {
  return String(INCIDENT_STATES.indexOf(state) + 1)
}

function isIncidentState(value: string): value is IncidentState {
  return (INCIDENT_STATES as readonly string[]).includes(value)
}

/**
 * The state a request asks for, from `state` (a name) and/or `incident_state_id` ("1".."4" or the
 * number); undefined when neither is given. Both given and disagreeing is a 400.
 */
export function parseRequestedState(input: { state?: string; incident_state_id?: string | number }): IncidentState | undefined {
  let byName: IncidentState | undefined
  if (input.state !== undefined) {
    if (!isIncidentState(input.state)) throw badRequest(`state must be one of ${INCIDENT_STATES.join(', ')}`)
    byName = input.state
  }
  let byId: IncidentState | undefined
  if (input.incident_state_id !== undefined) {
    byId = INCIDENT_STATE_IDS[String(input.incident_state_id).trim()]
    if (!byId) throw badRequest('incident_state_id must be "1" (investigating), "2" (identified), "3" (monitoring) or "4" (resolved)')
  }
  if (byName && byId && byName !== byId) throw badRequest('state and incident_state_id disagree')
  return byName ?? byId
}
