/**
 * The embed preview page (`/embed/preview?slug=…`): every snippet rendered live beside its code,
 * with a copy button, so owners see what they paste. Rendered with ghtml: interpolations are
 * escaped; `!${}` is used only for snippets, which Lantern builds and escapes itself. Pure.
 * Template text stays ASCII (entities for · and →): Bun rewrites non-ASCII characters in tagged
 * template literals as \u escapes, which ghtml would then print verbatim.
 */
import { html } from '../../lib/html.ts'
import { pageShell } from '../../lib/page-shell.ts'
import type { Snippets } from './snippets.ts'

export interface PreviewInput {
  pageName: string
  snippets: Snippets
  uptimeBadgeUrl: string
}

/** The copy buttons' script, served as a file (`/embed/preview.js`): the page's CSP allows no inline script. */
export const PREVIEW_SCRIPT = `document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-copy]')
  if (!button) return
  const text = document.getElementById(button.dataset.copy).textContent
  try { await navigator.clipboard.writeText(text) } catch {
    const range = document.createRange(); range.selectNodeContents(document.getElementById(button.dataset.copy))
    const selection = getSelection(); selection.removeAllRanges(); selection.addRange(range); document.execCommand('copy')
  }
  button.textContent = 'Copied'
  setTimeout(() => { button.textContent = 'Copy' }, 1500)
})`

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin:0 0 .5rem}
section{border:1px solid #d1d9e0;border-radius:8px;padding:1rem;margin:1rem 0;display:grid;grid-template-columns:1fr 1fr;gap:1rem}
section>h2,section>p{grid-column:1/-1;margin:0}
.live{min-height:2rem}
pre{margin:0;white-space:pre-wrap;word-break:break-all;background:#f6f8fa;border-radius:6px;padding:.75rem;font-size:13px}
button{margin-top:.5rem;font:inherit;padding:.25rem .75rem;border-radius:6px;border:1px solid #d1d9e0;background:#fff;cursor:pointer}
.note{color:#59636e;font-size:.9rem}
@media (max-width:40rem){section{grid-template-columns:1fr}}`

function snippet(id: string, title: string, note: string, code: string, live: string): string {
  return html`<section aria-labelledby="${id}-title">
  <h2 id="${id}-title">${title}</h2>
  <p class="note">${note}</p>
  <div class="live" data-snippet="${id}">!${live}</div>
  <div><pre><code id="${id}">${code}</code></pre><button type="button" data-copy="${id}">Copy</button></div>
</section>`
}

export function renderPreview(input: PreviewInput): string {
  const s = input.snippets
  const link = (url: string) => html`<a href="${url}">${url}</a>`
  const uptimeMarkdown = `[![Uptime](${input.uptimeBadgeUrl})](${s.status_page_url})`
  // Markdown snippets are shown as a Markdown renderer (GitHub, GitLab…) turns them into HTML:
  // Lantern builds them, so their HTML equivalents are known exactly.
  const sections = [
    snippet('status_page_url', 'Status page address', 'The public page itself.', s.status_page_url, link(s.status_page_url)),
    snippet('badge_markdown', 'Badge (Markdown)', 'For a README: a badge that links to the page. Refreshed every 5 minutes.', s.badge_markdown, s.badge_html),
    snippet('badge_html', 'Badge (HTML)', 'The same badge for web pages.', s.badge_html, s.badge_html),
    snippet(
      'uptime_badge',
      'Uptime badge (Markdown)',
      'Uptime over the last 30 days; change days=1…90.',
      uptimeMarkdown,
      html`<a href="${s.status_page_url}"><img src="${input.uptimeBadgeUrl}" alt="Uptime"></a>`,
    ),
    snippet('widget_script', 'Live widget', 'Shows the live status and follows the visitor’s light or dark theme.', s.widget_script, s.widget_script),
    snippet(
      'widget_html',
      'Live widget with incidents and charts',
      'Adds active incidents, 60 minutes of response times and 7 days of uptime (Growth plan or higher; otherwise the basic status shows).',
      s.widget_html,
      s.widget_html,
    ),
    snippet('minimal_md', 'Minimal link (Markdown)', 'Plain text for chat messages and docs.', s.minimal_md, html`<strong>Status:</strong> &rarr; !${link(s.status_page_url)}`),
  ]
  return pageShell({
    title: `Embed preview · ${input.pageName}`,
    head: html`<link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>!${STYLE}</style>
`,
    body: html`<main><h1>Embed preview &middot; ${input.pageName}</h1>
<p class="note">Each snippet is rendered live next to the code to paste.</p>
!${sections.join('\n')}
</main><script src="/embed/preview.js" defer></script>`,
  })
}
