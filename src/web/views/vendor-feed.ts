/** A component's vendor status page (screens/vendor-feed.ts): the feed it follows, its state, the form. */
import { formatDateTime } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import type { Component } from '../../modules/components/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import type { VendorFeed } from '../../modules/vendor-feeds/service.ts'
import { errorSummary, textField, type FormState } from '../kit/forms.ts'
import { componentsPath } from './components.ts'
import { sectionNav } from './pages.ts'

export const VENDOR_LABELS: Record<string, string> = { url: 'Status page address', vendor_component: "Provider's component" }

export const vendorFeedPath = (c: Component) => `${componentsPath(c.pageId)}/${c.id}/vendor-feed`

const STATE_WORDS: Record<VendorFeed['state'], string> = {
  pending: 'Not read yet.',
  ok: 'Read.',
  unknown: 'Cannot be read: the component shows as unknown and does not count in the page status.',
}

function feedState(feed: VendorFeed): string {
  const read = feed.checkedAt === null ? '' : html` Last read ${formatDateTime(feed.checkedAt)}; next ${formatDateTime(feed.nextCheckAt)}.`
  const reason = feed.reason ? html`<p role="alert">Why: ${feed.reason}</p>` : ''
  const incidents = feed.incidents.length
    ? html`<h3>Open incidents at ${feed.vendorName ?? 'the provider'}</h3><ul>!${feed.incidents.map((i) => html`<li>${i.name} (${i.status})</li>`).join('')}</ul>`
    : ''
  return html`<section class="card" aria-labelledby="feed-state-heading">
  <h2 id="feed-state-heading">Feed${feed.vendorName ? html`: ${feed.vendorName}` : ''}</h2>
  <p><strong>${STATE_WORDS[feed.state]}</strong>!${read}</p>
  !${reason}!${incidents}
</section>`
}

export function vendorFeedView(page: StatusPage, component: Component, feed: VendorFeed | undefined, form: FormState): string {
  const action = vendorFeedPath(component)
  return html`<h1>Vendor status: ${component.name}</h1>
!${sectionNav(page, 'Components')}
<section class="card" aria-labelledby="vendor-heading">
  <h2 id="vendor-heading">Follow a provider's status page</h2>
  <p>For a service you depend on that publishes a Statuspage-style status page (most hosted services do): ${component.name} takes its status from it, read every 3 minutes. When the page cannot be read, the component shows as unknown, never as an outage of yours.</p>
  !${errorSummary(form, VENDOR_LABELS)}
  <form method="post" action="${action}" class="stack" novalidate>
    !${textField({ name: 'url', label: VENDOR_LABELS.url!, hint: 'e.g. https://www.githubstatus.com (its /api/v2/summary.json is read).', required: true, maxLength: 2048, state: form, placeholder: 'https://status.example.com' })}
    !${textField({ name: 'vendor_component', label: VENDOR_LABELS.vendor_component!, hint: "Optional: one of the provider's components, by name or id. Empty follows the provider's whole page.", maxLength: 200, state: form })}
    <button type="submit">Follow and read now</button>
    <a href="${componentsPath(page.id)}">Cancel</a>
  </form>
</section>
!${feed ? feedState(feed) : ''}
!${feed ? html`<section class="card danger" aria-labelledby="stop-heading"><h2 id="stop-heading">Stop following</h2><p>${component.name} keeps its last status, for you to set.</p><form method="post" action="${action}/remove"><button type="submit" class="secondary">Stop following ${feed.vendorName ?? 'the provider'}</button></form></section>` : ''}`
}
