/** The status page of a status host (pure): banner, incidents, maintenance, components with their uptime bars, recent history. */
import { html } from '../../../lib/html.ts'
import { renderSafeMarkdown } from '../../../lib/safe-markdown.ts'
import { DAY_MS } from '../../../lib/time.ts'
import type { ComponentType } from '../../components/tables.ts'
import { OVERALL_LABELS, STATUS_LABELS, type DisplayStatus } from '../../status-pipeline/status.ts'
import { budgetLeftPercent, budgetPhrase, type PublicBudget } from '../../sla/public-budget.ts'
import { dayLevel, formatPercent, uptimePercent, type DayUptime } from '../../status-pipeline/uptime.ts'
import { isMaintenanceActive } from '../../status-pipeline/windows.ts'
import type { PublicIncident, PublicMaintenance } from '../events.ts'
import { footer, formatDate, formatDuration, statusPage, incidentBlock, siteHeader, time, type Assets } from './shared.ts'

export const TYPE_LABELS: Readonly<Record<ComponentType, string>> = { api: 'API', dns: 'DNS', site: 'Site' }
const TYPE_NAMES: Readonly<Record<ComponentType, string>> = { api: 'API', dns: 'DNS', site: 'Website' }

export interface ComponentView {
  id: number
  name: string
  type: ComponentType
  status: DisplayStatus
  days: DayUptime[]
  /** The running period's error budget, when the owner shows it. */
  budget?: Pick<PublicBudget, 'period' | 'allowedMs' | 'leftMs' | 'targetPpm'>
  /** A component that follows a vendor's status page: its name, whether the feed is unreadable, its open incidents. */
  vendor?: { name: string | null; unknown: boolean; incidents: ReadonlyArray<{ name: string; url: string | null }> }
}

export interface GroupView {
  /** null for the components outside any group. */
  name: string | null
  status: DisplayStatus
  components: ComponentView[]
}

/**
 * Blocks of the page in position order. A group stands where its first member does (its lowest
 * position); ungrouped components stand at their own positions, neighbours sharing one card.
 * `components` come sorted by position.
 */
export function groupInPageOrder(components: ReadonlyArray<readonly [group: string | null, view: ComponentView]>): GroupView[] {
  const blocks: GroupView[] = []
  const named = new Map<string, GroupView>()
  for (const [name, view] of components) {
    if (name === null) {
      const last = blocks.at(-1)
      if (last && last.name === null) last.components.push(view)
      else blocks.push({ name: null, status: 'operational', components: [view] })
      continue
    }
    let group = named.get(name)
    if (!group) {
      group = { name, status: 'operational', components: [] }
      named.set(name, group)
      blocks.push(group)
    }
    group.components.push(view)
  }
  return blocks
}

export interface PageView {
  name: string
  canonicalUrl: string
  noindex: boolean
  overall: DisplayStatus
  groups: GroupView[]
  activeIncidents: PublicIncident[]
  maintenances: PublicMaintenance[]
  /** Incidents of the last days, newest first (resolved or not). */
  recentIncidents: PublicIncident[]
  recentDays: number
  now: number
  assets: Assets
  /** Offer the subscribe form (public pages while the instance sends mail). */
  subscribe?: boolean
}

function dayTip(day: DayUptime): string {
  const total = day.upMs + day.degradedMs + day.downMs
  const date = formatDate(day.day)
  if (total === 0) return day.maintenanceMs > 0 ? `${date}: maintenance` : `${date}: no data`
  const parts = [`${date}: ${formatPercent(((day.upMs + day.degradedMs) / total) * 100)}% uptime`]
  if (day.downMs > 0) parts.push(`down ${formatDuration(day.downMs)}`)
  if (day.degradedMs > 0) parts.push(`degraded ${formatDuration(day.degradedMs)}`)
  if (day.maintenanceMs > 0) parts.push(`maintenance ${formatDuration(day.maintenanceMs)}`)
  return parts.join(', ')
}

function uptimeBars(component: ComponentView): string {
  const days = component.days
  const pct = uptimePercent(days)
  const last30 = uptimePercent(days.slice(-30))
  // Days with something to report are tab stops; every day is a list item screen readers read.
  const items = days.map((day) => {
    const level = dayLevel(day)
    const focus = level === 'minor' || level === 'major' ? ' tabindex="0"' : ''
    return `<li class="${level}"${focus}><span class="tip">${html`${dayTip(day)}`}</span></li>`
  })
  return html`<ol class="bars" aria-label="Daily uptime of ${component.name}, oldest first">!${items.join('')}</ol>
<div class="uptime__legend" aria-hidden="true"><span><span class="days-90">${days.length} days ago</span><span class="days-30">30 days ago</span></span><span class="pct"><span class="days-90">${pct === null ? 'No data' : `${formatPercent(pct)}% uptime`}</span><span class="days-30">${last30 === null ? 'No data' : `${formatPercent(last30)}% uptime`}</span></span><span>Today</span></div>
<p class="sr-only">${pct === null ? 'No uptime data yet.' : `${formatPercent(pct)}% uptime over the last ${days.length} days.`}</p>`
}

