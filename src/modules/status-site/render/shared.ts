/**
 * What every HTML page of a status host shares (pure): the head, the site header and footer, the
 * incident card and how times read. Rendered with `ghtml`, whose `html` tag escapes every
 * interpolation; `!${…}` is only used for fragments these files built themselves or the safe
 * Markdown renderer made (`lib/safe-markdown.ts`).
 */
import { escapeHtml, html } from '../../../lib/html.ts'
import { pageShell } from '../../../lib/page-shell.ts'
import { formatDate, formatDateTime } from '../../../lib/human-time.ts'
import { languageName, LANGUAGES, words, type Language, type Words } from '../../../lib/i18n.ts'
import { renderSafeMarkdown } from '../../../lib/safe-markdown.ts'
import { toIso } from '../../../lib/time.ts'
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

/**
 * What a page says in the visitor's language and zone (`words`), and the query its own links carry
 * so a choice made with `?lang=` or `?tz=` stays as the visitor moves on (`keep`: '' or '?lang=de…').
 */
export interface Speech {
  w: Words
  keep: string
  /** `keep` with `&` instead of `?`, for links that already have a query. */
  keepAnd: string
}

/** What a page says to one visitor (visitor.ts): their words, and the `?lang=` / `?tz=` they picked kept on links. */
export function speechOf(choice: { lang: Language; zone: string; pickedLang: Language | undefined; pickedZone: string | undefined }): Speech {
  const query = [choice.pickedLang ? `lang=${choice.pickedLang}` : '', choice.pickedZone ? `tz=${encodeURIComponent(choice.pickedZone)}` : ''].filter(Boolean).join('&')
  return { w: words(choice.lang, choice.zone), keep: query ? `?${query}` : '', keepAnd: query ? `&${query}` : '' }
}

/** English in UTC with no query kept: pages that know no visitor (subscriber pages). Built on first use. */
export const english = (): Speech => ({ w: words('en'), keep: '', keepAnd: '' })

export const time = (ms: number, w: Words = words('en')) => html`<time datetime="${toIso(ms)}">${w.dateTime(ms)}</time>`

/**
 * Every status host page (its subscriber pages too) on the one page shell, ending in a newline. A page
 * without an icon (a blocked page, an unknown host) says so, so the browser does not ask for a
 * /favicon.ico that answers an error there. `body`: safe HTML, everything inside `<body>`.
 */
export function statusPage(title: string, assets: Assets, options: { noindex: boolean; canonical?: string; feeds?: boolean; lang?: string; calendarTitle?: string }, body: string): string {
  const meta = `<meta name="color-scheme" content="light dark">\n${options.noindex ? '<meta name="robots" content="noindex">\n' : ''}`
  const head = html`<link rel="stylesheet" href="${assets.pageCss}">
!${assets.themeCss === assets.pageCss ? '' : html`<link rel="stylesheet" href="${assets.themeCss}">
`}!${assets.favicon ? html`<link rel="icon" href="${assets.favicon}">
` : '<link rel="icon" href="data:,">\n'}!${options.canonical ? html`<link rel="canonical" href="${options.canonical}">
` : ''}!${
    options.feeds
      ? html`<link rel="alternate" type="application/rss+xml" title="${title} (RSS)" href="/history.rss">
<link rel="alternate" type="application/atom+xml" title="${title} (Atom)" href="/history.atom">
<link rel="alternate" type="text/calendar" title="${title} (${options.calendarTitle ?? 'maintenance calendar'})" href="/maintenance.ics">
`
      : ''
  }`
  return `${pageShell({ title, meta, head, body, lang: options.lang })}\n`
}

/**
 * The header of every page of a status host. `subscribe`: link to the subscribe form (hosts that
 * take visitors' subscriptions); `current`: the link of the page being shown, marked for assistive tech.
 */
export function siteHeader(view: { name: string; assets: Assets; subscribe?: boolean; current?: 'subscribe'; speech?: Speech }): string {
  const { w, keep } = view.speech ?? english()
  const subscribe = view.subscribe ? html`<a href="/subscribe${keep}"!${view.current === 'subscribe' ? ' aria-current="page"' : ''}>${w.t('nav.subscribe')}</a>` : ''
  return html`<header class="site"><div class="wrap">
<a class="brand" href="/${keep}">!${view.assets.logo ? html`<img src="${view.assets.logo}" alt="" width="40" height="40">` : ''}<h1>${view.name}</h1></a>
<nav aria-label="${w.t('nav.label')}">!${subscribe}<a href="/history${keep}">${w.t('nav.history')}</a><a href="/history.rss">RSS</a><a href="/history.atom">Atom</a><a href="/maintenance.ics">${w.t('nav.calendar')}</a></nav>
</div></header>`
}

/** A few zones for the "show in my time zone" field (any IANA name may be typed). */
const COMMON_ZONES = ['UTC', 'Europe/London', 'Europe/Berlin', 'Europe/Paris', 'Europe/Madrid', 'America/New_York', 'America/Chicago', 'America/Los_Angeles', 'America/Sao_Paulo', 'America/Mexico_City', 'Asia/Tokyo', 'Asia/Kolkata', 'Asia/Singapore', 'Australia/Sydney']

/**
 * The footer: when the page was made, the zone its times are in with a form to see them in
 * another (a plain GET form: status pages run no script), and the language switcher, each
 * language in its own name. `path`: the page shown, which the switcher's links point back to.
 */
