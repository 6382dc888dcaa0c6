/**
 * HTML of the service host's own pages (docs, blog, changelog) through ghtml: every `${}` is
 * escaped; `!${}` only takes HTML that markdown-it or these views produced.
 */
import { formatDate } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import { pageShell } from '../../lib/page-shell.ts'
import type { ChangelogEntry } from './changelog.ts'
import type { ContentPage, Library } from './library.ts'
import { renderInline } from './markdown.ts'

export const SITE_CSS_PATH = '/static/site.css'
export const FAVICON_PATH = '/favicon.svg'

export interface LayoutOptions {
  title: string
  description?: string | undefined
  /** Absolute canonical URL of the page. */
  canonical?: string | undefined
  /** Which top navigation item is current. */
  current?: 'docs' | 'blog' | 'changelog' | undefined
  head?: string
  body: string
}

const NAV = [
  { key: 'docs', href: '/docs/', label: 'Docs' },
  { key: 'blog', href: '/blog/', label: 'Blog' },
  { key: 'changelog', href: '/changelog', label: 'Changelog' },
  { key: 'api', href: '/swagger', label: 'API' },
] as const

export function layout(options: LayoutOptions): string {
  const nav = NAV.map(
    (item) => html`<a href="${item.href}"!${item.key === options.current ? ' aria-current="page"' : ''}>${item.label}</a>`,
  )
  return pageShell({
    title: `${options.title} · Lantern`,
    meta: options.description ? html`<meta name="description" content="${options.description}">\n` : '',
    head: html`!${options.canonical ? html`<link rel="canonical" href="${options.canonical}">\n` : ''}<link rel="stylesheet" href="${SITE_CSS_PATH}">
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
!${options.head ? `${options.head}\n` : ''}`,
    body: html`
<header class="site"><a class="brand" href="/docs/">Lantern</a><nav aria-label="Site">!${nav}</nav></header>
<main id="main">
!${options.body}
</main>
<footer class="site"><p>Lantern &mdash; self-hosted status pages. <a href="/changelog">What changed</a> &middot; <a href="/docs/">Docs</a></p></footer>
`,
  })
}

/** A page's date (YYYY-MM-DD) for people. */
const formatDay = (date: string): string => formatDate(Date.parse(`${date}T00:00:00Z`))

const tagLinks = (section: string, tags: readonly string[]): string =>
  tags.length === 0
    ? ''
    : html`<ul class="tags" aria-label="Tags">!${tags.map((tag) => html`<li><a href="/${section}/tag/${encodeURIComponent(tag)}/">#${tag}</a></li>`)}</ul>`

function pageList(library: Library, pages: readonly ContentPage[]): string {
  return html`<ul class="pages">!${pages.map(
    (page) => html`<li>
<a href="/${library.section}/${page.slug}">${page.title}</a>
!${library.section === 'blog' ? html`<time datetime="${page.date}">${formatDay(page.date)}</time>` : ''}
!${page.summary ? html`<p>${page.summary}</p>` : ''}
</li>`,
  )}</ul>`
}

const SECTION_TITLES: Record<string, string> = { docs: 'Documentation', blog: 'Blog' }

export function indexPage(library: Library, baseUrl: string): string {
  const title = SECTION_TITLES[library.section] ?? library.section
  const tags = library.tags()
  return layout({
    title,
    canonical: `${baseUrl}/${library.section}/`,
    current: library.section === 'blog' ? 'blog' : 'docs',
    body: html`<h1>${title}</h1>
!${pageList(library, library.pages)}
!${tags.length ? html`<h2>Tags</h2><ul class="tags">!${tags.map((t) => html`<li><a href="/${library.section}/tag/${encodeURIComponent(t.tag)}/">#${t.tag}</a> <span class="count">(${t.count})</span></li>`)}</ul>` : ''}`,
  })
}

export function tagPage(library: Library, tag: string, pages: readonly ContentPage[], baseUrl: string): string {
  const title = `${SECTION_TITLES[library.section] ?? library.section} tagged “${tag}”`
  return layout({
    title,
    canonical: `${baseUrl}/${library.section}/tag/${encodeURIComponent(tag)}/`,
    current: library.section === 'blog' ? 'blog' : 'docs',
    body: html`<p class="crumbs"><a href="/${library.section}/">${SECTION_TITLES[library.section] ?? library.section}</a></p>
<h1>${title}</h1>
!${pageList(library, pages)}`,
  })
}

