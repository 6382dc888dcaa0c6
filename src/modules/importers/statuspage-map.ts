/**
 * A Statuspage page (statuspage-read.ts) → an import plan (pure). The rules:
 * - The page becomes one Lantern page: its name, subdomain as slug, custom domain. Its other
 *   settings (headline, links, colours, logos…) have no place in Lantern and are listed.
 * - Components keep their group (Lantern's group name) and order: top-level entries by position,
 *   a group's members by theirs. Their status history is rebuilt from the incident updates'
 *   `affected_components` (old → new status at each update), then the status they have now.
 * - Incidents keep their updates (oldest first, Markdown as written), affected components, impact
 *   and times; `postmortem` counts as resolved, and the postmortem body comes along, published
 *   where the source published it. Scheduled maintenance (`scheduled_for` set) becomes a window.
 * - Email subscribers come with their components; the API lists only confirmed ones. SMS, webhook
 *   (Statuspage's payload is not Lantern's), Slack app and quarantined subscribers are listed.
 * Keys are the Statuspage ids (`component:ID`, `incident:ID`, …), so a second run changes nothing.
 */
import type { ComponentStatus } from '../components/tables.ts'
import type { IncidentImpact, IncidentState } from '../incidents/tables.ts'
import type { StatuspageData } from './statuspage-read.ts'
import { MAINTENANCE_UPDATE_STATUSES, type MaintenanceUpdateStatus } from '../maintenances/types.ts'
import { MAX_PAGE_DESCRIPTION } from '../status-pages/types.ts'
import { MAX_COMPONENT_DESCRIPTION } from '../components/types.ts'
import { importedDescription, type ImportPlan, type PlannedComponent, type PlannedIncident, type PlannedMaintenance, type PlannedSubscriber, type ReportLine } from './types.ts'

type Obj = Record<string, unknown>
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER)

/** An ISO time of the API in epoch ms; null when absent or not a time. */
export function statuspageTime(v: unknown): number | null {
  const text = str(v)
  if (!text) return null
  const ms = Date.parse(text)
  return Number.isFinite(ms) ? ms : null
}

const COMPONENT_STATUS: Record<string, ComponentStatus> = {
  operational: 'up',
  degraded_performance: 'degraded',
  partial_outage: 'partial',
  major_outage: 'down',
  // Lantern shows maintenance through its windows, not as a component status.
  under_maintenance: 'up',
}

const INCIDENT_STATE: Record<string, IncidentState> = {
  investigating: 'investigating',
  identified: 'identified',
  monitoring: 'monitoring',
  resolved: 'resolved',
  postmortem: 'resolved',
}

const IMPACTS = new Set<IncidentImpact>(['none', 'minor', 'major', 'critical'])

/** Page fields with no counterpart in Lantern, by what they are called in the API. */
const PAGE_SETTINGS_LEFT = ['headline', 'url', 'support_url', 'twitter_username', 'notifications_from_email', 'notifications_email_footer', 'time_zone', 'city', 'country', 'ip_restrictions']

/** Statuspage's maintenance update statuses are Lantern's; any other status on a maintenance reads as in progress. */
const maintenanceUpdateStatus = (raw: unknown): MaintenanceUpdateStatus =>
  (MAINTENANCE_UPDATE_STATUSES as readonly unknown[]).includes(raw) ? (raw as MaintenanceUpdateStatus) : 'in_progress'

