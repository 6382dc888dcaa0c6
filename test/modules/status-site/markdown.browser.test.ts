/**
 * Markdown in every field that takes it (incident updates, maintenance descriptions) on the public
 * page, an incident's page and the history, in real Chromium: the subset renders, raw HTML and
 * javascript: links stay inert (no dialog opens, no element from the message runs), links carry
 * rel="nofollow noopener". The feeds carry the rendered HTML as escaped XML; the v2 JSON gives the
 * text as written, as Statuspage does.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../../helpers/browser.ts'
import { listenTestContext, type ListeningContext } from '../../helpers/listening.ts'
import { json } from '../../helpers/context.ts'

const NOW = Date.UTC(2026, 10, 20, 12)
const ATTACK = [
  '<script>window.__ran = 1; alert(1)</script>',
  '<img src=x onerror="window.__ran = 2; alert(2)">',
  '[click](javascript:window.__ran=3)',
  '[data](data:text/html,<script>alert(4)</script>)',
  '<a href="javascript:alert(5)">raw</a>',
  '[t](https://example.com/" onmouseover="window.__ran=6)',
].join('\n\n')
const MARKDOWN = `We **found** it: see [the post](https://example.com/post).\n\n- one *item*\n- \`code\` item\n\n${ATTACK}`

let site: ListeningContext
let browser: Browser
let incidentId: number
let host: string

beforeAll(async () => {
  site = await listenTestContext({ now: NOW })
  const { ctx } = site
  const { key } = await ctx.createOwner('business')
  const pageId = (await ctx.createPage(key, { slug: 'mdpage', name: 'Markdown Co' })).id
  host = site.statusHost('mdpage')
  const api = (path: string, body: unknown) => ctx.request(`/user/api/v1${path}`, { method: 'POST', key, json: body })
  const created = await api('/incidents', { status_page_id: pageId, title: 'Payments **failing** <script>alert(7)</script>', message: MARKDOWN })
  expect(created.status).toBe(201)
  incidentId = (await json(created)).data.id
  ctx.clock.advance(60_000)
  expect((await api(`/incidents/${incidentId}/updates`, { state: 'identified', message: `Second *update*.\n\n${ATTACK}` })).status).toBe(201)
  const start = NOW + 86_400_000
  const maintenance = await api('/maintenances', { status_page_id: pageId, title: 'DB upgrade', message: `Writes **pause**.\n\n${ATTACK}`, start_at: new Date(start).toISOString(), end_at: new Date(start + 3_600_000).toISOString() })
  expect(maintenance.status).toBe(201)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await site.close()
})

describe('Markdown on the public pages, in Chromium', () => {
  for (const [name, path, messages] of [
    // The open incident shows among the active ones and in the recent days: 2 × 2 updates, and the maintenance.
    ['the status page', '/', 5],
    ['an incident page', '/incidents/:id', 2],
    ['the history', '/history', 2],
  ] as const) {
    test(`${name}: the subset renders, nothing from a message runs`, async () => {
      const page = await browser.newPage()
      const dialogs: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      const response = await page.goto(`${host}${path.replace(':id', String(incidentId))}`)
      expect(response!.status()).toBe(200)
      const found = await page.evaluate(() => {
        const blocks = [...document.querySelectorAll('.message')]
        const inside = (selector: string) => blocks.flatMap((b) => [...b.querySelectorAll(selector)])
        return {
          blocks: blocks.length,
          strong: inside('strong').length,
          lists: inside('ul > li').length,
          code: inside('code').length,
          dangerous: inside('script, img, iframe, object, [onerror], [onclick], [onmouseover]').length,
          links: inside('a').map((a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel') })),
          text: blocks.map((b) => b.textContent).join('\n'),
          ran: (window as unknown as { __ran?: number }).__ran ?? 0,
          scripts: document.querySelectorAll('script').length,
          title: document.title,
        }
      })
      // Give any event handler a chance to fire: hover every link.
      for (const link of await page.locator('.message a').all()) await link.hover()
      expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran ?? 0)).toBe(0)
      expect(found.blocks).toBe(messages)
      expect(found.strong).toBeGreaterThanOrEqual(1)
      expect(found.dangerous).toBe(0)
      expect(found.ran).toBe(0)
      expect(dialogs).toEqual([])
      expect(found.text).toContain('<script>window.__ran = 1; alert(1)</script>')
      for (const link of found.links) {
        expect(link.href).toMatch(/^https:\/\//)
        expect(link.rel).toBe('nofollow noopener')
      }
      // Titles are plain text, not Markdown.
      if (path === '/incidents/:id') expect(found.title).toStartWith('Payments **failing** <script>alert(7)</script>')
      await page.close()
    })
  }
})

describe('Markdown in feeds and the v2 JSON', () => {
  test('RSS and Atom carry the rendered HTML, escaped as XML', async () => {
    const { DOMParser } = await import('@xmldom/xmldom')
    const rss = new DOMParser().parseFromString(await (await fetch(`${host}/history.rss`)).text(), 'text/xml')
    const descriptions = Array.from(rss.getElementsByTagName('description')).map((d) => d.textContent ?? '')
    const first = descriptions.find((d) => d.includes('the post'))!
    expect(first).toContain('<strong>found</strong>')
    expect(first).toContain('<a href="https://example.com/post" rel="nofollow noopener">the post</a>')
    expect(first).toContain('&lt;script&gt;')
    expect(first).not.toContain('<script')
    expect(first).not.toContain('href="javascript')
    expect(first).not.toContain('href="data')
    expect(descriptions.some((d) => d.includes('Writes <strong>pause</strong>.'))).toBe(true)
    const atomText = await (await fetch(`${host}/history.atom`)).text()
    expect(atomText).toContain('<content type="html">')
    const atom = new DOMParser().parseFromString(atomText, 'text/xml')
    const contents = Array.from(atom.getElementsByTagName('content')).map((c) => c.textContent ?? '')
    expect(contents.some((c) => c.includes('Second <em>update</em>.'))).toBe(true)
    expect(contents.every((c) => !c.includes('<script') && !c.includes('<img'))).toBe(true)
  })

  test('the v2 JSON gives the body as written', async () => {
    const body = await (await fetch(`${host}/api/v2/incidents.json`)).json()
    const incident = body.incidents.find((i: { id: string }) => i.id === String(incidentId))
    expect(incident.incident_updates.map((u: { body: string }) => u.body)).toEqual([`Second *update*.\n\n${ATTACK}`, MARKDOWN])
  })
})
