/**
 * The status-pages screens: the list with the "New page" form, a page's overview with the section
 * navigation (`PAGE_SECTIONS`: each screen helper appends its section), settings with the custom
 * domain's DNS record and check, and the delete confirmation.
 */
import { html } from '../../lib/html.ts'
import { languageName, LANGUAGES } from '../../lib/i18n.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { errorSummary, selectField, textArea, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'
import { BRANDING_SECTIONS } from './sections-branding.ts'
import { when } from './account.ts'

/** Where a custom domain stands, as the page service reports it. */
type DomainState = NonNullable<StatusPage['customDomainState']>

export interface PageRow {
  page: StatusPage
  url: string
}

/** The sections of a page, in the order of its sub-navigation. Screens append theirs here. */
export const PAGE_SECTIONS: Array<{ label: string; href: (id: number) => string }> = [
  { label: 'Overview', href: (id) => `/user/pages/${id}` },
  { label: 'Components', href: (id) => `/user/pages/${id}/components` },
  { label: 'Incidents', href: (id) => `/user/pages/${id}/incidents` },
  { label: 'Maintenance', href: (id) => `/user/pages/${id}/maintenance` },
  { label: 'Monitors', href: (id) => `/user/pages/${id}/monitors` },
  { label: 'Auto incidents', href: (id) => `/user/pages/${id}/auto-incidents` },
  { label: 'Subscribers', href: (id) => `/user/pages/${id}/subscribers` },
  { label: 'Analytics', href: (id) => `/user/analytics/${id}` },
  { label: 'SLA', href: (id) => `/user/pages/${id}/sla` },
  ...BRANDING_SECTIONS,
  { label: 'Settings', href: (id) => `/user/pages/${id}/settings` },
]

const VISIBILITY_OPTIONS = [
  { value: 'public', label: 'Public: anyone with the address' },
  { value: 'private', label: 'Private: behind a password or token' },
]

/** Each shipped translation under its own name (Deutsch, 日本語…), as visitors see them in the page's switcher. */
const LANGUAGE_OPTIONS = LANGUAGES.map((lang) => ({ value: lang, label: `${languageName(lang)} (${lang})` }))

const LABELS: Record<string, string> = { name: 'Name', slug: 'Slug', visibility: 'Visibility', password: 'Password', custom_domain: 'Custom domain', confirm_slug: 'Slug', language: 'Default language', time_zone: 'Time zone', description: 'Description' }

/** The create form's error when "Private" comes without a password. */
export const PRIVATE_NEEDS_PASSWORD = 'A private page needs a password: without one no visitor can open it.'

/**
 * Said at the top of a page's screens while it is private without a gate password (nobody can open
 * it), with the way out.
 */
export function lockedPageNotice(page: StatusPage): string {
  if (page.visibility !== 'private' || page.passwordSet) return ''
  // The boxed style of user.css (every screen loads it), as a note rather than an error list.
  return html`<div class="error-summary" role="note">
  <p><strong>Nobody can open this page.</strong> It is private and has no password, so every visitor stops at its gate.</p>
  <p><a href="/user/pages/${String(page.id)}/access#password-heading">Set a password</a> or make the page public.</p>
</div>`
}

export const pagesCrumbs = (): Crumb[] => [{ label: 'Pages', href: '/user' }]
export const pageCrumbs = (page: Pick<StatusPage, 'id' | 'name'>, current?: string): Crumb[] =>
  current ? [...pagesCrumbs(), { label: page.name, href: `/user/pages/${page.id}` }, { label: current }] : [...pagesCrumbs(), { label: page.name }]

const stateBadge = (page: StatusPage) =>
  page.blocked
    ? html`<span class="badge bad">Blocked by the administrator: hidden from visitors</span>`
    : html`<span class="badge ok">Active</span>`

