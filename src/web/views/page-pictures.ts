/**
 * The page list's pictures (pure): for each page its current incident and its components with 90
 * daily uptime bars (SVG, one rect per UTC day, oldest first), each with its figure as text beside
 * it ("99.95 % over 90 days") and as the picture's own name, so colour never carries it alone.
 */
import { counted } from '../../lib/words.ts'
import { html } from '../../lib/html.ts'
import type { PageSnapshot } from '../../modules/status-pipeline/service.ts'
import { dayLevel, formatPercent, uptimePercent, type DayUptime } from '../../modules/status-pipeline/uptime.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { statusLabel } from './components.ts'

export const PICTURE_DAYS = 90

export function uptimeText(days: ReadonlyArray<DayUptime>): string {
  const pct = uptimePercent(days)
  return pct === null ? `No data over ${counted(days.length, 'day')}` : `${formatPercent(pct)} % over ${counted(days.length, 'day')}`
}

/**
 * 90 bars in a 3-unit grid, scaled to the width of the card (320 px and up). One path per level
 * (a 2×10 bar per day) keeps an owner's list of many pages small: about 13 bytes a day.
 */
function bars(days: ReadonlyArray<DayUptime>, label: string): string {
  const paths = new Map<string, { d: string; x: number }>()
  days.forEach((day, i) => {
    const level = dayLevel(day)
    const path = paths.get(level) ?? { d: '', x: 0 }
    // After `z` the pen is back at the previous bar's start: move by the distance to this one.
    path.d += `${path.d ? 'm' : 'M'}${i * 3 - path.x} 0h2v10h-2z`
    path.x = i * 3
    paths.set(level, path)
  })
  const drawn = [...paths].map(([level, path]) => `<path class="${level}" d="${path.d}"></path>`)
  return html`<svg class="uptime-bars" viewBox="0 0 ${String(days.length * 3 - 1)} 10" preserveAspectRatio="none" role="img" aria-label="${label}">!${drawn.join('')}</svg>`
}

function incidentLine(snapshot: PageSnapshot): string {
  const incident = snapshot.incidents[0]
  if (!incident) return html`<p class="glance-incident">No open incident.</p>`
  const more = snapshot.incidents.length > 1 ? ` (and ${snapshot.incidents.length - 1} more)` : ''
  return html`<p class="glance-incident open">Open incident: ${incident.title} (${incident.state})${more}</p>`
}

export function pagePicturesView(items: ReadonlyArray<{ page: StatusPage; snapshot: PageSnapshot }>): string {
  if (items.length === 0) return ''
  const pages = items.map(({ page, snapshot }) => {
    const components = snapshot.components.map((c) => {
      const text = uptimeText(c.days)
      return html`<li class="glance-comp">
  <div class="line"><span>${c.name}: ${statusLabel(c.status)}</span><span class="muted">${text}</span></div>
  !${bars(c.days, `Daily uptime of ${c.name}, oldest first: ${text}`)}
</li>`
    })
    const list =
      components.length === 0
        ? html`<p class="muted">No components yet: <a href="/user/pages/${String(page.id)}/components">add some</a>.</p>`
        : html`<ul class="glance-comps">!${components.join('')}</ul>`
    return html`<li class="glance-page"><h3><a href="/user/pages/${String(page.id)}/components">${page.name}</a></h3>!${incidentLine(snapshot)}!${list}</li>`
  })
  return html`<section class="card" aria-labelledby="glance-heading">
  <h2 id="glance-heading">At a glance: the last ${String(PICTURE_DAYS)} days</h2>
  <ul class="glance">!${pages.join('')}</ul>
</section>`
}
