/**
 * Routes of the service host's own pages: the front page `/`, `/docs/`, `/blog/`, their tag listings, `/changelog`
 * with its Atom feed, `/robots.txt`, `/sitemap.xml` and the stylesheet they share.
 *
 * URL rules: listings end in a slash (`/docs/`, `/docs/tag/setup/`), single pages do not
 * (`/docs/embedding`, `/changelog`); the other spelling answers 301 to the canonical one. An
 * unknown page or tag is the HTML 404 page.
 */
import { Elysia, t } from 'elysia'
import { HtmlPage, textAnswer } from '../../http/schemas.ts'
import { servePrepared, type PreparedResponse } from '../../lib/http-cache.ts'
import type { ContentService, Section } from './service.ts'
import { FAVICON_PATH, SITE_CSS_PATH } from './views.ts'

const HtmlBody = HtmlPage
const NoBody = t.Void({ description: 'No body' })
const pageResponses = { 200: HtmlBody, 301: NoBody, 304: NoBody, 404: HtmlBody }

function redirect(request: Request, pathname: string): Response {
  const search = new URL(request.url).search
  return new Response(null, { status: 301, headers: { location: `${pathname}${search}`, 'cache-control': 'public, max-age=3600' } })
}

const pathOf = (request: Request): string => new URL(request.url).pathname
const serve = async (request: Request, prepared: Promise<PreparedResponse>) =>
  servePrepared(await prepared, request.headers.get('if-none-match'))

function sectionRoutes(content: ContentService, section: Section) {
  const label = section === 'docs' ? 'Docs' : 'Blog'
  const detail = (summary: string) => ({ tags: ['Site'], summary })
  return new Elysia({ detail: { hide: true } })
    .get(
      `/${section}`,
      ({ request }) => (pathOf(request).endsWith('/') ? serve(request, content.index(section)) : redirect(request, `/${section}/`)),
      { response: pageResponses, detail: detail(`${label} index (HTML)`) },
    )
    .get(
      `/${section}/tag/:tag`,
      ({ request, params }) =>
        pathOf(request).endsWith('/')
          ? serve(request, content.tag(section, params.tag))
          : redirect(request, `/${section}/tag/${encodeURIComponent(params.tag)}/`),
      {
        params: t.Object({ tag: t.String() }),
        response: pageResponses,
        detail: detail(`${label} pages with a tag (HTML; without the trailing slash: 301)`),
      },
    )
    .get(
      `/${section}/:slug`,
      ({ request, params }) =>
        pathOf(request).endsWith('/') ? redirect(request, `/${section}/${encodeURIComponent(params.slug)}`) : serve(request, content.page(section, params.slug)),
      { params: t.Object({ slug: t.String() }), response: pageResponses, detail: detail(`One ${label.toLowerCase()} page (HTML)`) },
    )
    .get(`/${section}/*`, ({ request }) => serve(request, content.notFound()), {
      response: { 404: HtmlBody },
      detail: { hide: true },
    })
}

export function contentRoutes(content: ContentService) {
  const detail = (summary: string) => ({ tags: ['Site'], summary })
  // Pages and files for people and crawlers are not part of the API reference; the changelog feed is.
  return new Elysia({ detail: { hide: true } })
    .get('/', ({ request }) => serve(request, content.landing()), {
      response: { 200: HtmlBody, 304: NoBody },
      detail: detail('The front page: what this instance is, log in and sign up, links to the docs (HTML)'),
    })
    .use(sectionRoutes(content, 'docs'))
    .use(sectionRoutes(content, 'blog'))
    .get(
      '/changelog',
      ({ request }) => (pathOf(request).endsWith('/') ? redirect(request, '/changelog') : serve(request, content.changelogPage())),
      { response: pageResponses, detail: detail('What changed, newest first (HTML)') },
    )
    .get('/changelog.atom', ({ request }) => serve(request, content.changelogAtom()), {
      response: { 200: textAnswer('application/atom+xml', 'Atom 1.0 feed'), 304: NoBody },
      detail: { ...detail('The changelog as an Atom feed'), hide: false },
    })
    .get('/robots.txt', ({ request }) => serve(request, content.robots()), {
      response: { 200: textAnswer('text/plain', 'robots.txt'), 304: NoBody },
      detail: detail('robots.txt of the service host'),
    })
    .get('/sitemap.xml', ({ request }) => serve(request, content.sitemap()), {
      response: { 200: textAnswer('application/xml', 'Sitemap 0.9'), 304: NoBody },
      detail: detail('Sitemap of the docs, blog and changelog'),
    })
    .get(FAVICON_PATH, ({ request }) => serve(request, content.favicon()), {
      response: { 200: textAnswer('image/svg+xml', 'SVG icon'), 304: NoBody, 404: HtmlBody },
      detail: detail('Icon of the docs, blog and changelog'),
    })
    .get(SITE_CSS_PATH, ({ request }) => serve(request, content.siteCss()), {
      response: { 200: textAnswer('text/css', 'Stylesheet'), 304: NoBody },
      detail: detail('Stylesheet of the docs, blog and changelog'),
    })
}