/** `pictures`: the components and incidents of each page (views/page-pictures.ts), below the list. */
export function pagesListView(rows: PageRow[], form: FormState, pictures = ''): string {
  const items = rows.map(
    ({ page, url }) => html`<tr>
  <td><a href="/user/pages/${String(page.id)}">${page.name}</a></td>
  <td><a href="${url}">${url.replace(/^https?:\/\//, '')}</a></td>
  <td>${page.visibility === 'private' ? 'Private' : 'Public'}</td>
  <td>!${stateBadge(page)}</td>
</tr>`,
  )
  const list =
    rows.length === 0
      ? html`<p>You have no status pages yet. Create your first one below.</p>`
      : html`<section class="scroll" tabindex="0" aria-label="Your status pages"><table><caption class="visually-hidden">Your status pages</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Address</th><th scope="col">Visibility</th><th scope="col">State</th></tr></thead>
<tbody>!${items.join('')}</tbody></table></section>`
  return html`<h1>Your status pages</h1>
<section class="card" aria-labelledby="list-heading"><h2 id="list-heading" class="visually-hidden">Pages</h2>!${list}</section>
!${pictures}
<section class="card" aria-labelledby="new-heading">
  <h2 id="new-heading">New page</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/pages" class="stack" novalidate>
    !${textField({ name: 'name', label: 'Name', hint: 'Shown as the title of the page, e.g. Acme Cloud.', required: true, maxLength: 100, state: form })}
    !${textField({ name: 'slug', label: 'Slug', hint: 'Letters, digits and hyphens; the page lives at <slug>.<status domain>.', required: true, autocomplete: 'off', state: form })}
    !${selectField({ name: 'visibility', label: 'Visibility', options: VISIBILITY_OPTIONS, state: form, fallback: 'public' })}
    !${textField({ name: 'password', label: 'Password (private pages only)', type: 'password', autocomplete: 'new-password', hint: 'Visitors type it to open a private page; at least 8 characters. Leave it empty for a public page.', state: form })}
    <button type="submit">Create page</button>
  </form>
  <p class="hint">Moving from Uptime Kuma or Gatus? <a href="/user/import">Import its monitors and pages</a>.</p>
</section>`
}

export function sectionNav(page: Pick<StatusPage, 'id' | 'name'>, current: string): string {
  const links = PAGE_SECTIONS.map((section) => {
    const href = section.href(page.id)
    return html`<li><a href="${href}"!${section.label === current ? ' aria-current="page"' : ''}>${section.label}</a></li>`
  })
  return html`<nav class="subnav" aria-label="Sections of ${page.name}"><ul>!${links.join('')}</ul></nav>`
}

export function pageOverviewView(row: PageRow): string {
  const { page, url } = row
  return html`<h1>${page.name}</h1>
!${sectionNav(page, 'Overview')}
!${lockedPageNotice(page)}
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Address</dt><dd><a href="${url}">${url}</a></dd>
    <dt>Slug</dt><dd>${page.slug}</dd>
    <dt>Visibility</dt><dd>${page.visibility === 'private' ? 'Private' : 'Public'}</dd>
    <dt>Custom domain</dt><dd>!${page.customDomain === null ? 'None' : html`${page.customDomain} (${DOMAIN_STATE_LABELS[page.customDomainState ?? 'pending']})`}</dd>
    <dt>State</dt><dd>!${stateBadge(page)}</dd>
  </dl>
</section>`
}

export interface DomainHelp {
  /** Where a CNAME should point: `<slug>.<STATUS_DOMAIN>`. */
  cnameTarget: string
  serviceHost: string
  /** The server can look up DNS (the "Check DNS" button). */
  checkAvailable: boolean
  /** Where public links send visitors now. */
  linkedUrl: string
}

const DOMAIN_STATE_LABELS: Record<DomainState, string> = { pending: 'pending', verified: 'verified', failing: 'failing' }

/** The domain's state in words: what it means for links, when it was checked and what was found. */
function domainStatus(page: StatusPage, help: DomainHelp): string {
  const state = page.customDomainState ?? 'pending'
  const meaning: Record<DomainState, string> = {
    pending: 'Pending: it has not been seen reaching this instance yet, so badges, snippets, the widget and mails link to the default address meanwhile.',
    verified: 'Verified: it reaches this instance, and every public link uses it.',
    failing: 'Failing: it reached this instance before, but the last check found it elsewhere, so public links use the default address until it is fixed.',
  }
  const check = page.domainCheck
  return html`<dl class="facts">
    <dt>State</dt><dd><span class="badge !${state === 'verified' ? 'ok' : 'bad'}">${DOMAIN_STATE_LABELS[state]}</span> ${meaning[state]}</dd>
    <dt>Public links go to</dt><dd><a href="${help.linkedUrl}">${help.linkedUrl}</a></dd>
    <dt>Last checked</dt><dd>!${when(check.checkedAt, 'Not yet (the server checks every 15 minutes)')}</dd>
    !${check.reason ? html`<dt>Found</dt><dd>${check.reason}</dd>` : ''}
  </dl>`
}

