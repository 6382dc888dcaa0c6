/**
 * The service host's own content: docs, blog, changelog, their feeds, sitemap and robots.txt.
 * Everything is built from Markdown shipped in the program, so each answer is rendered once,
 * pre-encoded with its ETag, and kept for the life of the process.
 */
import { prepareResponse, type PreparedResponse } from '../../lib/http-cache.ts'
import { parseChangelog, type ChangelogEntry } from './changelog.ts'
import { TAG } from './front-matter.ts'
import { Library } from './library.ts'
import { changelogAtom, robotsTxt, sitemap } from './feeds.ts'
import { changelogPage, contentPage, indexPage, landingPage, notFoundPage, tagPage, type LandingOptions } from './views.ts'

export interface ContentSources {
  docs: Readonly<Record<string, string>>
  blog: Readonly<Record<string, string>>
  changelog: string
  siteCss: string
  /** The SVG icon of the service host's pages (read when first asked for). */
  favicon?: () => Promise<Uint8Array>
}

const HTML = 'text/html; charset=utf-8'
const PAGE_CACHE = 'public, max-age=300'

export type Section = 'docs' | 'blog'

export class ContentService {
  private readonly prepared = new Map<string, Promise<PreparedResponse>>()
  private parsed: { docs?: Library; blog?: Library; changelog?: readonly ChangelogEntry[] } = {}

  constructor(
    private readonly sources: ContentSources,
    private readonly baseUrl: string,
    private readonly instance: Omit<LandingOptions, 'baseUrl'> = { statusDomain: new URL(baseUrl).host, signupOpen: false },
  ) {}

  /** The front page of the service host. */
  landing(): Promise<PreparedResponse> {
    return this.html('landing', () => landingPage({ baseUrl: this.baseUrl, ...this.instance }))
  }

  // Parsed on first use, so start-up (and every test app) does not pay for Markdown nobody asked for.
  get docs(): Library {
    return (this.parsed.docs ??= new Library('docs', this.sources.docs, 'docs'))
  }

  get blog(): Library {
    return (this.parsed.blog ??= new Library('blog', this.sources.blog, 'newest-first'))
  }

  get changelog(): readonly ChangelogEntry[] {
    return (this.parsed.changelog ??= parseChangelog(this.sources.changelog))
  }

  private once(key: string, make: () => Promise<PreparedResponse>): Promise<PreparedResponse> {
    let hit = this.prepared.get(key)
    if (!hit) {
      hit = make()
      this.prepared.set(key, hit)
    }
    return hit
  }

  private library(section: Section): Library {
    return section === 'docs' ? this.docs : this.blog
  }

  private html(key: string, render: () => string): Promise<PreparedResponse> {
    return this.once(key, () => prepareResponse(200, render(), { contentType: HTML, cacheControl: PAGE_CACHE }))
  }

  notFound(): Promise<PreparedResponse> {
    return this.once('404', () => prepareResponse(404, notFoundPage(), { contentType: HTML, cacheControl: 'no-store' }))
  }

  index(section: Section): Promise<PreparedResponse> {
    return this.html(`${section}:index`, () => indexPage(this.library(section), this.baseUrl))
  }

  /** A page by slug, or the 404 page. Slugs are never echoed unless the page exists. */
  page(section: Section, slug: string): Promise<PreparedResponse> {
    const library = this.library(section)
    const page = library.page(slug)
    if (!page) return this.notFound()
    return this.html(`${section}:page:${page.slug}`, () => contentPage(library, page, this.baseUrl))
  }

  /** The listing of a tag, or the 404 page for a tag no page carries. */
  tag(section: Section, tag: string): Promise<PreparedResponse> {
    const library = this.library(section)
    const pages = TAG.test(tag) ? library.tagged(tag) : undefined
    if (!pages) return this.notFound()
    return this.html(`${section}:tag:${tag}`, () => tagPage(library, tag, pages, this.baseUrl))
  }

  changelogPage(): Promise<PreparedResponse> {
    return this.html('changelog', () => changelogPage(this.changelog, this.baseUrl))
  }

  changelogAtom(): Promise<PreparedResponse> {
    return this.once('changelog.atom', () =>
      prepareResponse(200, changelogAtom(this.changelog, this.baseUrl), {
        contentType: 'application/atom+xml; charset=utf-8',
        cacheControl: PAGE_CACHE,
      }),
    )
  }

  sitemap(): Promise<PreparedResponse> {
    return this.once('sitemap', () =>
      prepareResponse(200, sitemap([this.docs, this.blog], this.changelog, this.baseUrl), {
        contentType: 'application/xml; charset=utf-8',
        cacheControl: PAGE_CACHE,
      }),
    )
  }

  robots(): Promise<PreparedResponse> {
    return this.once('robots', () =>
      prepareResponse(200, robotsTxt(this.baseUrl), { contentType: 'text/plain; charset=utf-8', cacheControl: PAGE_CACHE }),
    )
  }

  favicon(): Promise<PreparedResponse> {
    const load = this.sources.favicon
    if (!load) return this.notFound()
    return this.once('favicon', async () =>
      prepareResponse(200, await load(), { contentType: 'image/svg+xml', cacheControl: 'public, max-age=86400' }),
    )
  }

  siteCss(): Promise<PreparedResponse> {
    return this.once('css', () =>
      prepareResponse(200, this.sources.siteCss, { contentType: 'text/css; charset=utf-8', cacheControl: 'public, max-age=3600' }),
    )
  }
}
