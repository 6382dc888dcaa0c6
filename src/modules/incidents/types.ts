/**
 * What an incident, its updates and an incident template are, and the limits on their fields, read by
 * both the request schemas (model.ts) and the service.
 */
import type { IncidentImpact, IncidentState } from './tables.ts'

export const MAX_MESSAGE = 10_000
export const MAX_TEMPLATE_NAME = 100
export const MAX_TITLE = 200
/** A postmortem is longer than an update. */
export const MAX_POSTMORTEM = 50_000

export interface Incident {
  id: number
  pageId: number
  title: string
  state: IncidentState
  startedAt: number
  resolvedAt: number | null
  /** Affected components; empty means the whole page. */
  components: Array<{ id: number; name: string }>
  /** The impact: the owner's choice, else derived from the worst status of what it affects now. */
  impact: IncidentImpact
  /** What the owner chose; null: derived. */
  impactChosen: IncidentImpact | null
  /** The timeline, oldest first. */
  updates: IncidentUpdate[]
  createdAt: number
  updatedAt: number
  /** Set when the automation opened it (src/modules/auto-incidents); null for a person's incident. */
  automatic: AutomaticInfo | null
  /** The postmortem (Markdown); public reads carry it only once published. */
  postmortem: Postmortem | null
}

export interface Postmortem {
  body: string
  updatedAt: number
  /** null: a draft. */
  publishedAt: number | null
}

export interface IncidentTemplate {
  id: number
  name: string
  title: string
  message: string
  createdAt: number
  updatedAt: number
}

export interface IncidentUpdate {
  id: number
  state: IncidentState
  message: string
  at: number
}

export interface AutomaticInfo {
  /** The component it watches (null once that component was deleted). */
  componentId: number | null
  /** When a person first changed it: from then on it is theirs, and recoveries only add an update. */
  acknowledgedAt: number | null
  /** The automation resolved it. */
  autoResolved: boolean
  /** Since when the component has been down. */
  downSince: number | null
}
