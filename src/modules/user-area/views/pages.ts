/**
 * The status-pages screens: the list with the "New page" form, a page's overview with the section
 * navigation (`PAGE_SECTIONS`: each screen helper appends its section), settings with the custom
 * domain's DNS record and check, and the delete confirmation.
 */
import { html } from '../../../lib/html.ts'
import type { DnsCheck } from '../../status-pages/dns-check.ts'
import type { StatusPage } from '../../status-pages/service.ts'
import { errorSummary, selectField, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'
import { BRANDING_SECTIONS } from './sections-branding.ts'

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

const LABELS: Record<string, string> = { name: 'Name', slug: 'Slug', visibility: 'Visibility', custom_domain: 'Custom domain', confirm_slug: 'Slug' }

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
    <button type="submit">Create page</button>
  </form>
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
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <dl class="facts">
    <dt>Address</dt><dd><a href="${url}">${url}</a></dd>
    <dt>Slug</dt><dd>${page.slug}</dd>
    <dt>Visibility</dt><dd>${page.visibility === 'private' ? 'Private' : 'Public'}</dd>
    <dt>Custom domain</dt><dd>${page.customDomain ?? 'None'}</dd>
    <dt>State</dt><dd>!${stateBadge(page)}</dd>
  </dl>
</section>`
}

export interface DomainHelp {
  /** Where a CNAME should point: `<slug>.<STATUS_DOMAIN>`. */
  cnameTarget: string
  serviceHost: string
  check?: DnsCheck
  checkAvailable: boolean
}

function dnsCheckResult(domain: string, check: DnsCheck | undefined): string {
  if (!check) return ''
  if (check.state === 'here') return html`<p class="notice" role="status">${domain} reaches this instance (${check.via}).</p>`
  if (check.state === 'missing') return html`<p class="error" role="status">${domain} does not resolve yet. DNS changes can take a while to spread.</p>`
  return html`<p class="error" role="status">${domain} points elsewhere: ${check.found.join(', ')}.</p>`
}

function domainSection(page: StatusPage, help: DomainHelp): string {
  if (!page.customDomain) {
    return html`<section class="card" aria-labelledby="dns-heading"><h2 id="dns-heading">Custom domain</h2>
<p>Set a custom domain above (Pro plan and up) to serve this page on an address of your own.</p></section>`
  }
  const domain = page.customDomain
  return html`<section class="card" aria-labelledby="dns-heading">
  <h2 id="dns-heading">DNS for ${domain}</h2>
  <p>Create this record at your DNS provider:</p>
  <section class="scroll" tabindex="0" aria-label="The DNS record"><table><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Value</th></tr></thead>
  <tbody><tr><td><code>${domain}</code></td><td>CNAME</td><td><code>${help.cnameTarget}</code></td></tr></tbody></table></section>
  <p class="hint">For an apex domain (no subdomain), use A/AAAA records with the addresses of <code>${help.serviceHost}</code> instead, or your provider's ALIAS record.</p>
  !${dnsCheckResult(domain, help.check)}
  !${
    help.checkAvailable
      ? html`<form method="get" action="/user/pages/${String(page.id)}/settings"><input type="hidden" name="check" value="dns"><button type="submit" class="secondary">Check DNS</button></form>`
      : html`<p class="muted">The DNS check is not available on this server.</p>`
  }
</section>`
}

export function pageSettingsView(page: StatusPage, form: FormState, help: DomainHelp): string {
  return html`<h1>Settings: ${page.name}</h1>
!${sectionNav(page, 'Settings')}
<section class="card" aria-labelledby="settings-heading">
  <h2 id="settings-heading">Page</h2>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/pages/${String(page.id)}/settings" class="stack" novalidate>
    !${textField({ name: 'name', label: 'Name', required: true, maxLength: 100, state: form })}
    !${textField({ name: 'slug', label: 'Slug', hint: 'Changing it changes the page address; old links stop working.', required: true, autocomplete: 'off', state: form })}
    !${selectField({ name: 'visibility', label: 'Visibility', options: VISIBILITY_OPTIONS, state: form })}
    !${textField({ name: 'custom_domain', label: 'Custom domain', hint: 'A host name such as status.example.com; leave empty for none.', autocomplete: 'off', state: form })}
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