function domainSection(page: StatusPage, help: DomainHelp): string {
  if (!page.customDomain) {
    return html`<section class="card" aria-labelledby="dns-heading"><h2 id="dns-heading">Custom domain</h2>
<p>Set a custom domain above (Pro plan and up) to serve this page on an address of your own.</p></section>`
  }
  const domain = page.customDomain
  return html`<section class="card" aria-labelledby="dns-heading">
  <h2 id="dns-heading">DNS for ${domain}</h2>
  !${domainStatus(page, help)}
  <p>Create this record at your DNS provider:</p>
  <section class="scroll" tabindex="0" aria-label="The DNS record"><table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Value</th></tr></thead>
  <tbody><tr><td><code>${domain}</code></td><td>CNAME</td><td><code>${help.cnameTarget}</code></td></tr></tbody></table></section>
  <p class="hint">For an apex domain (no subdomain), use A/AAAA records with the addresses of <code>${help.serviceHost}</code> instead, or your provider's ALIAS record.</p>
  <p class="hint">The page answers on ${domain} in every state, so certificates can be issued and you can try it; links switch to it once it is verified.</p>
  !${
    help.checkAvailable
      ? html`<form method="post" action="/user/pages/${String(page.id)}/settings/dns-check"><button type="submit" class="secondary">Check DNS</button></form>`
      : html`<p class="muted">The DNS check is not available on this server.</p>`
  }
</section>`
}

export function pageSettingsView(page: StatusPage, form: FormState, help: DomainHelp): string {
  return html`<h1>Settings: ${page.name}</h1>
!${sectionNav(page, 'Settings')}
!${lockedPageNotice(page)}
<section class="card" aria-labelledby="settings-heading">
  <h2 id="settings-heading">Page</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/pages/${String(page.id)}/settings" class="stack" novalidate>
    !${textField({ name: 'name', label: 'Name', required: true, maxLength: 100, state: form })}
    !${textField({ name: 'slug', label: 'Slug', hint: 'Changing it changes the page address; old links stop working.', required: true, autocomplete: 'off', state: form })}
    !${selectField({ name: 'visibility', label: 'Visibility', options: VISIBILITY_OPTIONS, state: form })}
    !${textField({ name: 'custom_domain', label: 'Custom domain', hint: 'A host name such as status.example.com; leave empty for none.', autocomplete: 'off', state: form })}
    !${selectField({ name: 'language', label: 'Default language', hint: "Visitors whose browser asks for none of these languages see this one; anyone can switch on the page.", options: LANGUAGE_OPTIONS, state: form, fallback: 'en' })}
    !${textArea({ name: 'description', label: 'Description', hint: 'Optional: shown under the page name on the public page. Markdown: **bold**, *italic*, [links](https://example.com), lists and `code`; HTML is shown as text.', rows: 3, state: form })}
    !${textField({ name: 'time_zone', label: 'Time zone', hint: 'An IANA time zone such as Europe/Berlin, America/New_York or UTC. Every time on the page is shown in it, with the zone named.', autocomplete: 'off', maxLength: 64, state: form })}
    <button type="submit">Save settings</button>
  </form>
</section>
!${domainSection(page, help)}
<section class="card danger" aria-labelledby="danger-heading">
  <h2 id="danger-heading">Delete this page</h2>
  <p>Deleting removes the page with its components, incidents and history.</p>
  <p><a class="button danger" href="/user/pages/${String(page.id)}/delete">Delete page…</a></p>
</section>`
}

export function deletePageView(page: StatusPage, form: FormState): string {
  return html`<h1>Delete ${page.name}?</h1>
<section class="card narrow danger">
  <p>This deletes the page <strong>${page.name}</strong> with its components, incidents, maintenance and history. It cannot be undone.</p>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/pages/${String(page.id)}/delete" class="stack" novalidate>
    !${textField({ name: 'confirm_slug', label: `Type the slug "${page.slug}" to confirm`, required: true, autocomplete: 'off', state: form })}
    <button type="submit" class="danger">Delete page</button>
    <a href="/user/pages/${String(page.id)}/settings">Cancel</a>
  </form>
</section>`
}
