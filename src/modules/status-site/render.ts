/**
 * HTML of the status host: the status page, the incident history, the password gate, the blocked
 * page and the 404 page (pure). Rendered with `ghtml`, whose `html` tag escapes every
 * interpolation; `!${…}` is only used for fragments this file built itself.
 */
import { html } from '../../lib/html.ts'
import { toIso } from '../../lib/time.ts'
import type { ComponentType } from '../components/tables.ts'
import { isMaintenanceActive } from '../page-status/windows.ts'
import type { PublicIncident, PublicMaintenance } from './events.ts'
import { OVERALL_LABELS, STATUS_LABELS, type DisplayStatus } from '../page-status/status.ts'
import { dayLevel, formatPercent, uptimePercent, type DayUptime } from '../page-status/uptime.ts'
import { DAY_MS } from '../../lib/time.ts'

export const TYPE_LABELS: Readonly<Record<ComponentType, string>> = { api: 'API', dns: 'DNS', site: 'Site' }
const TYPE_NAMES: Readonly<Record<ComponentType, string>> = { api: 'API', dns: 'DNS', site: 'Website' }

export interface Assets {
  pageCss: string
  themeCss: string
  favicon: string | undefined
  logo: string | undefined
}

export interface ComponentView {
  id: number
  name: string
  type: ComponentType
  status: DisplayStatus
  days: DayUptime[]
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
}

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' })
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

export const formatDate = (ms: number): string => dateFormat.format(ms)
export const formatDateTime = (ms: number): string => `${dateTimeFormat.format(ms)} UTC`

/** A duration as people say it; a downtime under a minute in seconds, never "0 min". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${Math.max(1, seconds)} s`
  const minutes = Math.round(ms / 60_000)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}

const time = (ms: number) => html`<time datetime="${toIso(ms)}">${formatDateTime(ms)}</time>`

function head(title: string, assets: Assets, options: { noindex: boolean; canonical?: string; feeds?: boolean }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
!${options.noindex ? '<meta name="robots" content="noindex">\n' : ''}<title>${title}</title>
<link rel="stylesheet" href="${assets.pageCss}">
!${assets.themeCss === assets.pageCss ? '' : html`<link rel="stylesheet" href="${assets.themeCss}">
`}!${assets.favicon ? html`<link rel="icon" href="${assets.favicon}">
` : ''}!${options.canonical ? html`<link rel="canonical" href="${options.canonical}">
` : ''}!${
    options.feeds
      ? html`<link rel="alternate" type="application/rss+xml" title="${title} (RSS)" href="/history.rss">
<link rel="alternate" type="application/atom+xml" title="${title} (Atom)" href="/history.atom">
`
      : ''
  }</head>`
}

function siteHeader(view: Pick<PageView, 'name' | 'assets'>): string {
  return html`<header class="site"><div class="wrap">
<a class="brand" href="/">!${view.assets.logo ? html`<img src="${view.assets.logo}" alt="" width="40" height="40">` : ''}<h1>${view.name}</h1></a>
<nav aria-label="Status page"><a href="/history">Incident history</a><a href="/history.rss">RSS</a><a href="/history.atom">Atom</a></nav>
</div></header>`
}

function footer(now: number): string {
  return html`<footer><div class="wrap"><p>Updated !${time(now)}</p><p><a href="/api/v2/summary.json">Status API</a> &middot; Powered by Lantern</p></div></footer>`
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
<div class="component__head"><span class="component__name">${component.name}</span><abbr class="type" title="${TYPE_NAMES[component.type]}">${TYPE_LABELS[component.type]}</abbr><span class="status status--${component.status}">${STATUS_LABELS[component.status]}</span></div>
!${uptimeBars(component)}
</li>`
}

function groupBlock(group: GroupView): string {
  const rows = group.components.map(componentRow).join('')
  if (group.name === null) return html`<ul class="components card">!${rows}</ul>`
  return html`<section class="group card" aria-label="${group.name}">
<div class="group__head"><h3>${group.name}</h3><span class="status status--${group.status}">${STATUS_LABELS[group.status]}</span></div>
<ul class="components">!${rows}</ul>
</section>`
}

export function incidentBlock(incident: PublicIncident, options: { headingLevel: 3 | 2; link: boolean }): string {
  const updates = [...incident.updates].reverse()
  const affected = incident.components.length === 0 ? 'All components' : incident.components.map((c) => c.name).join(', ')
  const title = options.link ? html`<a href="/incidents/${incident.id}">${incident.title}</a>` : html`${incident.title}`
  const heading = options.headingLevel === 2 ? html`<h2>!${title}</h2>` : html`<h3>!${title}</h3>`
  // Only an open incident keeps the red stripe; a resolved one is marked as done.
  const resolved = incident.resolvedAt !== null
  return html`<article class="incident card!${resolved ? ' incident--resolved' : ''}">
!${heading}
<p class="meta">Affects: ${affected}. Started !${time(incident.startedAt)}!${incident.resolvedAt === null ? '' : html`, resolved !${time(incident.resolvedAt)}`}.</p>
<ol class="timeline">!${updates
    .map(
      (u) => html`<li><span class="state">${u.state}</span> &middot; !${time(u.at)}<p class="message">${u.message}</p></li>`,
    )
    .join('')}</ol>
</article>`
}

function maintenanceBlock(m: PublicMaintenance, now: number): string {
  const active = isMaintenanceActive(m, now)
  const affected = m.components.length === 0 ? 'All components' : m.components.map((c) => c.name).join(', ')
  return html`<article class="maintenance card">
<h3>${m.title}</h3>
<p class="meta"><strong>${active ? 'In progress' : 'Scheduled'}</strong>: !${time(m.startAt)} to !${time(m.endAt)}. Affects: ${affected}.</p>
!${m.message ? html`<p class="message">${m.message}</p>` : ''}
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
  return html`!${head(`${view.name} status`, view.assets, { noindex: view.noindex, canonical: view.canonicalUrl, feeds: true })}
<body>
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
</body>
</html>
`
}

export interface HistoryView {
  name: string
  canonicalUrl: string
  noindex: boolean
  incidents: PublicIncident[]
  /** `before` cursor of the next (older) page of the archive, if any. */
  olderCursor: number | undefined
  newer: boolean
  now: number
  assets: Assets
}

