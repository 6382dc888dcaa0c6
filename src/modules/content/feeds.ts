/** The machine-readable views: the changelog's Atom feed, the sitemap and robots.txt. */
import { escapeHtml } from '../../lib/html.ts'
import type { ChangelogEntry } from './changelog.ts'
import type { Library } from './library.ts'
import { changelogEntryBody, changelogEntryTitle } from './views.ts'

const xml = escapeHtml
const dayStart = (date: string) => `${date}T00:00:00Z`

export function changelogAtom(entries: readonly ChangelogEntry[], baseUrl: string): string {
  const updated = entries[0] ? dayStart(entries[0].date) : '1970-01-01T00:00:00Z'
  const items = entries.map(
    (entry) => `  <entry>
    <id>${xml(`${baseUrl}/changelog#${entry.anchor}`)}</id>
    <title>${xml(changelogEntryTitle(entry))}</title>
    <updated>${dayStart(entry.date)}</updated>
    <link rel="alternate" type="text/html" href="${xml(`${baseUrl}/changelog#${entry.anchor}`)}"/>
    <content type="html">${xml(changelogEntryBody(entry))}</content>
  </entry>`,
  )
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(`${baseUrl}/changelog`)}</id>
  <title>Lantern changelog</title>
  <updated>${updated}</updated>
  <author><name>Lantern</name></author>
  <link rel="self" type="application/atom+xml" href="${xml(`${baseUrl}/changelog.atom`)}"/>
  <link rel="alternate" type="text/html" href="${xml(`${baseUrl}/changelog`)}"/>
${items.join('\n')}
</feed>
`
}

export function sitemap(libraries: readonly Library[], changelog: readonly ChangelogEntry[], baseUrl: string): string {
  const urls: { loc: string; lastmod?: string | undefined }[] = [{ loc: `${baseUrl}/changelog`, lastmod: changelog[0]?.date }]
  for (const library of libraries) {
    const newest = library.pages.reduce<string | undefined>((max, page) => (max === undefined || page.date > max ? page.date : max), undefined)
    urls.push({ loc: `${baseUrl}/${library.section}/`, lastmod: newest })
    for (const page of library.pages) urls.push({ loc: `${baseUrl}/${library.section}/${page.slug}`, lastmod: page.date })
    for (const { tag } of library.tags()) urls.push({ loc: `${baseUrl}/${library.section}/tag/${encodeURIComponent(tag)}/` })
  }
  const body = urls
    .map((url) => `  <url><loc>${xml(url.loc)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ''}</url>`)
    .join('\n')
  return `<?xml version="1.0" encoding="utf-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${body}
</urlset>
`
}

export function robotsTxt(baseUrl: string): string {
  return `User-agent: *
Disallow: /user/
Disallow: /api/
Disallow: /swagger
Allow: /

Sitemap: ${baseUrl}/sitemap.xml
`
}
