/**
 * The Embed section of a page: the snippets of /embed/preview (the same builder, through
 * PreviewService.forPage), each as selectable text with a Copy button (JS), the badges shown live,
 * and a link to the full preview with the live widget.
 */
import { html } from '../../lib/html.ts'
import type { EmbedPreview } from '../../modules/embed/preview-service.ts'
import type { Snippets } from '../../modules/embed/snippets.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { sectionNav } from './pages.ts'
import { blockedNotice } from './page-access.ts'

function snippet(id: string, title: string, note: string, code: string, live: string): string {
  return html`<section class="card snippet" aria-labelledby="${id}-title">
  <h2 id="${id}-title">${title}</h2>
  <p class="hint">${note}</p>
  !${live ? html`<div class="live">!${live}</div>` : ''}
  <pre><code id="${id}" data-copyable="${title}">${code}</code></pre>
</section>`
}

function snippetCards(s: Snippets, uptimeBadgeUrl: string, live: boolean): string {
  const badge = (src: string, alt: string) => (live ? html`<a href="${s.status_page_url}"><img src="${src}" alt="${alt}"></a>` : '')
  const badgeSrc = /src="([^"]+)"/.exec(s.badge_html)?.[1]?.replace(/&amp;/g, '&') ?? ''
  return [
    snippet('status_page_url', 'Status page address', 'The public page itself.', s.status_page_url, ''),
    snippet('badge_markdown', 'Badge (Markdown)', 'For a README: a badge that links to the page. Refreshed every 5 minutes.', s.badge_markdown, badge(badgeSrc, 'Status')),
    snippet('badge_html', 'Badge (HTML)', 'The same badge for web pages.', s.badge_html, ''),
    snippet('uptime_badge', 'Uptime badge (Markdown)', 'Uptime over the last 30 days; change days=1 to 90.', `[![Uptime](${uptimeBadgeUrl})](${s.status_page_url})`, badge(uptimeBadgeUrl, 'Uptime')),
    snippet('widget_script', 'Live widget', "Shows the live status and follows the visitor's light or dark theme.", s.widget_script, ''),
    snippet('widget_html', 'Live widget with incidents and charts', 'Adds active incidents, response times and uptime (Growth plan or higher; otherwise the basic status shows).', s.widget_html, ''),
    snippet('minimal_md', 'Minimal link (Markdown)', 'Plain text for chat messages and docs.', s.minimal_md, ''),
  ].join('\n')
}

export function embedView(page: StatusPage, preview: EmbedPreview, previewUrl: string): string {
  const intro = page.blocked
    ? ''
    : page.visibility === 'private'
      ? html`<p class="card">This page is private: add <code>auth_token=&lt;token&gt;</code> to the badge and widget URLs, with the token from <a href="/user/pages/${String(page.id)}/access">Access</a>.</p>`
      : html`<p>Each snippet as you paste it. <a href="${previewUrl}">Open the full preview</a> to see the live widget too.</p>`
  const body = preview.ok
    ? snippetCards(preview.snippets, preview.uptimeBadgeUrl, !page.blocked && page.visibility === 'public')
    : html`<p class="form-error">${preview.message}.</p>`
  return html`<h1>Embed: ${page.name}</h1>
!${sectionNav(page, 'Embed')}
!${blockedNotice(page)}
!${intro}
!${body}`
}
