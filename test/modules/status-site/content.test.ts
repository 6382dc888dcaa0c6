/**
 * What a status host shows once there are incidents and maintenance: the page, the history
 * archive, the feeds and the Statuspage-shaped JSON; and markup in every text field staying text.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let owner: { key: string }
let pageId: number
const ids: Record<string, number> = {}
const HOST = 'https://shop.status.test'
const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&'

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key: owner.key, ...init })
const text = async (path: string) => (await ctx.request(`${HOST}${path}`)).text()

beforeAll(async () => {
  ctx = await createTestContext()
  owner = await ctx.createOwner('business')
  pageId = (await ctx.createPage(owner.key, { slug: 'shop', name: `Shop ${XSS}` })).id
  for (const [name, group, type] of [
    ['Storefront', null, 'site'],
    [`Payments ${XSS}`, `Backend ${XSS}`, 'api'],
    ['Resolver', `Backend ${XSS}`, 'dns'],
  ] as const) {
    const r = await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name, group, type } })
    ids[name.split(' ')[0]!] = (await json(r)).data.id
  }
})
afterAll(() => ctx.close())

describe('components, type badges and uptime bars', () => {
  test('groups, type badges, statuses and 90 daily bars per component', async () => {
    const html = await text('/')
    expect(html).toContain('<abbr class="type" title="Website">Site</abbr>')
    expect(html).toContain('<abbr class="type" title="API">API</abbr>')
    expect(html).toContain('<abbr class="type" title="DNS">DNS</abbr>')
    expect(html.match(/<ol class="bars"/g)).toHaveLength(3)
    const firstBars = /<ol class="bars"[^>]*>(.*?)<\/ol>/s.exec(html)![1]!
    expect(firstBars.match(/<li /g)).toHaveLength(90)
    expect(html).toContain('<h3>Backend ')
  })

  test('imported history shows in the bars with per-day details', async () => {
    const day = Date.UTC(2026, 9, 30) // two days before the test clock's "now"
    const response = await api(`/components/${ids.Storefront}/history`, {
      method: 'POST',
      json: [
        { status: 'up', at: new Date(day - 10 * 86_400_000).toISOString() },
        { status: 'down', at: new Date(day + 3_600_000).toISOString() },
        { status: 'up', at: new Date(day + 3 * 3_600_000).toISOString() },
      ],
    })
    expect(response.status).toBe(200)
    const html = await text('/')
    expect(html).toContain('<li class="major" tabindex="0"><span class="tip">30 Oct 2026: 91.66% uptime, down 2 h</span></li>')
    expect(html).toContain('<li class="ok"><span class="tip">29 Oct 2026: 100% uptime</span></li>')
    expect(html).toContain('<li class="none"><span class="tip">1 Oct 2026: no data</span></li>')
  })
})

describe('incidents and maintenance on the page', () => {
  test('an active incident shows with its timeline; the overall status gets worse', async () => {
    const created = await api('/incidents', {
      method: 'POST',
      json: { status_page_id: pageId, component_ids: [ids.Payments], title: `Card payments failing ${XSS}`, message: `We are looking ${XSS}` },
    })
    expect(created.status).toBe(201)
    ids.incident = (await json(created)).data.id
    ctx.clock.advance(10 * 60_000)
    await api(`/incidents/${ids.incident}/updates`, { method: 'POST', json: { state: 'identified', message: 'Found a bad deploy' } })
    const html = await text('/')
    expect(html).toContain('<h2 id="active-incidents">Active incidents</h2>')
    expect(html).toContain('banner--degraded_performance')
    expect(html).toContain('Found a bad deploy')
    expect(html.indexOf('Found a bad deploy')).toBeLessThan(html.indexOf('We are looking')) // newest first
    expect(html).toContain(`<a href="/incidents/${ids.incident}">`)
    expect(html).toMatch(/Started <time datetime="2026-11-01T12:00:00.000Z">1 Nov 2026, 12:00 UTC<\/time>/)
    expect(html).toMatch(/<span class="state">Identified<\/span> &middot; <time datetime="[^"]+">/)
    expect(html).not.toContain('&#60;time')
    const detail = await ctx.request(`${HOST}/incidents/${ids.incident}`)
    expect(detail.status).toBe(200)
    expect(await detail.text()).toContain('Found a bad deploy')
    expect((await ctx.request(`${HOST}/incidents/999999`)).status).toBe(404)
    expect((await ctx.request(`${HOST}/incidents/abc`)).status).toBe(404)
  })

  test('active and upcoming maintenance are shown', async () => {
    const now = ctx.clock.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    for (const [title, start, end] of [
      ['DB upgrade', now - 60_000, now + 3_600_000],
      ['Network swap', now + 86_400_000, now + 90_000_000],
    ] as const) {
      const r = await api('/maintenances', {
        method: 'POST',
        json: { status_page_id: pageId, title, message: `Planned ${XSS}`, start_at: iso(start), end_at: iso(end), component_ids: [ids.Resolver] },
      })
      expect(r.status).toBe(201)
    }
    const html = await text('/')
    expect(html).toContain('<h2 id="maintenance">Maintenance</h2>')
    expect(html).toContain('<strong>In progress</strong>')
    expect(html).toContain('<strong>Scheduled</strong>')
    // The sentence comes from the locale file, each time a <time> in it.
    expect(html).toMatch(/<strong>Scheduled<\/strong>: <time datetime="[^"]+">[^<]+ UTC<\/time> to <time datetime="[^"]+">[^<]+ UTC<\/time>\. Affects: Resolver\./)
    expect(html).toContain('Under maintenance')
  })

  test('resolved incidents move to the history, with an archive', async () => {
    await api(`/incidents/${ids.incident}/updates`, { method: 'POST', json: { state: 'resolved', message: 'Fixed' } })
    // 25 older incidents to page through.
    for (let i = 0; i < 25; i++) {
      const r = await api('/incidents', {
        method: 'POST',
        json: { status_page_id: pageId, title: `Old incident ${i}`, started_at: new Date(Date.UTC(2026, 5, 1 + i)).toISOString(), state: 'resolved', message: 'done' },
      })
      expect(r.status).toBe(201)
    }
    const page = await text('/')
    expect(page).not.toContain('Active incidents')
    expect(page).toContain('<h2 id="past-incidents">Past incidents</h2>')
    expect(page).toContain('Card payments failing')
    const history = await text('/history')
    expect(history).toContain('Card payments failing')
    expect(history).toContain('Old incident 24')
    expect(history).not.toContain('Old incident 4<')
    const older = /href="\/history\?before=(\d+)"/.exec(history)![1]
    const second = await text(`/history?before=${older}`)
    expect(second).toContain('Old incident 4<')
    expect(second).toContain('Old incident 0')
    expect(second).not.toContain('Card payments failing')
    expect((await ctx.request(`${HOST}/history?before=abc`)).status).toBe(400)
  })
})

describe('Statuspage-shaped JSON (api/v2)', () => {
  test('summary.json has the documented fields', async () => {
    const response = await ctx.request(`${HOST}/api/v2/summary.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('cache-control')).toBe('public, no-cache')
    const body = await json(response)
    expect(Object.keys(body).sort()).toEqual(['components', 'incidents', 'page', 'scheduled_maintenances', 'status'])
    expect(body.page).toEqual({ id: 'shop', name: `Shop ${XSS}`, url: 'https://shop.status.test', time_zone: 'Etc/UTC', updated_at: expect.any(String) })
    expect(body.status).toEqual({ indicator: 'maintenance', description: 'Service Under Maintenance' })
    for (const c of body.components) {
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['id', 'name', 'status', 'created_at', 'updated_at', 'position', 'description', 'showcase', 'start_date', 'group_id', 'page_id', 'group', 'only_show_if_degraded']))
      expect(typeof c.id).toBe('string')
      expect(['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance']).toContain(c.status)
    }
    const group = body.components.find((c: { group: boolean }) => c.group)
    expect(group.name).toBe(`Backend ${XSS}`)
    expect(group.components).toEqual([String(ids.Payments), String(ids.Resolver)])
    const payments = body.components.find((c: { id: string }) => c.id === String(ids.Payments))
    expect(payments.group_id).toBe(group.id)
    expect(body.components.find((c: { id: string }) => c.id === String(ids.Resolver)).status).toBe('under_maintenance')
    expect(body.incidents).toEqual([])
    expect(body.scheduled_maintenances).toHaveLength(2)
    const m = body.scheduled_maintenances[0]
    expect(Object.keys(m)).toEqual(expect.arrayContaining(['id', 'name', 'status', 'impact', 'scheduled_for', 'scheduled_until', 'incident_updates', 'components', 'shortlink']))
    expect(m.status).toBe('in_progress')
    expect(m.impact).toBe('maintenance')
    expect(body.scheduled_maintenances[1].status).toBe('scheduled')
  })

  test('status.json, components.json, incidents.json and the unresolved and maintenance lists', async () => {
    const status = await json(await ctx.request(`${HOST}/api/v2/status.json`))
    expect(Object.keys(status).sort()).toEqual(['page', 'status'])
    const components = await json(await ctx.request(`${HOST}/api/v2/components.json`))
    expect(Object.keys(components).sort()).toEqual(['components', 'page'])
    expect(components.components).toHaveLength(4) // three components and one group
    const incidents = await json(await ctx.request(`${HOST}/api/v2/incidents.json`))
    expect(incidents.incidents.length).toBe(26)
    const card = incidents.incidents.find((i: { id: string }) => i.id === String(ids.incident))
    expect(Object.keys(card)).toEqual(
      expect.arrayContaining(['id', 'name', 'status', 'created_at', 'updated_at', 'monitoring_at', 'resolved_at', 'impact', 'shortlink', 'started_at', 'page_id', 'incident_updates', 'components']),
    )
    expect(card.status).toBe('resolved')
    expect(card.resolved_at).toEqual(expect.any(String))
    expect(card.name).toBe(`Card payments failing ${XSS}`)
    expect(card.shortlink).toBe(`https://shop.status.test/incidents/${ids.incident}`)
    expect(card.incident_updates.map((u: { status: string }) => u.status)).toEqual(['resolved', 'identified', 'investigating'])
    expect(Object.keys(card.incident_updates[0])).toEqual(expect.arrayContaining(['id', 'status', 'body', 'incident_id', 'created_at', 'updated_at', 'display_at']))
    expect(card.components.map((c: { id: string }) => c.id)).toEqual([String(ids.Payments)])
    expect((await json(await ctx.request(`${HOST}/api/v2/incidents/unresolved.json`))).incidents).toEqual([])
    expect((await json(await ctx.request(`${HOST}/api/v2/scheduled-maintenances/upcoming.json`))).scheduled_maintenances).toHaveLength(1)
    expect((await json(await ctx.request(`${HOST}/api/v2/scheduled-maintenances/active.json`))).scheduled_maintenances).toHaveLength(1)
    expect((await json(await ctx.request(`${HOST}/api/v2/scheduled-maintenances.json`))).scheduled_maintenances).toHaveLength(2)
    expect((await ctx.request(`${HOST}/api/v2/nothing.json`)).status).toBe(404)
  })
})

describe('feeds', () => {
  test('RSS and Atom list incidents and maintenance as well-formed XML', async () => {
    const rss = await ctx.request(`${HOST}/history.rss`)
    expect(rss.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8')
    const rssText = await rss.text()
    expect(rssText).toStartWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')
    expect(rssText).toContain('<title>[Resolved] Card payments failing &#60;script&#62;')
    expect(rssText).toContain('[Maintenance in progress] DB upgrade')
    const atom = await ctx.request(`${HOST}/history.atom`)
    expect(atom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    const atomText = await atom.text()
    expect(atomText).toContain('<feed xmlns="http://www.w3.org/2005/Atom">')
    expect(atomText.match(/<entry>/g)!.length).toBeGreaterThan(20)
    const { DOMParser } = await import('@xmldom/xmldom')
    for (const xml of [rssText, atomText]) {
      const errors: string[] = []
      new DOMParser({ onError: (level: string, message: string) => void errors.push(`${level}: ${message}`) }).parseFromString(xml, 'text/xml')
      expect(errors).toEqual([])
      expect(xml).not.toContain('<script>')
    }
  })
})

describe('feed items', () => {
  test('each incident update is its own item with its own id, so readers show the resolution', async () => {
    const card = (await json(await ctx.request(`${HOST}/api/v2/incidents.json`))).incidents.find((i: { id: string }) => i.id === String(ids.incident))
    const updateIds: string[] = card.incident_updates.map((u: { id: string }) => u.id) // newest first
    expect(updateIds).toHaveLength(3)
    const { DOMParser } = await import('@xmldom/xmldom')
    const rss = new DOMParser().parseFromString(await text('/history.rss'), 'text/xml')
    const rssItems = Array.from(rss.getElementsByTagName('item'))
      .map((item) => ({
        guid: item.getElementsByTagName('guid')[0]!.textContent,
        title: item.getElementsByTagName('title')[0]!.textContent!,
        link: item.getElementsByTagName('link')[0]!.textContent,
        description: item.getElementsByTagName('description')[0]!.textContent!,
      }))
      .filter((item) => item.title.includes('Card payments failing'))
    expect(rssItems.map((item) => item.guid)).toEqual(updateIds.map((id) => `${HOST}/incidents/${ids.incident}#update-${id}`))
    expect(rssItems.map((item) => item.title.slice(0, item.title.indexOf(']') + 1))).toEqual(['[Resolved]', '[Identified]', '[Investigating]'])
    expect(rssItems.map((item) => item.link)).toEqual(Array(3).fill(`${HOST}/incidents/${ids.incident}`))
    expect(rssItems[0]!.description).toBe('<p>Fixed</p>\n')
    expect(rssItems[1]!.description).toBe('<p>Found a bad deploy</p>\n')
    const atom = new DOMParser().parseFromString(await text('/history.atom'), 'text/xml')
    const atomIds = Array.from(atom.getElementsByTagName('entry'))
      .filter((entry) => entry.getElementsByTagName('title')[0]!.textContent!.includes('Card payments failing'))
      .map((entry) => entry.getElementsByTagName('id')[0]!.textContent)
    expect(atomIds).toEqual(updateIds.map((id) => `${HOST}/incidents/${ids.incident}#update-${id}`))
    // Every id in each feed is unique.
    for (const doc of [rss, atom]) {
      const all = Array.from(doc.getElementsByTagName(doc === rss ? 'guid' : 'id')).map((node) => node.textContent)
      expect(new Set(all).size).toBe(all.length)
    }
  })
})

describe('markup in every text field stays text', () => {
  test('page, component, group, incident, update and maintenance texts are escaped everywhere', async () => {
    await api(`/incidents`, { method: 'POST', json: { status_page_id: pageId, title: `Live ${XSS}`, message: `Update ${XSS}` } })
    const pages = [await text('/'), await text('/history'), await text(`/incidents/${ids.incident}`)]
    for (const html of pages) {
      expect(html).not.toContain('<script>alert(1)</script>')
      expect(html).not.toContain('<img src=x')
      expect(html).not.toMatch(/<[^>]* onerror=/)
      expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;')
    }
    expect(pages[0]).toContain(`<title>Shop &#60;script&#62;alert(1)&#60;/script&#62;&#60;img src&#61;x onerror&#61;alert(2)&#62;&#34;&#39;&#38; status</title>`)
    // The JSON carries the text as data, exactly as written.
    const summary = await json(await ctx.request(`${HOST}/api/v2/summary.json`))
    expect(summary.incidents[0].name).toBe(`Live ${XSS}`)
  })
})
