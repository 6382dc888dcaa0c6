/** The status page of a status host (pure): banner, incidents, maintenance, components with their uptime bars, recent history. */
import { escapeHtml, html } from '../../../lib/html.ts'
import { renderSafeMarkdown } from '../../../lib/safe-markdown.ts'
import { DAY_MS } from '../../../lib/time.ts'
import type { ComponentType } from '../../components/tables.ts'
import type { DisplayStatus } from '../../status-pipeline/status.ts'
import { budgetLeftPercent, type PublicBudget } from '../../sla/public-budget.ts'
import type { Words } from '../../../lib/i18n.ts'
import { dayLevel, formatPercent, uptimePercent, type DayUptime } from '../../status-pipeline/uptime.ts'
import { isMaintenanceActive } from '../../status-pipeline/windows.ts'
import type { PublicIncident, PublicMaintenance } from '../events.ts'
import { english, footer, statusPage, incidentBlock, siteHeader, time, type Assets, type Speech } from './shared.ts'

export const TYPE_LABELS: Readonly<Record<ComponentType, string>> = { api: 'API', dns: 'DNS', site: 'Site' }

export interface ComponentView {
  id: number
  name: string
  /** Markdown ('' or absent for none). */
  description?: string
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
  /** The page's description in Markdown ('' or absent for none), shown above the banner. */
  description?: string
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
  /** The visitor's language and zone, and the query the page's links keep. */
  speech?: Speech
  /** The page's own zone and whether the visitor asked for another (`?tz=`). */
  zones?: { pageZone: string; visitorZone: boolean; lang?: string }
}

/** A figure of uptime as the language writes it ('99.95', '99,95'), as precise as the English one. */
const percent = (w: Words, value: number): string => {
  const english = formatPercent(value)
  const digits = english.includes('.') ? english.length - english.indexOf('.') - 1 : 0
  return w.number(Number(english), digits)
}

/** A length of downtime; under a minute in seconds, never "0 min". */
const duration = (w: Words, ms: number): string => w.length(ms < 60_000 ? Math.max(1000, Math.round(ms / 1000) * 1000) : Math.round(ms / 60_000) * 60_000)

function dayTip(day: DayUptime, w: Words): string {
  const total = day.upMs + day.degradedMs + day.downMs
  const date = w.date(day.day)
  if (total === 0) return day.maintenanceMs > 0 ? w.t('day.maintenance', { date }) : w.t('day.no_data', { date })
  const parts = [w.t('day.uptime', { date, percent: percent(w, ((day.upMs + day.degradedMs) / total) * 100) })]
  if (day.downMs > 0) parts.push(w.t('day.down', { length: duration(w, day.downMs) }))
  if (day.degradedMs > 0) parts.push(w.t('day.degraded', { length: duration(w, day.degradedMs) }))
  if (day.maintenanceMs > 0) parts.push(w.t('day.maintenance_length', { length: duration(w, day.maintenanceMs) }))
  return parts.join(w.t('list.separator'))
}

function uptimeBars(component: ComponentView, w: Words): string {
  const days = component.days
  const pct = uptimePercent(days)
  const last30 = uptimePercent(days.slice(-30))
  // Days with something to report are tab stops; every day is a list item screen readers read.
  const items = days.map((day) => {
    const level = dayLevel(day)
    const focus = level === 'minor' || level === 'major' ? ' tabindex="0"' : ''
    return `<li class="${level}"${focus}><span class="tip">${html`${dayTip(day, w)}`}</span></li>`
  })
  const uptime = (value: number | null) => (value === null ? w.t('uptime.no_data') : w.t('uptime.percent', { percent: percent(w, value) }))
  return html`<ol class="bars" aria-label="${w.t('uptime.bars_label', { name: component.name })}">!${items.join('')}</ol>
<div class="uptime__legend" aria-hidden="true"><span><span class="days-90">${w.plural('uptime.days_ago', days.length)}</span><span class="days-30">${w.plural('uptime.days_ago', 30)}</span></span><span class="pct"><span class="days-90">${uptime(pct)}</span><span class="days-30">${uptime(last30)}</span></span><span>${w.t('uptime.today')}</span></div>
<p class="sr-only">${pct === null ? w.t('uptime.none_yet') : w.plural('uptime.over_days', days.length, { percent: percent(w, pct) })}</p>`
}

function componentRow(component: ComponentView, w: Words): string {
  return html`<li class="component">
<div class="component__head"><span class="component__name">${component.name}</span><abbr class="type" title="${w.t(`type.${component.type}`)}">${TYPE_LABELS[component.type]}</abbr>!${
    component.vendor?.unknown ? html`<span class="status status--unknown">${w.t('status.unknown')}</span>` : html`<span class="status status--${component.status}">${w.t(`status.${component.status}`)}</span>`
  }</div>
!${component.description ? html`<div class="component__description message">!${renderSafeMarkdown(component.description)}</div>` : ''}!${component.vendor ? vendorLines(component.vendor, w) : ''}!${uptimeBars(component, w)}!${component.budget ? budgetLine(component.budget, w) : ''}
</li>`
}

