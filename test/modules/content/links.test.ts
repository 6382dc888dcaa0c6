/**
 * Links users follow: every link on the served docs, blog and changelog pages leads somewhere real
 * (an address the instance answers, an anchor that exists on the page it names), and every link in
 * the repository's README points at a file of the repository (and a heading in it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { BLOG, DOCS } from '../../../src/content/index.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

const ROOT = join(import.meta.dir, '../../..')

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

const decode = (text: string) => text.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'")
const anchorsOf = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1]!)))
const linksOf = (html: string) => [...html.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((m) => decode(m[1]!))

/** The served pages, fetched once each: status and the ids on the page. */
const served = new Map<string, Promise<{ status: number; anchors: Set<string> }>>()
function fetchPage(path: string) {
  let page = served.get(path)
  if (!page) {
    page = ctx.request(path).then(async (response) => ({ status: response.status, anchors: anchorsOf(await response.text()) }))
    served.set(path, page)
  }
  return page
}

/** What is wrong with one link found on the page at `from`, or undefined when it leads somewhere real. */
async function brokenLink(from: string, href: string, fromAnchors: Set<string>): Promise<string | undefined> {
  if (/^(https?:|mailto:)/i.test(href)) return undefined // other sites are not ours to check
  const url = new URL(href, `https://lantern.test${from}`)
  if (url.origin !== 'https://lantern.test') return undefined
  const anchor = url.hash === '' ? undefined : decodeURIComponent(url.hash.slice(1))
  if (url.pathname === from && url.search === '') {
    return anchor === undefined || fromAnchors.has(anchor) ? undefined : `no #${anchor} on ${from}`
  }
  const target = await fetchPage(url.pathname + url.search)
  if (target.status !== 200) return `${url.pathname}${url.search} answers ${target.status}`
  if (anchor !== undefined && !target.anchors.has(anchor)) return `no #${anchor} on ${url.pathname}`
  return undefined
}

describe('links on the served pages', () => {
  const pages = () => [
    ...Object.keys(DOCS).map((slug) => `/docs/${slug}`),
    ...Object.keys(BLOG).map((slug) => `/blog/${slug}`),
    '/docs/',
    '/changelog',
  ]

  test('every link of every guide, post and the changelog leads to an address that answers, and to an anchor on it', async () => {
    const broken: string[] = []
    let checked = 0
    for (const path of pages()) {
      const response = await ctx.request(path)
      expect([path, response.status]).toEqual([path, 200])
      const html = await response.text()
      const anchors = anchorsOf(html)
      for (const href of linksOf(html)) {
        checked++
        const problem = await brokenLink(path, href, anchors)
        if (problem) broken.push(`${path} → ${href}: ${problem}`)
      }
    }
    expect(broken).toEqual([])
    expect(checked).toBeGreaterThan(200)
  })

  test('the checker finds what is broken', async () => {
    const anchors = new Set(['present'])
    expect(await brokenLink('/docs/api', '#present', anchors)).toBeUndefined()
    expect(await brokenLink('/docs/api', '#absent', anchors)).toBe('no #absent on /docs/api')
    expect(await brokenLink('/docs/api', '/docs/no-such-guide', anchors)).toBe('/docs/no-such-guide answers 404')
    expect(await brokenLink('/docs/api', '/docs/operations#no-such-section', anchors)).toBe('no #no-such-section on /docs/operations')
    expect(await brokenLink('/docs/api', '/docs/operations#backups', anchors)).toBeUndefined()
    expect(await brokenLink('/docs/api', 'https://example.com/#x', anchors)).toBeUndefined()
  })
})

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes; repeats get -1, -2… */
function githubAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = text!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '')
const withoutCodeBlocks = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '')
/** Markdown links `[text](target)` and reference definitions `[label]: target`, outside code. */
const markdownLinks = (markdown: string) => {
  const text = withoutCodeBlocks(markdown)
  return [...[...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!), ...[...text.matchAll(/^\[[^\]]+\]:\s+(\S+)/gm)].map((m) => m[1]!)]
}

/**
 * `src/README.md`, the map of the code for contributors, is written once the code has moved; until
 * then the README's link to it is the one link allowed to point at a file not yet in the repository.
 */
const NOT_WRITTEN_YET = existsSync(join(ROOT, 'src/README.md')) ? [] : ['src/README.md']

function brokenReadmeLink(readmePath: string, href: string): string | undefined {
  if (/^(https?:|mailto:)/i.test(href)) return undefined
  const [path = '', anchor] = href.split('#')
  const file = path === '' ? readmePath : join(dirname(readmePath), path)
  const relative = file.slice(ROOT.length + 1)
  if (!existsSync(file)) return NOT_WRITTEN_YET.includes(relative) ? undefined : `${relative} does not exist`
  if (anchor !== undefined && !githubAnchors(readFileSync(file, 'utf8')).has(anchor)) return `no heading #${anchor} in ${relative}`
  return undefined
}

describe("the README's links", () => {
  const readmePath = join(ROOT, 'README.md')
  const readme = readFileSync(readmePath, 'utf8')

  test('every link points at a file of the repository, and at a heading in it', () => {
    const links = markdownLinks(readme)
    expect(links.length).toBeGreaterThan(15)
    expect(links.map((href) => [href, brokenReadmeLink(readmePath, href)]).filter(([, problem]) => problem)).toEqual([])
  })

  test('every shipped guide is linked from the README, so the list of guides stays whole', () => {
    const linked = new Set(markdownLinks(readme).map((href) => href.split('#')[0]))
    expect(Object.keys(DOCS).filter((slug) => !linked.has(`src/content/docs/${slug}.md`))).toEqual([])
  })

  test('the checker finds what is broken', () => {
    expect(brokenReadmeLink(readmePath, 'src/content/docs/api.md')).toBeUndefined()
    expect(brokenReadmeLink(readmePath, 'src/content/docs/nothing.md')).toBe('src/content/docs/nothing.md does not exist')
    expect(brokenReadmeLink(readmePath, 'test/bench/README.md#no-such-heading')).toBe('no heading #no-such-heading in test/bench/README.md')
    expect(githubAnchors("## Issue 24: screens a new owner opens (`bun run bench screens`)\n## A page's status\n## A page's status")).toEqual(
      new Set(['issue-24-screens-a-new-owner-opens-bun-run-bench-screens', 'a-pages-status', 'a-pages-status-1']),
    )
  })
})
