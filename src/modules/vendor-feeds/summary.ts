/**
 * A third party's Statuspage-v2 summary (`/api/v2/summary.json`), read as data (pure): the page's
 * indicator, its components and its unresolved incidents, checked field by field. Anything that is
 * not that shape is refused with the reason, so a dead or foreign feed is "unknown", never an
 * outage of ours.
 */
import type { ComponentStatus } from '../components/tables.ts'

export interface VendorIncident {
  name: string
  status: string
  impact: string
  url: string | null
}

export interface VendorSummary {
  pageName: string
  /** none, minor, major, critical or maintenance. */
  indicator: string
  components: Array<{ id: string; name: string; status: string }>
  /** Unresolved incidents, as listed. */
  incidents: VendorIncident[]
}

/** At most this many incidents are kept per feed (titles shown on the page). */
export const MAX_VENDOR_INCIDENTS = 10
const MAX_TEXT = 300

const VENDOR_STATUS: Record<string, ComponentStatus> = {
  operational: 'up',
  degraded_performance: 'degraded',
  partial_outage: 'partial',
  major_outage: 'down',
  // The vendor's planned work is not an outage of ours.
  under_maintenance: 'up',
}

const INDICATOR_STATUS: Record<string, ComponentStatus> = { none: 'up', maintenance: 'up', minor: 'degraded', major: 'partial', critical: 'down' }

export type SummaryRead = { ok: true; summary: VendorSummary } | { ok: false; reason: string }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : undefined)

export function readSummary(body: unknown): SummaryRead {
  if (!isObject(body)) return { ok: false, reason: 'the answer is not a JSON object' }
  const page = body.page
  const status = body.status
  if (!isObject(page) || text(page.name) === undefined) return { ok: false, reason: 'no page.name: not a Statuspage v2 summary' }
  if (!isObject(status) || text(status.indicator) === undefined) return { ok: false, reason: 'no status.indicator: not a Statuspage v2 summary' }
  if (!Array.isArray(body.components)) return { ok: false, reason: 'no components list: not a Statuspage v2 summary' }
  const components: VendorSummary['components'] = []
  for (const item of body.components) {
    if (!isObject(item)) continue
    const id = text(item.id)
    const name = text(item.name)
    const state = text(item.status)
    if (id !== undefined && name !== undefined && state !== undefined) components.push({ id, name, status: state })
  }
  const incidents: VendorIncident[] = []
  for (const item of Array.isArray(body.incidents) ? body.incidents : []) {
    if (!isObject(item) || incidents.length >= MAX_VENDOR_INCIDENTS) continue
    const name = text(item.name)
    if (name === undefined || item.status === 'resolved' || item.status === 'postmortem') continue
    const link = text(item.shortlink)
    incidents.push({ name, status: text(item.status) ?? 'investigating', impact: text(item.impact) ?? 'none', url: link !== undefined && /^https?:\/\//.test(link) ? link : null })
  }
  return { ok: true, summary: { pageName: text(page.name)!, indicator: text(status.indicator)!, components, incidents } }
}

/**
 * Our component's status from the summary: the named vendor component's (by id, or by name
 * ignoring case), else the page's indicator. Undefined with the reason when the component is not
 * in the feed or its status is not one Statuspage uses.
 */
export function statusFromSummary(summary: VendorSummary, vendorComponent: string | null): { status: ComponentStatus } | { reason: string } {
  if (vendorComponent === null) {
    const status = INDICATOR_STATUS[summary.indicator]
    return status ? { status } : { reason: `unknown indicator "${summary.indicator}"` }
  }
  const wanted = vendorComponent.toLowerCase()
  const match = summary.components.find((c) => c.id === vendorComponent) ?? summary.components.find((c) => c.name.toLowerCase() === wanted)
  if (!match) return { reason: `the feed has no component "${vendorComponent}"` }
  const status = VENDOR_STATUS[match.status]
  return status ? { status } : { reason: `unknown component status "${match.status}"` }
}
