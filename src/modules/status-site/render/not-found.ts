/** The plain pages of a status host (pure): a blocked page and the 404s. */
import { html } from '../../../lib/html.ts'
import { bareAssets, statusPage, type Assets } from './shared.ts'

/** The page of a blocked status page: nothing of its content, not even its name. */
export function renderBlockedPage(pageCss: string): string {
  return statusPage('Temporarily Unavailable', bareAssets(pageCss), { noindex: true }, html`
<main id="main" class="plain">
<h1>Temporarily Unavailable</h1>
<p>This status page is temporarily unavailable. Please try again later.</p>
</main>
`)
}

export interface NotFoundView {
  message: string
  /** On a page's own host: its name (a link back to it) and its look. */
  page?: { name: string; assets: Assets }
}

/** A 404 of a status host: no status page at this host, or no such address on a page's host. */
export function renderNotFoundPage(pageCss: string, view: NotFoundView): string {
  const title = view.page ? 'Page not found' : 'Not found'
  return statusPage(title, view.page?.assets ?? bareAssets(pageCss), { noindex: true }, html`
<main id="main" class="plain">
<h1>${title}</h1>
<p>${view.message}</p>
!${view.page ? html`<p><a href="/">Back to the ${view.page.name} status page</a></p>
` : ''}</main>
`)
}
