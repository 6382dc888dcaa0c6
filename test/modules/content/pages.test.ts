import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { BLOG, DOCS } from '../../../src/content/index.ts'
import { ContentError, parseFrontMatter } from '../../../src/modules/content/front-matter.ts'
import { contentRoutes } from '../../../src/modules/content/index.ts'
import { renderMarkdown } from '../../../src/modules/content/markdown.ts'
import { ContentService } from '../../../src/modules/content/service.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

const text = async (path: string) => {
  const response = await ctx.request(path)
  return { status: response.status, type: response.headers.get('content-type'), location: response.headers.get('location'), body: await response.text() }
}

describe('docs and blog through HTTP', () => {
  test('every guide in src/content/docs is registered, so none is left off /docs', async () => {
    const files = [...new Bun.Glob('*.md').scanSync(new URL('../../../src/content/docs/', import.meta.url).pathname)]
    expect(files.length).toBeGreaterThan(10)
    for (const file of files) expect(Object.keys(DOCS)).toContain(file.replace(/\.md$/, ''))
    const monitors = await text('/docs/monitors')
    expect(monitors.status).toBe(200)
    expect(monitors.body).toContain('private-address guard')
  })

  test('the docs the issue asks for exist and render', async () => {
    for (const slug of ['getting-started', 'embedding', 'custom-domains', 'private-pages', 'api', 'operations']) {
      const page = await text(`/docs/${slug}`)
      expect(page.status).toBe(200)
      expect(page.type).toBe('text/html; charset=utf-8')
      expect(page.body).toContain(`<link rel="canonical" href="https://lantern.test/docs/${slug}">`)
      expect(page.body.length).toBeGreaterThan(2000)
    }
    const index = await text('/docs/')
    expect(index.status).toBe(200)
    // The docs index follows `order`, then the title: guides of equal order come alphabetically.
    const listed = [...index.body.matchAll(/<li>\s*<a href="\/docs\/([a-z-]+)">([^<]+)<\/a>/g)].map((m) => ({ slug: m[1]!, title: m[2]! }))
    expect(listed.length).toBe(Object.keys(DOCS).length)
    const order = (slug: string) => Number(/^order: (\d+)$/m.exec(DOCS[slug]!)![1])
    for (let i = 1; i < listed.length; i++) {
      const [before, after] = [listed[i - 1]!, listed[i]!]
      const inOrder = order(before.slug) < order(after.slug) || (order(before.slug) === order(after.slug) && before.title.toLowerCase() < after.title.toLowerCase())
      expect({ before, after, inOrder }).toEqual({ before, after, inOrder: true })
    }
    expect(listed[0]!.slug).toBe('getting-started')
    expect(index.body).toContain('href="/docs/tag/setup/"')
  })

  test('index and tag pages without the trailing slash answer 301; pages with one answer 301 the other way', async () => {
    const cases: [string, string][] = [
      ['/docs', '/docs/'],
      ['/blog', '/blog/'],
      ['/docs/tag/setup', '/docs/tag/setup/'],
      ['/blog/tag/announcement', '/blog/tag/announcement/'],
      ['/docs/tag/setup?ref=x', '/docs/tag/setup/?ref=x'],
      ['/docs/embedding/', '/docs/embedding'],
      ['/blog/introducing-lantern/', '/blog/introducing-lantern'],
    ]
    for (const [from, to] of cases) {
      const response = await text(from)
      expect([from, response.status, response.location]).toEqual([from, 301, to])
    }
  })

  test('a tag page lists exactly the pages with that tag', async () => {
    const page = await text('/docs/tag/setup/')
    expect(page.status).toBe(200)
    const tagged = Object.entries(DOCS)
      .filter(([slug, source]) => parseFrontMatter(source, slug).meta.tags.includes('setup'))
      .map(([slug]) => slug)
    expect(tagged.length).toBeGreaterThan(1)
    const listed = [...page.body.matchAll(/<li>\s*<a href="\/docs\/([a-z0-9-]+)">/g)].map((m) => m[1])
    expect(listed.sort()).toEqual(tagged.sort())
    const blogTag = await text('/blog/tag/announcement/')
    expect(blogTag.status).toBe(200)
    expect(blogTag.body).toContain('href="/blog/introducing-lantern"')
  })

  test('unknown pages and tags are the HTML 404 page, and never echo the input', async () => {
    for (const path of [
      '/docs/tag/no-such-tag/',
      '/blog/tag/no-such-tag/',
      '/docs/tag/%3Cscript%3E/',
      '/docs/no-such-page',
      '/blog/no-such-post',
      '/docs/a/b/c',
      `/docs/tag/${'x'.repeat(5000)}/`,
      '/docs/tag/%F0%9F%92%A5/',
      '/docs/tag/setup%00/',
      '/docs/tag/SETUP/',
    ]) {
      const page = await text(path)
      expect([path.slice(0, 40), page.status, page.type]).toEqual([path.slice(0, 40), 404, 'text/html; charset=utf-8'])
      expect(page.body).toContain('<h1>Not found</h1>')
      expect(page.body).not.toContain('<script')
      expect(page.body).not.toContain('no-such')
    }
    // An unknown tag without the slash redirects first, then 404s.
    expect((await text('/docs/tag/no-such-tag')).status).toBe(301)
  })

  test('robots.txt and sitemap.xml on the service host', async () => {
    const robots = await text('/robots.txt')
    expect(robots.status).toBe(200)
    expect(robots.type).toBe('text/plain; charset=utf-8')
    expect(robots.body).toContain('Sitemap: https://lantern.test/sitemap.xml')
    expect(robots.body).toContain('Disallow: /user/')
    const sitemap = await text('/sitemap.xml')
    expect(sitemap.status).toBe(200)
    expect(sitemap.type).toBe('application/xml; charset=utf-8')
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)
    for (const slug of Object.keys(DOCS)) expect(locs).toContain(`https://lantern.test/docs/${slug}`)
    for (const slug of Object.keys(BLOG)) expect(locs).toContain(`https://lantern.test/blog/${slug}`)
    expect(locs).toContain('https://lantern.test/changelog')
    expect(locs).toContain('https://lantern.test/docs/tag/setup/')
    // Every URL in the sitemap answers 200.
    for (const loc of locs) expect([loc, (await ctx.request(loc)).status]).toEqual([loc, 200])
  })

  test('the stylesheet the pages link is served', async () => {
    const css = await ctx.request('/static/site.css')
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
  })
})