export function contentPage(library: Library, page: ContentPage, baseUrl: string): string {
  return layout({
    title: page.title,
    description: page.summary,
    canonical: `${baseUrl}/${library.section}/${page.slug}`,
    current: library.section === 'blog' ? 'blog' : 'docs',
    body: html`<article>
<p class="crumbs"><a href="/${library.section}/">${SECTION_TITLES[library.section] ?? library.section}</a></p>
<h1>${page.title}</h1>
<p class="meta"><time datetime="${page.date}">${library.section === 'blog' ? formatDay(page.date) : `Updated ${formatDay(page.date)}`}</time></p>
!${page.html}
!${tagLinks(library.section, page.tags)}
</article>`,
  })
}

/** The grouped lists of one changelog entry (shared by the page and the Atom feed). */
export function changelogEntryBody(entry: ChangelogEntry): string {
  return entry.groups
    .map(
      (group) => html`<section class="group group-${group.group.toLowerCase()}">
<h3>${group.group}</h3>
<ul>!${group.items.map((item) => html`<li id="${item.anchor}">!${renderInline(item.text)} <a class="anchor" href="#${item.anchor}" aria-label="Link to this change">#</a></li>`)}</ul>
</section>`,
    )
    .join('\n')
}

export const changelogEntryTitle = (entry: ChangelogEntry): string =>
  entry.title ? `${formatDay(entry.date)} — ${entry.title}` : formatDay(entry.date)

export function changelogPage(entries: readonly ChangelogEntry[], baseUrl: string): string {
  return layout({
    title: 'Changelog',
    description: 'What changed in Lantern, newest first.',
    canonical: `${baseUrl}/changelog`,
    current: 'changelog',
    head: html`<link rel="alternate" type="application/atom+xml" title="Lantern changelog" href="/changelog.atom">`,
    body: html`<h1>Changelog</h1>
<p>Every change you can notice, newest first. Follow it with the <a href="/changelog.atom">Atom feed</a>.</p>
!${entries.map(
      (entry) => html`<article class="entry" id="${entry.anchor}">
<h2><a href="#${entry.anchor}"><time datetime="${entry.date}">${changelogEntryTitle(entry)}</time></a></h2>
!${changelogEntryBody(entry)}
</article>`,
    )}`,
  })
}

export function notFoundPage(): string {
  return layout({
    title: 'Not found',
    body: html`<h1>Not found</h1><p>There is no page at this address. Start from the <a href="/">front page</a>, or try the <a href="/docs/">docs</a>, the <a href="/blog/">blog</a>, the <a href="/changelog">changelog</a> or the <a href="/swagger">API reference</a>.</p>`,
  })
}

export interface LandingOptions {
  baseUrl: string
  statusDomain: string
  signupOpen: boolean
}

/** The service host's front page: what this instance is, how to get in, where to read on. */
export function landingPage(options: LandingOptions): string {
  const host = new URL(options.baseUrl).host
  return layout({
    title: host,
    description: `Lantern status pages at ${host}`,
    canonical: `${options.baseUrl}/`,
    body: html`<h1>Lantern at ${host}</h1>
<p class="lead">This is a Lantern instance: status pages that tell your users what works, what does not and what you are doing about it. Each page lives at its own address, <code>&lt;slug&gt;.${options.statusDomain}</code>, or on a custom domain.</p>
<ul class="actions">
<li><a class="button primary" href="/user/login">Log in</a></li>
!${options.signupOpen ? html`<li><a class="button" href="/user/signup">Sign up</a></li>` : ''}
</ul>
!${options.signupOpen ? '' : html`<p class="meta">Accounts on this instance are created by its operator (<code>lantern user create</code>).</p>`}
<h2>Read on</h2>
<ul class="pages">
<li><a href="/docs/">Docs</a><p>Getting started, status pages, incidents, embedding, running Lantern.</p></li>
<li><a href="/changelog">Changelog</a><p>What changed, newest first.</p></li>
<li><a href="/swagger">API reference</a><p>Every route of the management API, the embeds and the status pages; the <a href="/swagger/json">OpenAPI document</a> for tools.</p></li>
</ul>`,
  })
}
