/** The page of one incident on a status host (pure). */
import { html } from '../../../lib/html.ts'
import type { PublicIncident } from '../events.ts'
import { english, footer, statusPage, incidentBlock, siteHeader, type Assets, type Speech } from './shared.ts'

export interface IncidentPageView {
  name: string
  incident: PublicIncident
  noindex: boolean
  canonicalUrl: string
  now: number
  assets: Assets
  subscribe?: boolean
  speech?: Speech
  zones?: { pageZone: string; visitorZone: boolean; lang?: string }
}

export function renderIncidentPage(view: IncidentPageView): string {
  const speech = view.speech ?? english()
  const { w, keep } = speech
  const path = `/incidents/${view.incident.id}`
  return statusPage(`${view.incident.title} · ${view.name}`, view.assets, { noindex: view.noindex, canonical: `${view.canonicalUrl}${path}`, feeds: true, lang: w.lang, calendarTitle: w.t('nav.calendar_feed') }, html`
<a class="skip" href="#main">${w.t('page.skip')}</a>
!${siteHeader({ ...view, speech })}
<main id="main" class="wrap">
!${incidentBlock(view.incident, { headingLevel: 2, link: false }, speech)}
<p><a href="/history${keep}">${w.t('nav.history')}</a></p>
</main>
!${footer(view.now, speech, path, view.zones)}
`)
}
