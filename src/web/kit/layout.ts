/**
 * The page shell of the owner's web app. Every screen renders through `layout(options, body)`:
 *
 * - skip link, header nav (`USER_NAV`: screens append their entry there), log-out button;
 * - `<main id="main">` with breadcrumbs (`crumbs`), the flash region (`flash`: role=status for
 *   notices, role=alert for errors) and the body, which holds the page's one `<h1>`;
 * - no inline script or style (strict CSP): looks in /static/user/user.css, behaviour in
 *   /static/user/app.js (progressive enhancement only: every screen works without JavaScript).
 *
 * Templates use `html` from src/lib/html.ts: `${x}` is escaped, `!${x}` is for fragments built by
 * these templates only.
 */
import { html } from '../../lib/html.ts'
import { pageShell } from '../../lib/page-shell.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { FAVICON_PATH } from '../../modules/content/views.ts'
import type { Flash } from './flash.ts'

export interface Crumb {
  label: string
  /** Omitted for the current page. */
  href?: string
}

export interface NavEntry {
  label: string
  href: string
  /** Paths under this prefix mark the entry as current (default: `href`). */
  prefix?: string
}

/**
 * The header navigation of a logged-in owner. Screen modules add their entry here (one line each:
 * Templates, Account, Plan…), so links never point at a screen that does not exist yet.
 */
export const USER_NAV: NavEntry[] = [
  { label: 'Pages', href: '/user', prefix: '/user/pages' },
  { label: 'Analytics', href: '/user/analytics' },
  { label: 'Monitors', href: '/user/monitors' },
  { label: 'Tools', href: '/user/tools' },
  { label: 'Templates', href: '/user/templates' },
  { label: 'Notifications', href: '/user/notifications' },
  { label: 'Teams', href: '/user/teams' },
  { label: 'Account', href: '/user/account' },
  { label: 'API keys', href: '/user/api-keys' },
  { label: 'Plan', href: '/user/plan' },
  { label: 'Docs', href: '/docs' },
]

export interface LayoutOptions {
  title: string
  user?: Owner
  /** Breadcrumbs shown above the body; the last one is the current page. */
  crumbs?: Crumb[]
  /** A message carried over a redirect (kit/flash.ts) or set by the handler. */
  flash?: Flash
  /** The current path, to mark the nav entry with aria-current. */
  path?: string
  /** Extra tags for the head (already safe HTML). */
  head?: string
  /** Scripts loaded at the end (paths on our origin). */
  scripts?: string[]
  /** ES module scripts, run after `scripts` (paths on our origin). */
  modules?: string[]
  noindex?: boolean
  /** Pages whose URL holds a secret (shared analytics) send no referrer at all. */
  noReferrer?: boolean
}

function isCurrent(entry: NavEntry, path: string | undefined): boolean {
  if (!path) return false
  if (path === entry.href) return true
  const prefix = entry.prefix ?? entry.href
  return prefix !== '/user' && (path === prefix || path.startsWith(`${prefix}/`))
}

function navBar(user: Owner | undefined, path: string | undefined): string {
  if (!user) return html`<nav class="nav" aria-label="Site"><a class="brand" href="/">Lantern</a></nav>`
  const links = USER_NAV.map(
    (entry) => html`<li><a href="${entry.href}"!${isCurrent(entry, path) ? ' aria-current="page"' : ''}>${entry.label}</a></li>`,
  )
  return html`<nav class="nav" aria-label="Main">
  <a class="brand" href="/user">Lantern</a>
  <ul class="nav-links">!${links.join('')}</ul>
  <span class="who">${user.email}</span>
  <form method="post" action="/user/logout" class="inline"><button type="submit" class="link">Log out</button></form>
</nav>`
}

function breadcrumbs(crumbs: Crumb[] | undefined): string {
  if (!crumbs || crumbs.length === 0) return ''
  const items = crumbs.map((crumb) =>
    crumb.href ? html`<li><a href="${crumb.href}">${crumb.label}</a></li>` : html`<li><span aria-current="page">${crumb.label}</span></li>`,
  )
  return html`<nav class="crumbs" aria-label="Breadcrumb"><ol>!${items.join('')}</ol></nav>`
}

/** The flash region; present (empty) on every page so screen readers know where news appears. */
export function flashRegion(flash: Flash | undefined): string {
  if (!flash) return '<div class="flash-region" role="status"></div>'
  return flash.kind === 'error'
    ? html`<div class="flash-region"><p class="flash error" role="alert">${flash.text}</p></div>`
    : html`<div class="flash-region" role="status"><p class="flash notice">${flash.text}</p></div>`
}

export function layout(options: LayoutOptions, body: string): string {
  return pageShell({
    title: `${options.title} · Lantern`,
    meta: html`<meta name="referrer" content="${options.noReferrer ? 'no-referrer' : 'same-origin'}">
!${options.noindex ? '<meta name="robots" content="noindex, nofollow">' : ''}
`,
    head: html`<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="/static/user/user.css">
!${options.head ?? ''}
`,
    body: html`
<a class="skip" href="#main">Skip to content</a>
<header>!${navBar(options.user, options.path)}</header>
<main id="main" tabindex="-1">
!${breadcrumbs(options.crumbs)}
!${flashRegion(options.flash)}
!${body}
</main>
<script src="/static/user/app.js" defer></script>
!${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
!${(options.modules ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
`,
  })
}

/** A card with a heading and a message: errors (404, 403) and simple notices. */
export function messagePage(title: string, message: string, user?: Owner, options: { crumbs?: Crumb[] } = {}): string {
  return layout({ title, user, crumbs: options.crumbs }, html`<section class="card narrow"><h1>${title}</h1><p>${message}</p></section>`)
}