export function planFromStatuspage(data: StatuspageData): ImportPlan {
  const skipped: ReportLine[] = []
  const changed: ReportLine[] = []
  const page = data.page
  const pageName = str(page.name) ?? String(page.id)
  const pageKey = `page:${page.id}`

  const pageDescription = importedDescription(str(page.page_description), MAX_PAGE_DESCRIPTION)
  if (pageDescription.cut) changed.push({ kind: 'page', name: pageName, reason: `its description is cut to ${MAX_PAGE_DESCRIPTION} characters` })
  const pageLeft = PAGE_SETTINGS_LEFT.filter((k) => str(page[k]) !== null)
  if (Object.keys(page).some((k) => k.startsWith('css_') && str(page[k]))) pageLeft.push('css colours')
  for (const logo of ['favicon_logo', 'transactional_logo', 'hero_cover', 'email_logo', 'twitter_logo']) {
    const value = page[logo] as Obj | null | undefined
    if (value && (str(value.url) || str(value.original_url))) pageLeft.push(logo)
  }
  if (page.viewers_must_be_team_members === true) pageLeft.push('viewers_must_be_team_members (the page is imported public)')
  if (pageLeft.length > 0) skipped.push({ kind: 'page setting', name: pageName, reason: `not brought: ${pageLeft.join(', ')}` })

  // Groups: the group list, and the pseudo-components that stand for them.
  const groupNames = new Map<string, string>()
  const groupPosition = new Map<string, number>()
  for (const g of data.groups) {
    groupNames.set(String(g.id), String(g.name))
    groupPosition.set(String(g.id), num(g.position))
    if (str(g.description)) skipped.push({ kind: 'component group setting', name: String(g.name), reason: 'description not brought: Lantern groups are names' })
  }
  for (const c of data.components) {
    if (c.group !== true) continue
    if (!groupNames.has(String(c.id))) groupNames.set(String(c.id), String(c.name))
    if (!groupPosition.has(String(c.id))) groupPosition.set(String(c.id), num(c.position))
  }
  const members = data.components.filter((c) => c.group !== true)
  // Top-level entries (groups and ungrouped components) by position, then each group's members.
  const top: Array<{ position: number; items: Obj[] }> = []
  for (const [groupId, position] of groupPosition) {
    top.push({ position, items: members.filter((c) => c.group_id === groupId).sort((a, b) => num(a.position) - num(b.position)) })
  }
  for (const c of members) if (!c.group_id || !groupPosition.has(String(c.group_id))) top.push({ position: num(c.position), items: [c] })
  const ordered = top.sort((a, b) => a.position - b.position).flatMap((t) => t.items)
  const componentIds = new Set(ordered.map((c) => String(c.id)))

  // Status changes of each component, from the incident updates.
  const transitions = new Map<string, Array<{ at: number; from: ComponentStatus | null; to: ComponentStatus }>>()
  for (const incident of data.incidents) {
    for (const update of list(incident.incident_updates) as Obj[]) {
      const at = statuspageTime(update.display_at) ?? statuspageTime(update.created_at)
      if (at === null) continue
      for (const affected of list(update.affected_components) as Obj[]) {
        const code = str(affected?.code)
        const to = COMPONENT_STATUS[String(affected?.new_status)]
        if (!code || !to || !componentIds.has(code)) continue
        const from = COMPONENT_STATUS[String(affected.old_status)] ?? null
        if (!transitions.has(code)) transitions.set(code, [])
        transitions.get(code)!.push({ at, from, to })
      }
    }
  }

  const components: PlannedComponent[] = ordered.map((c, position) => {
    const name = String(c.name)
    const now = COMPONENT_STATUS[String(c.status)]
    if (!now) changed.push({ kind: 'component', name, reason: `status "${String(c.status)}" is unknown; imported as up` })
    if (c.status === 'under_maintenance') changed.push({ kind: 'component', name, reason: 'under maintenance in Statuspage; imported as up (Lantern shows maintenance by its windows)' })
    const description = importedDescription(str(c.description), MAX_COMPONENT_DESCRIPTION)
    if (description.cut) changed.push({ kind: 'component', name, reason: `its description is cut to ${MAX_COMPONENT_DESCRIPTION} characters` })
    const left: string[] = []
    if (c.only_show_if_degraded === true) left.push('only shown when degraded')
    if (c.showcase === false) left.push('uptime bar hidden (showcase off)')
    if (left.length > 0) skipped.push({ kind: 'component setting', name, reason: `not brought: ${left.join(', ')}` })
    const events = (transitions.get(String(c.id)) ?? []).sort((a, b) => a.at - b.at)
    const createdAt = statuspageTime(c.created_at)
    const history: PlannedComponent['history'] = []
    const push = (status: ComponentStatus, at: number) => {
      if (history.at(-1)?.status === status) return
      if (history.length > 0 && at < history.at(-1)!.at) return
      history.push({ status, at })
    }
    if (createdAt !== null) push(events[0]?.from ?? now ?? 'up', Math.min(createdAt, events[0]?.at ?? createdAt))
    for (const event of events) push(event.to, event.at)
    const updatedAt = statuspageTime(c.updated_at) ?? createdAt
    if (updatedAt !== null) push(now ?? 'up', Math.max(updatedAt, history.at(-1)?.at ?? updatedAt))
    const groupName = c.group_id ? groupNames.get(String(c.group_id)) ?? null : null
    return { key: `component:${c.id}`, pageKey, name, type: 'site', groupName, position, description: description.text, history }
  })

  const affected = (incident: Obj) =>
    [...new Set(list(incident.components).map((c) => String((c as Obj | null)?.id)).filter((id) => componentIds.has(id)))].map((id) => `component:${id}`)
  const updatesOf = (incident: Obj) =>
    (list(incident.incident_updates) as Obj[])
      .map((u) => ({ u, at: statuspageTime(u.display_at) ?? statuspageTime(u.created_at) ?? 0 }))
      .sort((a, b) => a.at - b.at)

  const incidents: PlannedIncident[] = []
  const maintenances: PlannedMaintenance[] = []
  for (const incident of data.incidents) {
    const title = String(incident.name)
    const createdAt = statuspageTime(incident.created_at) ?? 0
    if (statuspageTime(incident.scheduled_for) !== null) {
      const startAt = statuspageTime(incident.scheduled_for)!
      const endAt = statuspageTime(incident.scheduled_until) ?? startAt
      // The first update is the window's message; the later ones are its timeline, under the same statuses.
      const [first, ...later] = updatesOf(incident).filter(({ u }) => str(u.body) !== null)
      const updates = later.map(({ u, at }) => ({ status: maintenanceUpdateStatus(u.status), message: str(u.body)!, at }))
      if (str(incident.reminder_intervals)) skipped.push({ kind: 'scheduled maintenance setting', name: title, reason: `reminders ${String(incident.reminder_intervals)} hours before not brought` })
      maintenances.push({ key: `maintenance:${incident.id}`, pageKey, title, message: first ? str(first.u.body)! : '', startAt, endAt: Math.max(endAt, startAt), componentKeys: affected(incident), updates })
      continue
    }
    const state = INCIDENT_STATE[String(incident.status)] ?? 'investigating'
    const updates = updatesOf(incident).map(({ u, at }) => ({ state: INCIDENT_STATE[String(u.status)] ?? state, message: String(u.body ?? ''), at }))
    const resolvedAt = state === 'resolved' ? statuspageTime(incident.resolved_at) ?? updates.at(-1)?.at ?? createdAt : null
    const rawImpact = (str(incident.impact_override) ?? str(incident.impact)) as IncidentImpact | null
    const body = str(incident.postmortem_body)
    const publishedAt = statuspageTime(incident.postmortem_published_at)
    let postmortem: PlannedIncident['postmortem'] = null
    if (body && state === 'resolved') postmortem = { body, updatedAt: statuspageTime(incident.postmortem_body_last_updated_at) ?? publishedAt ?? resolvedAt ?? createdAt, publishedAt }
    else if (body) skipped.push({ kind: 'postmortem', name: title, reason: 'the incident is not resolved; Lantern keeps postmortems for resolved incidents' })
    incidents.push({
      key: `incident:${incident.id}`,
      pageKey,
      title,
      state,
      impact: rawImpact && IMPACTS.has(rawImpact) ? rawImpact : null,
      startedAt: statuspageTime(incident.started_at) ?? createdAt,
      resolvedAt,
      updates,
      componentKeys: affected(incident),
      postmortem,
    })
  }

  const subscribers: PlannedSubscriber[] = []
  const allComponents = [...componentIds]
  for (const s of data.subscribers) {
    const slack = [str(s.workspace_name), str(s.obfuscated_channel_name)].filter(Boolean).join(' ')
    const name = str(s.email) ?? str(s.display_phone_number) ?? str(s.endpoint) ?? (slack || String(s.id))
    const leave = (reason: string) => skipped.push({ kind: `${String(s.mode)} subscriber`, name, reason })
    if (s.mode !== 'email') {
      if (s.mode === 'sms') leave('Lantern sends no SMS')
      else if (s.mode === 'webhook') leave(`Statuspage's webhook payload is not Lantern's; add the receiver again once it takes Lantern's${str(s.quarantined_at) ? ' (it was quarantined)' : ''}`)
      else if (s.mode === 'slack') leave("connected through Statuspage's Slack app, which gives no webhook URL; subscribe the channel again on the page")
      else leave('Lantern has no subscribers of this kind')
      continue
    }
    if (!str(s.email)) {
      leave('no address')
      continue
    }
    if (str(s.quarantined_at)) {
      leave('quarantined in Statuspage (its mail bounced)')
      continue
    }
    const ids = list(s.components).map(String).filter((id) => componentIds.has(id))
    const every = ids.length === 0 || allComponents.every((id) => ids.includes(id))
    subscribers.push({ key: `subscriber:${s.id}`, pageKey, email: String(s.email), componentKeys: every ? null : ids.map((id) => `component:${id}`), createdAt: statuspageTime(s.created_at) ?? 0 })
  }

  return {
    source: 'statuspage',
    sourceVersion: 'API v1',
    pages: [{ key: pageKey, slug: str(page.subdomain) ?? pageName, name: pageName, customDomain: str(page.domain), customCss: null, description: pageDescription.text }],
    components,
    monitors: [],
    channels: [],
    maintenances,
    incidents,
    subscribers,
    skipped,
    changed,
  }
}