function componentRow(component: ComponentView): string {
  return html`<li class="component">
<div class="component__head"><span class="component__name">${component.name}</span><abbr class="type" title="${TYPE_NAMES[component.type]}">${TYPE_LABELS[component.type]}</abbr>!${
    component.vendor?.unknown ? html`<span class="status status--unknown">Unknown</span>` : html`<span class="status status--${component.status}">${STATUS_LABELS[component.status]}</span>`
  }</div>
!${component.vendor ? vendorLines(component.vendor) : ''}!${uptimeBars(component)}!${component.budget ? budgetLine(component.budget) : ''}
</li>`
}

/** Who reports a vendor component's status, its open incidents, or why its status is unknown. */
function vendorLines(vendor: NonNullable<ComponentView['vendor']>): string {
  const by = vendor.name ? html`Status reported by ${vendor.name}.` : 'Status reported by the provider.'
  if (vendor.unknown) return html`<p class="vendor">!${by} The provider's status feed cannot be read right now, so its status is unknown.</p>`
  const incidents = vendor.incidents.map((incident) =>
    incident.url ? html`<li><a href="${incident.url}" rel="nofollow noopener">${incident.name}</a></li>` : html`<li>${incident.name}</li>`,
  )
  return html`<p class="vendor">!${by}</p>!${incidents.length > 0 ? html`<ul class="vendor__incidents" aria-label="Open incidents at the provider">!${incidents.join('')}</ul>` : ''}`
}

/** "43 min of 43 min 12 s error budget left this month", with a meter of the share left. */
function budgetLine(budget: NonNullable<ComponentView['budget']>): string {
  const left = budgetLeftPercent(budget)
  return html`<p class="budget"><meter min="0" max="100" low="20" optimum="100" value="${left}" aria-hidden="true"></meter> ${budgetPhrase(budget)} <span class="budget__target">(target ${budget.targetPpm / 10_000}%)</span></p>`
}

function groupBlock(group: GroupView): string {
  const rows = group.components.map(componentRow).join('')
  if (group.name === null) return html`<ul class="components card">!${rows}</ul>`
  return html`<section class="group card" aria-label="${group.name}">
<div class="group__head"><h3>${group.name}</h3><span class="status status--${group.status}">${STATUS_LABELS[group.status]}</span></div>
<ul class="components">!${rows}</ul>
</section>`
}

function maintenanceBlock(m: PublicMaintenance, now: number): string {
  const active = isMaintenanceActive(m, now)
  const affected = m.components.length === 0 ? 'All components' : m.components.map((c) => c.name).join(', ')
  return html`<article class="maintenance card">
<h3>${m.title}</h3>
<p class="meta"><strong>${active ? 'In progress' : 'Scheduled'}</strong>: !${time(m.startAt)} to !${time(m.endAt)}. Affects: ${affected}.</p>
!${m.message.trim() ? html`<div class="message">!${renderSafeMarkdown(m.message)}</div>` : ''}
</article>`
}

function recentHistory(view: PageView): string {
  const byDay = new Map<number, PublicIncident[]>()
  for (const incident of view.recentIncidents) {
    const day = Math.floor(incident.startedAt / DAY_MS) * DAY_MS
    byDay.set(day, [...(byDay.get(day) ?? []), incident])
  }
  const today = Math.floor(view.now / DAY_MS) * DAY_MS
  const days: string[] = []
  for (let i = 0; i < view.recentDays; i++) {
    const day = today - i * DAY_MS
    const incidents = byDay.get(day) ?? []
    days.push(html`<div class="history-day"><h3>${formatDate(day)}</h3>!${
      incidents.length === 0
        ? '<p class="none">No incidents reported.</p>'
        : incidents.map((incident) => incidentBlock(incident, { headingLevel: 3, link: true })).join('')
    }</div>`)
  }
  return days.join('')
}

export function renderStatusPage(view: PageView): string {
  const active = view.activeIncidents
  return statusPage(`${view.name} status`, view.assets, { noindex: view.noindex, canonical: view.canonicalUrl, feeds: true }, html`
<a class="skip" href="#main">Skip to content</a>
!${siteHeader(view)}
<main id="main" class="wrap">
<p class="banner banner--${view.overall}">${OVERALL_LABELS[view.overall]}</p>
!${
    active.length > 0
      ? html`<section aria-labelledby="active-incidents"><h2 id="active-incidents">Active incidents</h2>!${active
          .map((incident) => incidentBlock(incident, { headingLevel: 3, link: true }))
          .join('')}</section>`
      : ''
  }!${
    view.maintenances.length > 0
      ? html`<section aria-labelledby="maintenance"><h2 id="maintenance">Maintenance</h2>!${view.maintenances
          .map((m) => maintenanceBlock(m, view.now))
          .join('')}</section>`
      : ''
  }<section aria-labelledby="components"><h2 id="components">Components</h2>
!${view.groups.length === 0 ? '<p>No components yet.</p>' : view.groups.map(groupBlock).join('')}
</section>
<section aria-labelledby="past-incidents"><h2 id="past-incidents">Past incidents</h2>
!${recentHistory(view)}
<p><a href="/history">Incident history</a></p>
</section>
</main>
!${footer(view.now)}
`)
}
