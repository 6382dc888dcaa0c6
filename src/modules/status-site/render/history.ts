/** The incident history archive of a status host (pure), by month, paged with a `before` cursor. */
import { html } from '../../../lib/html.ts'
import type { PublicIncident } from '../events.ts'
import { english, footer, statusPage, incidentBlock, siteHeader, type Assets, type Speech } from './shared.ts'

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
  /** Link to the subscribe form (hosts that take visitors' subscriptions). */
  subscribe?: boolean
  speech?: Speech
  zones?: { pageZone: string; visitorZone: boolean; lang?: string }
}

export function renderHistoryPage(view: HistoryView): string {
  const speech = view.speech ?? english()
  const { w, keep, keepAnd } = speech
  const groups = new Map<string, PublicIncident[]>()
  for (const incident of view.incidents) {
    const month = w.month(incident.startedAt)
    groups.set(month, [...(groups.get(month) ?? []), incident])
  }
  return statusPage(w.t('history.title', { name: view.name }), view.assets, { noindex: view.noindex, canonical: `${view.canonicalUrl}/history`, feeds: true, lang: w.lang, calendarTitle: w.t('nav.calendar_feed') }, html`
<a class="skip" href="#main">${w.t('page.skip')}</a>
!${siteHeader({ ...view, speech })}
<main id="main" class="wrap">
<h2>${w.t('nav.history')}</h2>
!${
    view.incidents.length === 0
      ? html`<p>${w.t('history.none')}</p>`
      : [...groups]
          .map(
            ([month, incidents]) =>
              html`<section class="history-day"><h3>${month}</h3>!${incidents
                .map((incident) => incidentBlock(incident, { headingLevel: 3, link: true }, speech))
                .join('')}</section>`,
          )
          .join('')
  }
<nav class="pager" aria-label="${w.t('history.pages')}">!${view.newer ? html`<a href="/history${keep}">${w.t('history.newest')}</a>` : '<span></span>'}!${
    view.olderCursor === undefined ? '' : html`<a href="/history?before=${view.olderCursor}${keepAnd}">${w.t('history.older')}</a>`
  }</nav>
</main>
!${footer(view.now, speech, '/history', view.zones)}
`)
}
