/**
 * A collection of shipped Markdown pages (the docs, the blog): parsed and rendered once, with the
 * tag index the listing pages need.
 */
import { ContentError, parseFrontMatter, type FrontMatter } from './front-matter.ts'
import { renderMarkdown } from './markdown.ts'

export interface ContentPage extends FrontMatter {
  slug: string
  /** Rendered, safe HTML of the body. */
  html: string
}

export type Ordering = 'docs' | 'newest-first'

const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/

export class Library {
  readonly pages: readonly ContentPage[]
  private readonly bySlug: Map<string, ContentPage>
  private readonly byTag = new Map<string, ContentPage[]>()

  constructor(
    /** `docs` or `blog`: the URL segment. */
    readonly section: string,
    files: Readonly<Record<string, string>>,
    ordering: Ordering,
  ) {
    const pages = Object.entries(files).map(([slug, source]): ContentPage => {
      if (!SLUG.test(slug)) throw new ContentError(`${section}/${slug}.md: file names are lower-case words joined by dashes`)
      const { meta, body } = parseFrontMatter(source, `${section}/${slug}.md`)
      let html: string | undefined
      // Rendered when the page is first shown (listings only need the front matter).
      return {
        ...meta,
        slug,
        get html() {
          return (html ??= renderMarkdown(body))
        },
      }
    })
    pages.sort(ordering === 'docs' ? byOrderThenTitle : newestFirst)
    this.pages = pages
    this.bySlug = new Map(pages.map((page) => [page.slug, page]))
    for (const page of pages) {
      for (const tag of page.tags) {
        const list = this.byTag.get(tag) ?? []
        list.push(page)
        this.byTag.set(tag, list)
      }
    }
  }

  page(slug: string): ContentPage | undefined {
    return this.bySlug.get(slug)
  }

  /** Pages with the tag, in the collection's order; undefined for a tag no page carries. */
  tagged(tag: string): readonly ContentPage[] | undefined {
    return this.byTag.get(tag)
  }

  /** Every tag with its page count, alphabetically. */
  tags(): { tag: string; count: number }[] {
    return [...this.byTag.entries()].map(([tag, pages]) => ({ tag, count: pages.length })).sort((a, b) => a.tag.localeCompare(b.tag))
  }
}

/** One collation for every machine (localeCompare without a locale follows the process's). */
const TITLES = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

/** `order`, then title, then slug: the same list on every machine, whatever the files' order. */
function byOrderThenTitle(a: ContentPage, b: ContentPage): number {
  const ao = a.order ?? Number.MAX_SAFE_INTEGER
  const bo = b.order ?? Number.MAX_SAFE_INTEGER
  return ao - bo || TITLES.compare(a.title, b.title) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)
}

function newestFirst(a: ContentPage, b: ContentPage): number {
  return a.date === b.date ? TITLES.compare(a.title, b.title) : a.date < b.date ? 1 : -1
}