export function footer(now: number, speech: Speech = english(), path = '/', zones?: { pageZone: string; visitorZone: boolean; lang?: string }): string {
  const { w } = speech
  const zone = zones
    ? html`<form class="zone" method="get" action="${path}"><p>${w.t('footer.zone', { zone: w.zone })}!${zones.visitorZone ? html` <a href="${path}!${zones.lang ? html`?lang=${zones.lang}` : ''}">${w.t('footer.page_zone', { zone: zones.pageZone })}</a>` : ''}</p>
!${zones.lang ? html`<input type="hidden" name="lang" value="${zones.lang}">` : ''}<label for="tz">${w.t('footer.your_zone')}</label> <input id="tz" type="text" name="tz" list="zones" maxlength="64" autocomplete="off" placeholder="Europe/Berlin"> <button type="submit">${w.t('footer.show')}</button>
<datalist id="zones">!${COMMON_ZONES.map((z) => html`<option value="${z}"></option>`).join('')}</datalist></form>`
    : ''
  const tz = zones?.visitorZone ? `&tz=${encodeURIComponent(w.zone)}` : ''
  return html`<footer><div class="wrap"><p>${w.t('footer.updated')} !${time(now, w)}</p>!${zone}!${languageSwitcher(w, { path, after: tz })}<p><a href="/api/v2/summary.json">${w.t('footer.api')}</a> &middot; ${w.t('footer.powered')}</p></div></footer>`
}

/** Where the switcher's links go: `path?{before}lang=xx{after}` (before: `token=…&`, after: `&tz=…`). */
export interface SwitcherTarget {
  path: string
  before?: string
  after?: string
}

/** The language switcher: each language in its own name, a plain link to the same page in it. */
export function languageSwitcher(w: Words, to: SwitcherTarget): string {
  // `?lang=` stays template text (not escaped to `&#61;`): the links read as they always have.
  const { path, before = '', after = '' } = to
  const languages = LANGUAGES.map((lang) =>
    lang === w.lang
      ? html`<li><a href="${path}?${before}lang=${lang}${after}" lang="${lang}" hreflang="${lang}" aria-current="true">${languageName(lang)}</a></li>`
      : html`<li><a href="${path}?${before}lang=${lang}${after}" lang="${lang}" hreflang="${lang}">${languageName(lang)}</a></li>`,
  )
  return html`<nav class="languages" aria-label="${w.t('footer.language')}"><ul>!${languages.join('')}</ul></nav>`
}

/**
 * A sentence with HTML in its places (a `<time>`, a `<strong>`, a link): the sentence is escaped
 * like any other text, then each place gets its fragment (`parts`: safe HTML built by the caller).
 */
export function sentenceWith(w: Words, key: string, text: Readonly<Record<string, string | number>>, parts: Readonly<Record<string, string>>): string {
  const marks: Record<string, string> = {}
  for (const name of Object.keys(parts)) marks[name] = `\u0000${name}\u0000`
  let out = escapeHtml(w.t(key, { ...text, ...marks }))
  for (const [name, fragment] of Object.entries(parts)) out = out.replace(`\u0000${name}\u0000`, fragment)
  return out
}

export function incidentBlock(incident: PublicIncident, options: { headingLevel: 3 | 2; link: boolean }, speech: Speech = english()): string {
  const { w, keep } = speech
  const updates = [...incident.updates].reverse()
  const affected = incident.components.length === 0 ? w.t('affects.all') : incident.components.map((c) => c.name).join(', ')
  const title = options.link ? html`<a href="/incidents/${incident.id}${keep}">${incident.title}</a>` : html`${incident.title}`
  const heading = options.headingLevel === 2 ? html`<h2>!${title}</h2>` : html`<h3>!${title}</h3>`
  // Only an open incident keeps the red stripe; a resolved one is marked as done.
  const resolved = incident.resolvedAt !== null
  return html`<article class="incident card!${resolved ? ' incident--resolved' : ''}">
!${heading}
<p class="meta">${w.t('incident.impact')} <strong class="impact impact-${incident.impact}">${w.t(`impact.${incident.impact}`)}</strong>. ${w.t('incident.affects', { list: affected })} ${w.t('incident.started')} !${time(incident.startedAt, w)}!${incident.resolvedAt === null ? '' : html`, ${w.t('incident.resolved')} !${time(incident.resolvedAt, w)}`}.</p>
!${postmortemBlock(incident, options.link, speech)}<ol class="timeline">!${updates
    .map(
      (u) => html`<li><span class="state">${w.t(`state.${u.state}`)}</span> &middot; !${time(u.at, w)}!${u.message.trim() ? html`<div class="message">!${renderSafeMarkdown(u.message)}</div>` : ''}</li>`,
    )
    .join('')}</ol>
</article>`
}

/**
 * A published postmortem: in full on the incident's own page, as a link from lists (the page and
 * the history), where the timeline stays short.
 */
function postmortemBlock(incident: PublicIncident, link: boolean, { w, keep }: Speech): string {
  const postmortem = incident.postmortem
  if (!postmortem || postmortem.publishedAt === null) return ''
  if (link) return html`<p class="meta"><a href="/incidents/${incident.id}${keep}#postmortem">${w.t('postmortem.title')}</a> ${w.t('postmortem.published_after_link')} !${time(postmortem.publishedAt, w)}.</p>
`
  return html`<section class="postmortem" id="postmortem" aria-labelledby="postmortem-title"><h3 id="postmortem-title">${w.t('postmortem.title')}</h3>
<p class="meta">${w.t('postmortem.published')} !${time(postmortem.publishedAt, w)}.</p>
<div class="message">!${renderSafeMarkdown(postmortem.body)}</div>
</section>
`
}

export const bareAssets = (pageCss: string): Assets => ({ pageCss, themeCss: pageCss, favicon: undefined, logo: undefined })
