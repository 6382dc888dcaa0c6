import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DOMParser } from '@xmldom/xmldom'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { STATUS_COLOURS } from '../../../src/modules/status-pipeline/colours.ts'

let ctx: TestContext
let owner: { key: string; user: { email: string } }
let pageId: number
let componentId: number
const NOW = Date.UTC(2026, 10, 10, 12, 0, 0)

// The colours of DESIGN §5.2 (green, yellow, orange, red, blue, gray) as every public surface draws them.
const tone = (name: keyof typeof STATUS_COLOURS) => STATUS_COLOURS[name].light
const HEX = { green: tone('operational'), yellow: tone('degraded_performance'), orange: tone('partial_outage'), red: tone('major_outage'), blue: tone('under_maintenance'), gray: tone('unknown') }

/** Parses the SVG strictly as XML (throws on anything malformed) and reads what people see. */
function readBadge(svg: string) {
  const doc = new DOMParser({
    onError: (level: string, message: string) => {
      throw new Error(`${level}: ${message}`)
    },
  }).parseFromString(svg, 'image/svg+xml')
  const root = doc.documentElement!
  expect(root.nodeName).toBe('svg')
  const title = doc.getElementsByTagName('title')[0]?.textContent ?? ''
  const fills = Array.from(doc.getElementsByTagName('rect')).map((r) => r.getAttribute('fill'))
  return { title, fills, scripts: doc.getElementsByTagName('script').length, aria: root.getAttribute('aria-label') }
}

const badge = (path: string, init?: RequestInit) => ctx.request(path, init)
const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key: owner.key, ...init })

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  owner = await ctx.createOwner('pro')
  pageId = (await ctx.createPage(owner.key, { slug: 'shiny', name: 'Shiny <script>alert(1)</script> & "Co"' })).id
  ctx.clock.set(NOW - 10 * 86_400_000)
  componentId = (await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'API' } }))).data.id
  ctx.clock.set(NOW)
})
afterAll(() => ctx.close())

describe('GET /badge/<slug>.svg', () => {
  test('an SVG with the page name as label, Operational in green; markup in the name stays text', async () => {
    const response = await badge('/badge/shiny.svg')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, no-cache')
    expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/)
    const svg = await response.text()
    expect(svg).not.toContain('<script')
    const read = readBadge(svg)
    // The name is clamped to 32 characters (31 + an ellipsis).
    expect(read.title).toBe('Shiny <script>alert(1)</script>…: Operational')
    expect(read.scripts).toBe(0)
    expect(read.fills).toContain(HEX.green)
  })

  test('value and colour follow the overall status at once', async () => {
    const expectations: Array<[() => Promise<unknown>, string, string]> = [
      [() => api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'degraded' } }), 'Degraded', HEX.yellow],
      [() => api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'down' } }), 'Down', HEX.red],
      [
        async () => {
          await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'Web' } })
        },
        'Partial Outage',
        HEX.orange,
      ],
      [
        async () => {
          await api(`/components/${componentId}`, { method: 'PATCH', json: { status: 'up' } })
          await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: 'M', start_at: new Date(NOW - 1000).toISOString(), end_at: new Date(NOW + 3600_000).toISOString() } })
        },
        'Maintenance',
        HEX.blue,
      ],
    ]
    for (const [change, text, colour] of expectations) {
      await change()
      const read = readBadge(await (await badge('/badge/shiny.svg?label=API')).text())
      expect(read.title).toBe(`API: ${text}`)
      expect(read.fills).toContain(colour)
    }
    // After the window the badge is green again, without any write (the cache entry ends at the boundary).
    ctx.clock.set(NOW + 3600_000)
    expect(readBadge(await (await badge('/badge/shiny.svg?label=API')).text()).title).toBe('API: Operational')
    ctx.clock.set(NOW)
    for (const window of (await json(await api(`/maintenances?status_page_id=${pageId}`))).data) {
      await api(`/maintenances/${window.id}`, { method: 'DELETE' })
    }
    expect(readBadge(await (await badge('/badge/shiny.svg?label=API')).text()).title).toBe('API: Operational')
  })

  test('label and style parameters; label clamped to 32 characters; unknown style draws flat', async () => {
    const long = 'L'.repeat(100)
    expect(readBadge(await (await badge(`/badge/shiny.svg?label=${long}`)).text()).title).toBe(`${'L'.repeat(31)}…: Operational`)
    const emoji = '🚦'.repeat(40)
    expect(readBadge(await (await badge(`/badge/shiny.svg?label=${encodeURIComponent(emoji)}`)).text()).title).toBe(`${'🚦'.repeat(31)}…: Operational`)
    const markup = readBadge(await (await badge(`/badge/shiny.svg?label=${encodeURIComponent('<a href="x">&amp;</a>')}`)).text())
    expect(markup.title).toBe('<a href="x">&amp;</a>: Operational')
    expect(readBadge(await (await badge('/badge/shiny.svg?label=%20')).text()).title).toStartWith('Shiny')
    const flat = await (await badge('/badge/shiny.svg?label=x')).text()
    for (const style of ['flat-square', 'plastic', 'for-the-badge', 'social']) {
      const svg = await (await badge(`/badge/shiny.svg?label=x&style=${style}`)).text()
      readBadge(svg)
      expect(svg).not.toBe(flat)
    }
    expect(await (await badge('/badge/shiny.svg?label=x&style=<bogus>')).text()).toBe(flat)
  })

  test('labels that draw the same share one cache entry, so long labels cannot bloat the cache', async () => {
    const before = ctx.app.publicCache!.size
    const bodies = new Set<string>()
    for (let i = 0; i < 20; i++) bodies.add(await (await badge(`/badge/shiny.svg?label=${'P'.repeat(40)}${i}${'x'.repeat(5000)}`)).text())
    expect(bodies.size).toBe(1)
    expect(ctx.app.publicCache!.size).toBe(before + 1)
  })

  test('ETag answers 304; HEAD has the headers and no body', async () => {
    const first = await badge('/badge/shiny.svg')
    const etag = first.headers.get('etag')!
    const again = await badge('/badge/shiny.svg', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const head = await badge('/badge/shiny.svg', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8')
    expect(await head.text()).toBe('')
  })

  test('unknown, blocked, private pages and plans without badges: a gray Unknown that renders', async () => {
    const free = await ctx.createOwner('free')
    await ctx.createPage(free.key, { slug: 'freebie', name: 'Free Page' })
    await ctx.createPage(owner.key, { slug: 'hidden', name: 'Hidden Name', visibility: 'private' })
    await ctx.createPage(owner.key, { slug: 'stopped', name: 'Stopped Name' })
    await ctx.app.services.pages.setBlocked('stopped', true)
    for (const slug of ['nobody', 'freebie', 'hidden', 'stopped', 'UPPER-nobody', '%3Cscript%3E', 'x'.repeat(5000)]) {
      const response = await badge(`/badge/${slug}.svg`)
      expect(response.status).toBe(200)
      const svg = await response.text()
      const read = readBadge(svg)
      expect(read.title).toBe('Status: Unknown')
      expect(read.fills).toContain(HEX.gray)
      expect(svg).not.toContain('Name')
    }
    expect((await badge('/badge/shiny')).status).toBe(404)
    // Upper case slug finds the page.
    expect(readBadge(await (await badge('/badge/SHINY.svg?label=A')).text()).title).toBe('A: Operational')
  })
})

