/** The page of one incident on a status host (pure). */
import { html } from '../../../lib/html.ts'
import type { PublicIncident } from '../events.ts'
import { footer, statusPage, incidentBlock, siteHeader, type Assets } from './shared.ts'

export function renderIncidentPage(view: { name: string; incident: PublicIncident; noindex: boolean; canonicalUrl: string; now: number; assets: Assets; subscribe?: boolean }): string {
  return statusPage(`${view.incident.title} · ${view.name}`, view.assets, { noindex: view.noindex, canonical: `${view.canonicalUrl}/incidents/${view.incident.id}`, feeds: true }, html`
<a class="skip" href="#main">Skip to content</a>
!${siteHeader(view)}
<main id="main" class="wrap">
!${incidentBlock(view.incident, { headingLevel: 2, link: false })}
<p><a href="/history">Incident history</a></p>
</main>
!${footer(view.now)}
`)
}