/** Who reports a vendor component's status, its open incidents, or why its status is unknown. */
function vendorLines(vendor: NonNullable<ComponentView['vendor']>, w: Words): string {
  const by = vendor.name ? w.t('vendor.reported_by', { name: vendor.name }) : w.t('vendor.reported_by_provider')
  if (vendor.unknown) return html`<p class="vendor">${by} ${w.t('vendor.unknown')}</p>`
  const incidents = vendor.incidents.map((incident) =>
    incident.url ? html`<li><a href="${incident.url}" rel="nofollow noopener">${incident.name}</a></li>` : html`<li>${incident.name}</li>`,
  )
  return html`<p class="vendor">${by}</p>!${incidents.length > 0 ? html`<ul class="vendor__incidents" aria-label="${w.t('vendor.incidents_label')}">!${incidents.join('')}</ul>` : ''}`
}

/** "43 min of 43 min 12 s error budget left this month", with a meter of the share left. */
function budgetLine(budget: NonNullable<ComponentView['budget']>, w: Words): string {
  const left = budgetLeftPercent(budget)
  const phrase =
    budget.leftMs < 0
      ? w.t(`budget.spent.${budget.period}`, { length: w.length(-budget.leftMs) })
      : w.t(`budget.left.${budget.period}`, { left: w.length(Math.floor(budget.leftMs / 1000) * 1000), allowed: w.length(budget.allowedMs) })
  return html`<p class="budget"><meter min="0" max="100" low="20" optimum="100" value="${left}" aria-hidden="true"></meter> ${phrase} <span class="budget__target">${w.t('budget.target', { percent: w.number(budget.targetPpm / 10_000) })}</span></p>`
}

function groupBlock(group: GroupView, w: Words): string {
  const rows = group.components.map((c) => componentRow(c, w)).join('')
  if (group.name === null) return html`<ul class="components card">!${rows}</ul>`
  return html`<section class="group card" aria-label="${group.name}">
<div class="group__head"><h3>${group.name}</h3><span class="status status--${group.status}">${w.t(`status.${group.status}`)}</span></div>
<ul class="components">!${rows}</ul>
</section>`
}

/** "{start} to {end}." with each time as a <time>: the sentence is escaped like any other, then the times go in. */
function span(w: Words, start: number, end: number): string {
  return escapeHtml(w.t('maintenance.span', { start: '\u0000start', end: '\u0000end' }))
    .replace('\u0000start', time(start, w))
    .replace('\u0000end', time(end, w))
}

function maintenanceBlock(m: PublicMaintenance, now: number, w: Words): string {
  const active = isMaintenanceActive(m, now)
  const affected = m.components.length === 0 ? w.t('affects.all') : m.components.map((c) => c.name).join(', ')
  return html`<article class="maintenance card">
<h3>${m.title}</h3>
<p class="meta"><strong>${active ? w.t('maintenance.in_progress') : w.t('maintenance.scheduled')}</strong>: !${span(w, m.startAt, m.endAt)} ${w.t('incident.affects', { list: affected })}</p>
!${m.message.trim() ? html`<div class="message">!${renderSafeMarkdown(m.message)}</div>` : ''}!${
    m.updates.length > 0
      ? html`<ol class="timeline">!${m.updates
          .map((u) => html`<li><span class="state">${w.t(`maintenance.${u.status}`)}</span> &middot; !${time(u.at, w)}<div class="message">!${renderSafeMarkdown(u.message)}</div></li>`)
          .join('')}</ol>`
      : ''
  }
</article>`
}

function recentHistory(view: PageView, speech: Speech): string {
  const { w } = speech
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
    days.push(html`<div class="history-day"><h3>${w.date(day)}</h3>!${
      incidents.length === 0
        ? html`<p class="none">${w.t('history.none')}</p>`
        : incidents.map((incident) => incidentBlock(incident, { headingLevel: 3, link: true }, speech)).join('')
    }</div>`)
  }
  return days.join('')
}

export function renderStatusPage(view: PageView): string {
  const speech = view.speech ?? english()
  const { w, keep } = speech
  const active = view.activeIncidents
  return statusPage(w.t('page.title', { name: view.name }), view.assets, { noindex: view.noindex, canonical: view.canonicalUrl, feeds: true, lang: w.lang, calendarTitle: w.t('nav.calendar_feed') }, html`
<a class="skip" href="#main">${w.t('page.skip')}</a>
!${siteHeader({ ...view, speech })}
<main id="main" class="wrap">
!${view.description ? html`<div class="page-description message">!${renderSafeMarkdown(view.description)}</div>` : ''}<p class="banner banner--${view.overall}">${w.t(`overall.${view.overall}`)}</p>
!${
    active.length > 0
      ? html`<section aria-labelledby="active-incidents"><h2 id="active-incidents">${w.t('page.active_incidents')}</h2>!${active
          .map((incident) => incidentBlock(incident, { headingLevel: 3, link: true }, speech))
          .join('')}</section>`
      : ''
  }!${
    view.maintenances.length > 0
      ? html`<section aria-labelledby="maintenance"><h2 id="maintenance">${w.t('page.maintenance')}</h2>!${view.maintenances
          .map((m) => maintenanceBlock(m, view.now, w))
          .join('')}</section>`
      : ''
  }<section aria-labelledby="components"><h2 id="components">${w.t('page.components')}</h2>
!${view.groups.length === 0 ? html`<p>${w.t('page.no_components')}</p>` : view.groups.map((g) => groupBlock(g, w)).join('')}
</section>
<section aria-labelledby="past-incidents"><h2 id="past-incidents">${w.t('page.past_incidents')}</h2>
!${recentHistory(view, speech)}
<p><a href="/history${keep}">${w.t('nav.history')}</a></p>
</section>
</main>
!${footer(view.now, speech, '/', view.zones)}
`)
}
