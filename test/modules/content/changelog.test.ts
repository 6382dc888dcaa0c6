import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CHANGELOG_MARKDOWN } from '../../../src/content/index.ts'
import { parseChangelog } from '../../../src/modules/content/changelog.ts'
import { changelogAtom } from '../../../src/modules/content/feeds.ts'
import { ContentError } from '../../../src/modules/content/front-matter.ts'
import { changelogPage } from '../../../src/modules/content/views.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

const fixture = readFileSync(join(import.meta.dir, 'fixtures/CHANGELOG.md'), 'utf8')

describe('parseChangelog (fixture)', () => {
  const entries = parseChangelog(fixture)

  test('entries are newest first; same-day entries keep file order and get anchors numbered from the oldest', () => {
    expect(entries.map((e) => [e.date, e.anchor, e.title])).toEqual([
      ['2026-03-01', '2026-03-01-2', undefined],
      ['2026-03-01', '2026-03-01', 'Same day, second entry'],
      ['2026-02-10', '2026-02-10', 'Middle'],
      ['2026-01-05', '2026-01-05', 'Older release'],
    ])
  })

  test('groups come in the order New, Improvement, Updated, Fixed whatever the file order', () => {
    expect(entries[2]!.groups.map((g) => g.group)).toEqual(['New', 'Improvement', 'Updated', 'Fixed'])
    expect(entries[3]!.groups.map((g) => g.group)).toEqual(['New', 'Fixed'])
    expect(entries[0]!.groups.map((g) => g.group)).toEqual(['Improvement', 'Updated'])
  })

  test('every line has its own anchor; continuation lines join the item', () => {
    expect(entries[2]!.groups.find((g) => g.group === 'Fixed')!.items).toEqual([
      { anchor: '2026-02-10-fixed-1', text: 'Fix one' },
      { anchor: '2026-02-10-fixed-2', text: 'Fix two' },
    ])
    expect(entries[0]!.groups[0]!.items[0]!.text).toBe('Lower-case group heading is accepted and continued on a second line')
    const anchors = entries.flatMap((e) => [e.anchor, ...e.groups.flatMap((g) => g.items.map((i) => i.anchor))])
    expect(new Set(anchors).size).toBe(anchors.length)
  })

  test('the page renders entries in order with anchors and groups', () => {
    const page = changelogPage(entries, 'https://lantern.test')
    const order = ['id="2026-03-01-2"', 'id="2026-03-01"', 'id="2026-02-10"', 'id="2026-01-05"'].map((id) => page.indexOf(id))
    expect(order.every((at) => at > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    const middle = page.slice(order[2], order[3])
    const groups = ['<h3>New</h3>', '<h3>Improvement</h3>', '<h3>Updated</h3>', '<h3>Fixed</h3>'].map((h) => middle.indexOf(h))
    expect(groups.every((at) => at > 0)).toBe(true)
    expect([...groups].sort((a, b) => a - b)).toEqual(groups)
    expect(page).toContain('<li id="2026-02-10-fixed-2">Fix two')
    expect(page).toContain('<code>code</code>')
    expect(page).toContain('<a href="https://example.com">a link</a>')
  })

  test('the Atom feed has one entry per dated entry, newest first, with escaped HTML content', () => {
    const atom = changelogAtom(entries, 'https://lantern.test')
    expect(atom.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true)
    expect(atom).toContain('<updated>2026-03-01T00:00:00Z</updated>')
    const ids = [...atom.matchAll(/<entry>\s*<id>([^<]+)<\/id>/g)].map((m) => m[1])
    expect(ids).toEqual([
      'https://lantern.test/changelog#2026-03-01-2',
      'https://lantern.test/changelog#2026-03-01',
      'https://lantern.test/changelog#2026-02-10',
      'https://lantern.test/changelog#2026-01-05',
    ])
    // HTML inside <content type="html"> is escaped, so the XML stays well-formed.
    const content = /<content type="html">([^]*?)<\/content>/.exec(atom)![1]!
    expect(content).not.toContain('<')
    expect(content).toContain('&lt;h3&gt;Improvement&lt;/h3&gt;')
  })
})

describe('parseChangelog refuses mistakes instead of dropping lines', () => {
  const cases: [string, string][] = [
    ['## 2026-01-01\n### Added\n- x', 'group must be one of New, Improvement, Updated, Fixed'],
    ['## 2026-01-01\n- x', 'needs a group heading'],
    ['## January 2026\n### New\n- x', 'entry heading'],
    ['## 2026-01-01\n### New\n', 'has no changes'],
    ['### New\n- x', 'before the first dated entry'],
    ['## 2026-01-01\n### New\nplain text', 'expected'],
    ['## 2026-13-45\n### New\n- x', 'not a date'],
  ]
  for (const [source, message] of cases) {
    test(JSON.stringify(source), () => {
      expect(() => parseChangelog(source)).toThrow(ContentError)
      expect(() => parseChangelog(source)).toThrow(message)
    })
  }
})

describe('the shipped changelog', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext()
  })
  afterAll(() => ctx.close())

  test('parses and starts with the newest entry', () => {
    const entries = parseChangelog(CHANGELOG_MARKDOWN)
    expect(entries.length).toBeGreaterThanOrEqual(2)
    const dates = entries.map((e) => e.date)
    expect([...dates].sort().reverse()).toEqual(dates)
    expect(entries.at(-1)!.groups[0]!.items.some((i) => i.text.includes('Management API'))).toBe(true)
  })

  test('GET /changelog is HTML with every entry; /changelog/ redirects; the feed is Atom', async () => {
    const page = await ctx.request('/changelog')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const body = await page.text()
    for (const entry of parseChangelog(CHANGELOG_MARKDOWN)) expect(body).toContain(`id="${entry.anchor}"`)
    expect(body).toContain('<link rel="alternate" type="application/atom+xml"')
    const again = await ctx.request('/changelog', { headers: { 'if-none-match': page.headers.get('etag')! } })
    expect(again.status).toBe(304)

    const slash = await ctx.request('/changelog/?x=1')
    expect(slash.status).toBe(301)
    expect(slash.headers.get('location')).toBe('/changelog?x=1')

    const atom = await ctx.request('/changelog.atom')
    expect(atom.status).toBe(200)
    expect(atom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    const xml = await atom.text()
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">')
    expect(xml).toContain('<link rel="self" type="application/atom+xml" href="https://lantern.test/changelog.atom"/>')
  })
})
