/** The incident history archive of a status host (pure), by month, paged with a `before` cursor. */
import { formatMonth } from '../../../lib/human-time.ts'
import { html } from '../../../lib/html.ts'
import type { PublicIncident } from '../events.ts'
import { footer, statusPage, incidentBlock, siteHeader, type Assets } from './shared.ts'

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
}

export function renderHistoryPage(view: HistoryView): string {
  const groups = new Map<string, PublicIncident[]>()
  for (const incident of view.incidents) {
    const month = formatMonth(incident.startedAt)
    groups.set(month, [...(groups.get(month) ?? []), incident])
  }
  return statusPage(`Incident history · ${view.name}`, view.assets, { noindex: view.noindex, canonical: `${view.canonicalUrl}/history`, feeds: true }, html`
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
`)
}
