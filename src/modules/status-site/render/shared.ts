/**
 * What every HTML page of a status host shares (pure): the head, the site header and footer, the
 * incident card and how times read. Rendered with `ghtml`, whose `html` tag escapes every
 * interpolation; `!${…}` is only used for fragments these files built themselves or the safe
 * Markdown renderer made (`lib/safe-markdown.ts`).
 */
import { html } from '../../../lib/html.ts'
import { pageShell } from '../../../lib/page-shell.ts'
import { formatDate, formatDateTime } from '../../../lib/human-time.ts'
import { renderSafeMarkdown } from '../../../lib/safe-markdown.ts'
import { toIso } from '../../../lib/time.ts'
import { IMPACT_LABELS } from '../../status-pipeline/status.ts'
import type { PublicIncident } from '../events.ts'

export interface Assets {
  pageCss: string
  themeCss: string
  favicon: string | undefined
  logo: string | undefined
}

export { formatDate, formatDateTime }

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

export const time = (ms: number) => html`<time datetime="${toIso(ms)}">${formatDateTime(ms)}</time>`

/**
 * Every status host page (its subscriber pages too) on the one page shell, ending in a newline. A page
 * without an icon (a blocked page, an unknown host) says so, so the browser does not ask for a
 * /favicon.ico that answers an error there. `body`: safe HTML, everything inside `<body>`.
 */
export function statusPage(title: string, assets: Assets, options: { noindex: boolean; canonical?: string; feeds?: boolean }, body: string): string {
  const meta = `<meta name="color-scheme" content="light dark">\n${options.noindex ? '<meta name="robots" content="noindex">\n' : ''}`
  const head = html`<link rel="stylesheet" href="${assets.pageCss}">
!${assets.themeCss === assets.pageCss ? '' : html`<link rel="stylesheet" href="${assets.themeCss}">
`}!${assets.favicon ? html`<link rel="icon" href="${assets.favicon}">
` : '<link rel="icon" href="data:,">\n'}!${options.canonical ? html`<link rel="canonical" href="${options.canonical}">
` : ''}!${
    options.feeds
      ? html`<link rel="alternate" type="application/rss+xml" title="${title} (RSS)" href="/history.rss">
<link rel="alternate" type="application/atom+xml" title="${title} (Atom)" href="/history.atom">
<link rel="alternate" type="text/calendar" title="${title} (maintenance calendar)" href="/maintenance.ics">
`
      : ''
  }`
  return `${pageShell({ title, meta, head, body })}\n`
}

/**
 * The header of every page of a status host. `subscribe`: link to the subscribe form (hosts that
 * take visitors' subscriptions); `current`: the link of the page being shown, marked for assistive tech.
 */
export function siteHeader(view: { name: string; assets: Assets; subscribe?: boolean; current?: 'subscribe' }): string {
  const subscribe = view.subscribe ? `<a href="/subscribe"${view.current === 'subscribe' ? ' aria-current="page"' : ''}>Subscribe to updates</a>` : ''
  return html`<header class="site"><div class="wrap">
<a class="brand" href="/">!${view.assets.logo ? html`<img src="${view.assets.logo}" alt="" width="40" height="40">` : ''}<h1>${view.name}</h1></a>
<nav aria-label="Status page">!${subscribe}<a href="/history">Incident history</a><a href="/history.rss">RSS</a><a href="/history.atom">Atom</a><a href="/maintenance.ics">Calendar</a></nav>
</div></header>`
}

export function footer(now: number): string {
  return html`<footer><div class="wrap"><p>Updated !${time(now)}</p><p><a href="/api/v2/summary.json">Status API</a> &middot; Powered by Lantern</p></div></footer>`
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
<p class="meta">Impact: <strong class="impact impact-${incident.impact}">${IMPACT_LABELS[incident.impact]}</strong>. Affects: ${affected}. Started !${time(incident.startedAt)}!${incident.resolvedAt === null ? '' : html`, resolved !${time(incident.resolvedAt)}`}.</p>
!${postmortemBlock(incident, options.link)}<ol class="timeline">!${updates
    .map(
      (u) => html`<li><span class="state">${u.state}</span> &middot; !${time(u.at)}!${u.message.trim() ? html`<div class="message">!${renderSafeMarkdown(u.message)}</div>` : ''}</li>`,
    )
    .join('')}</ol>
</article>`
}

/**
 * A published postmortem: in full on the incident's own page, as a link from lists (the page and
 * the history), where the timeline stays short.
 */
function postmortemBlock(incident: PublicIncident, link: boolean): string {
  const postmortem = incident.postmortem
  if (!postmortem || postmortem.publishedAt === null) return ''
  if (link) return html`<p class="meta"><a href="/incidents/${incident.id}#postmortem">Postmortem</a> published !${time(postmortem.publishedAt)}.</p>
`
  return html`<section class="postmortem" id="postmortem" aria-labelledby="postmortem-title"><h3 id="postmortem-title">Postmortem</h3>
<p class="meta">Published !${time(postmortem.publishedAt)}.</p>
<div class="message">!${renderSafeMarkdown(postmortem.body)}</div>
</section>
`
}

export const bareAssets = (pageCss: string): Assets => ({ pageCss, themeCss: pageCss, favicon: undefined, logo: undefined })