export function renderHistoryPage(view: HistoryView): string {
  const groups = new Map<string, PublicIncident[]>()
  const monthFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' })
  for (const incident of view.incidents) {
    const month = monthFormat.format(incident.startedAt)
    groups.set(month, [...(groups.get(month) ?? []), incident])
  }
  return html`!${head(`Incident history · ${view.name}`, view.assets, { noindex: view.noindex, canonical: `${view.canonicalUrl}/history`, feeds: true })}
<body>
<a class="skip" href="#main">Skip to content</a>
!${siteHeader(view)}
<main id="main" class="wrap">
<h2>Incident history</h2>
!${
    view.incidents.length === 0
      ? '<p>No incidents reported.</p>'
      : [...groups]
          .map(
            ([month, incidents]) =>
              html`<section class="history-day"><h3>${month}</h3>!${incidents
                .map((incident) => incidentBlock(incident, { headingLevel: 3, link: true }))
                .join('')}</section>`,
          )
          .join('')
  }
<nav class="pager" aria-label="Archive pages">!${view.newer ? '<a href="/history">Newest incidents</a>' : '<span></span>'}!${
    view.olderCursor === undefined ? '' : html`<a href="/history?before=${view.olderCursor}">Older incidents</a>`
  }</nav>
</main>
!${footer(view.now)}
</body>
</html>
`
}

export function renderIncidentPage(view: { name: string; incident: PublicIncident; noindex: boolean; canonicalUrl: string; now: number; assets: Assets }): string {
  return html`!${head(`${view.incident.title} · ${view.name}`, view.assets, { noindex: view.noindex, canonical: `${view.canonicalUrl}/incidents/${view.incident.id}`, feeds: true })}
<body>
<a class="skip" href="#main">Skip to content</a>
!${siteHeader(view)}
<main id="main" class="wrap">
!${incidentBlock(view.incident, { headingLevel: 2, link: false })}
<p><a href="/history">Incident history</a></p>
</main>
!${footer(view.now)}
</body>
</html>
`
}

export interface GateView {
  name: string
  error: string | undefined
  next: string
  assets: Assets
  passwordConfigured: boolean
}

export function renderGatePage(view: GateView): string {
  return html`!${head(`${view.name} status · private`, view.assets, { noindex: true })}
<body>
<main id="main" class="gate card">
<h1>${view.name}</h1>
<p>This status page is private. Enter the password you were given to view it.</p>
!${
    view.passwordConfigured
      ? html`<form method="post" action="/_lantern/access">
<input type="hidden" name="next" value="${view.next}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required minlength="4" maxlength="1024"!${view.error ? ' aria-invalid="true" aria-describedby="gate-error"' : ''}>
!${view.error ? html`<p class="alert" id="gate-error" role="alert">${view.error}</p>` : ''}
<button type="submit">View status</button>
</form>`
      : '<p class="alert">The owner has not set a password for this page yet.</p>'
  }
</main>
</body>
</html>
`
}

const bareAssets = (pageCss: string): Assets => ({ pageCss, themeCss: pageCss, favicon: undefined, logo: undefined })

/** The page of a blocked status page: nothing of its content, not even its name. */
export function renderBlockedPage(pageCss: string): string {
  return html`!${head('Temporarily Unavailable', bareAssets(pageCss), { noindex: true })}
<body>
<main id="main" class="plain">
<h1>Temporarily Unavailable</h1>
<p>This status page is temporarily unavailable. Please try again later.</p>
</main>
</body>
</html>
`
}

export interface NotFoundView {
  message: string
  /** On a page's own host: its name (a link back to it) and its look. */
  page?: { name: string; assets: Assets }
}

/** A 404 of a status host: no status page at this host, or no such address on a page's host. */
export function renderNotFoundPage(pageCss: string, view: NotFoundView): string {
  const title = view.page ? 'Page not found' : 'Not found'
  return html`!${head(title, view.page?.assets ?? bareAssets(pageCss), { noindex: true })}
<body>
<main id="main" class="plain">
<h1>${title}</h1>
<p>${view.message}</p>
!${view.page ? html`<p><a href="/">Back to the ${view.page.name} status page</a></p>
` : ''}</main>
</body>
</html>
`
}