describe('Markdown stays harmless', () => {
  const nasty = `---
title: <script>alert("title")</script>
date: 2026-01-01
tags: [xss]
summary: "\\"><img src=x onerror=alert(1)>"
---

<script>window.pwned = 1</script>

<img src="x" onerror="alert(2)">

<iframe src="https://evil.example"></iframe>

[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCg0KTwvc2NyaXB0Pg==) [vb](VBSCRIPT:msgbox) [ok](https://example.com)

![img](javascript:alert(5))

<a href="javascript:alert(6)">raw link</a>

## <b onclick="x()">heading</b>
`

  test('raw HTML comes out as text and dangerous links are not links', () => {
    const out = renderMarkdown(nasty.split('---\n')[2]!)
    expect(out).not.toMatch(/<(script|img|iframe|a href="javascript|b )/i)
    expect(out).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;')
    expect(out).not.toMatch(/href="(javascript|data|vbscript):/i)
    expect(out).toContain('<a href="https://example.com">ok</a>')
    expect(out).not.toContain('src="javascript')
  })

  test('through a page: front matter is escaped too, no element from the source survives', async () => {
    const service = new ContentService({ docs: { nasty }, blog: {}, changelog: '## 2026-01-01\n### New\n- <script>alert(7)</script> [x](javascript:alert(8))\n', siteCss: '' }, 'https://lantern.test')
    const app = new Elysia().use(contentRoutes(service))
    const page = await (await app.handle(new Request('https://lantern.test/docs/nasty'))).text()
    const main = page.slice(page.indexOf('<main'))
    expect(main).not.toMatch(/<(script|img|iframe)\b/i)
    expect(main).not.toMatch(/<[a-z][^>]*\son\w+=/i)
    expect(page).not.toMatch(/<title>[^<]*<script/)
    expect(page).toContain('&#60;script&#62;alert(&#34;title&#34;)&#60;/script&#62;')
    const changelog = await (await app.handle(new Request('https://lantern.test/changelog'))).text()
    expect(changelog).not.toContain('<script>alert(7)')
    expect(changelog).not.toMatch(/href="javascript:/i)
  })

  test('front matter mistakes are refused', () => {
    expect(() => parseFrontMatter('no front matter', 'x')).toThrow(ContentError)
    expect(() => parseFrontMatter('---\ndate: 2026-01-01\n---\n', 'x')).toThrow('title is required')
    expect(() => parseFrontMatter('---\ntitle: a\ndate: yesterday\n---\n', 'x')).toThrow('date must be YYYY-MM-DD')
    expect(() => parseFrontMatter('---\ntitle: a\ndate: 2026-01-01\ntags: [Bad Tag]\n---\n', 'x')).toThrow('tag "Bad Tag"')
    expect(() => parseFrontMatter('---\ntitle: a\ndate: 2026-01-01\nauthor: me\n---\n', 'x')).toThrow('unknown front matter key')
  })

  test('every shipped doc and post has valid front matter and at least one tag', () => {
    for (const [slug, source] of [...Object.entries(DOCS), ...Object.entries(BLOG)]) {
      const { meta } = parseFrontMatter(source, slug)
      expect([slug, meta.tags.length > 0]).toEqual([slug, true])
    }
  })
})