describe('GET /badge/<slug>/uptime.svg', () => {
  test('uptime over the last N days from the status history, with colour thresholds', async () => {
    const page = (await ctx.createPage(owner.key, { slug: 'uptime', name: 'U' })).id
    ctx.clock.set(NOW - 20 * 86_400_000)
    const id = (await json(await api(`/status-pages/${page}/components`, { method: 'POST', json: { name: 'A' } }))).data.id
    ctx.clock.set(NOW)
    let read = readBadge(await (await badge('/badge/uptime/uptime.svg?days=7')).text())
    expect(read.title).toBe('uptime: 100%')
    expect(read.fills).toContain(HEX.green)
    // Down for 12 hours three days ago.
    await api(`/components/${id}/history`, {
      method: 'POST',
      json: [
        { status: 'down', at: new Date(NOW - 3 * 86_400_000).toISOString() },
        { status: 'up', at: new Date(NOW - 3 * 86_400_000 + 12 * 3600_000).toISOString() },
      ],
    })
    read = readBadge(await (await badge('/badge/uptime/uptime.svg?days=7&label=SLA')).text())
    // 7 UTC days ending now (today is half over): 12 h down of 6.5 days = 92.307… %, shown rounded
    // down like on the status page.
    expect(read.title).toBe('SLA: 92.3%')
    expect(read.fills).toContain(HEX.red) // below 95 % is red (from 99.9 green, 99 yellow, 95 orange)
    read = readBadge(await (await badge('/badge/uptime/uptime.svg?days=1')).text())
    expect(read.title).toBe('uptime: 100%')
    read = readBadge(await (await badge('/badge/uptime/uptime.svg?days=90')).text())
    expect(read.title).toMatch(/^uptime: 9\d\.\d+%$/)
    read = readBadge(await (await badge('/badge/uptime/uptime.svg')).text())
    expect(read.title).toMatch(/^uptime: 9\d\.\d+%$/)
  })

  test('days must be 1–90: else 400 naming the parameter', async () => {
    for (const days of ['0', '91', '-1', '1.5', 'x', '', '999999999999']) {
      const response = await badge(`/badge/uptime/uptime.svg?days=${days}`)
      expect(response.status).toBe(400)
      expect(await json(response)).toEqual({ error: 'days must be an integer from 1 to 90' })
    }
    expect((await badge('/badge/uptime/uptime.svg?days=1&days=2')).status).toBe(400)
    expect((await badge('/badge/uptime/uptime.svg?days=1')).status).toBe(200)
  })

  test('unknown or private pages get a gray Unknown uptime badge', async () => {
    for (const slug of ['nobody', 'hidden', 'freebie']) {
      const read = readBadge(await (await badge(`/badge/${slug}/uptime.svg?days=30`)).text())
      expect(read.title).toBe('uptime: Unknown')
      expect(read.fills).toContain(HEX.gray)
    }
  })
})
