import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MINUTE_MS } from '../../../src/lib/time.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let growth: { key: string; user: { email: string } }
let pageId: number
let apiId: number
let dnsId: number
const NOW = Date.UTC(2026, 10, 10, 12, 0, 0)

const status = (query: string, headers?: HeadersInit) => ctx.request(`/api/embed/status${query}`, { headers })
const api = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) =>
  ctx.request(`/user/api/v1${path}`, { key: growth.key, ...init })

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  growth = await ctx.createOwner('growth')
  pageId = (await ctx.createPage(growth.key, { slug: 'live', name: 'Live' })).id
  const add = async (name: string, type = 'site') => (await json(await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name, type } }))).data.id as number
  // Two days of history: the component existed since two days ago.
  ctx.clock.set(NOW - 2 * 86_400_000)
  apiId = await add('API', 'api')
  dnsId = await add('DNS', 'dns')
  ctx.clock.set(NOW)
})
afterAll(() => ctx.close())

describe('GET /api/embed/status', () => {
  test('basic status: shape, CORS, Cache-Control, ETag and 304', async () => {
    const response = await status('?slug=live')
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('cache-control')).toBe('public, no-cache')
    const etag = response.headers.get('etag')!
    expect(etag).toMatch(/^W\/"[\w-]+"$/)
    expect(await json(response)).toEqual({
      page: 'live',
      page_name: 'Live',
      page_url: 'https://live.status.test',
      overall: 'operational',
      updated: new Date(NOW).toISOString(),
      incidents: [],
      rtm: [],
      upd: [],
      dns_only: false,
      error_budgets: [],
    })
    // With lang (the widget always sends it, empty when its host page has none): the widget's words.
    const worded = await json(await status('?slug=live&lang='))
    expect({ language: worded.language, words: worded.words }).toEqual({
      language: 'en',
      words: {
        status: { operational: 'Operational', degraded_performance: 'Degraded performance', partial_outage: 'Partial outage', major_outage: 'Major outage', under_maintenance: 'Under maintenance', unknown: 'Unknown' },
        state: { investigating: 'Investigating', identified: 'Identified', monitoring: 'Monitoring', resolved: 'Resolved' },
        incidents: 'Active incidents',
        changed: 'Status changed: {status}',
        unavailable: 'Status unavailable',
        response: 'Response time, last {count} min: min {min} ms, average {avg} ms, max {max} ms',
        uptime: { one: 'Daily uptime, last {count} day', other: 'Daily uptime, last {count} days' },
        today: 'Today',
        days_ago: { one: '{count} day ago', other: '{count} days ago' },
        no_data: 'No data',
        percent: '{percent}% uptime',
      },
    })
    const again = await status('?slug=live', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const head = await ctx.request('/api/embed/status?slug=LIVE', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const preflight = await ctx.request('/api/embed/status', { method: 'OPTIONS', headers: { origin: 'https://else.example', 'access-control-request-method': 'GET' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('inc, rtm and upd: incidents, one value per minute oldest first, daily uptime today last', async () => {
    await api(`/components/${apiId}/checks`, {
      method: 'POST',
      json: [
        { at: new Date(NOW - 2 * MINUTE_MS).toISOString(), ok: true, response_ms: 120 },
        { at: new Date(NOW - 10_000).toISOString(), ok: true, response_ms: 80 },
      ],
    })
    // API down from 06:00 to 12:00 yesterday.
    await api(`/components/${apiId}/history`, {
      method: 'POST',
      json: [
        { status: 'down', at: new Date(NOW - 30 * 3600_000).toISOString() },
        { status: 'up', at: new Date(NOW - 24 * 3600_000).toISOString() },
      ],
    })
    const created = await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: '<b>Slow</b> API', component_ids: [apiId], incident_state_id: '3' } }))
    const body = await json(await status('?slug=live&inc=1&rtm=5&upd=3'))
    expect(body.overall).toBe('degraded_performance')
    expect(body.incidents).toEqual([
      { id: String(created.data.id), title: '<b>Slow</b> API', state: 'monitoring', started: new Date(NOW).toISOString(), component: 'API' },
    ])
    expect(body.rtm).toEqual([null, null, 120, 80, null])
    // Day -2 (from 12:00, both up), yesterday (API down 6 h of 24, DNS up: 42/48), today (12 h up).
    expect(body.upd).toEqual([100, 87.5, 100])
    // Incidents resolved drop out.
    await api(`/incidents/${created.data.id}`, { method: 'PATCH', json: { incident_state_id: '4' } })
    const after = await json(await status('?slug=live&inc=1'))
    expect(after.incidents).toEqual([])
    expect(after.overall).toBe('operational')
  })

  test('changes show at once: the cache is invalidated through the change feed', async () => {
    expect((await json(await status('?slug=live'))).overall).toBe('operational')
    await api(`/components/${apiId}`, { method: 'PATCH', json: { status: 'down' } })
    expect((await json(await status('?slug=live'))).overall).toBe('partial_outage')
    await api(`/components/${dnsId}`, { method: 'PATCH', json: { status: 'down' } })
    expect((await json(await status('?slug=live'))).overall).toBe('major_outage')
    await api(`/components/${apiId}`, { method: 'PATCH', json: { status: 'up' } })
    await api(`/components/${dnsId}`, { method: 'PATCH', json: { status: 'up' } })
    expect((await json(await status('?slug=live'))).overall).toBe('operational')
  })

  test('incidents and maintenance written through the API drop the cached answer at once', async () => {
    const before = await json(await status('?slug=live&inc=1'))
    expect(before.incidents).toEqual([])
    const created = (await json(await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Queue backlog' } }))).data
    const during = await json(await status('?slug=live&inc=1'))
    expect(during.incidents.map((i: { title: string }) => i.title)).toEqual(['Queue backlog'])
    expect(during.incidents[0].component).toBeNull()
    await api(`/incidents/${created.id}`, { method: 'DELETE' })
    expect((await json(await status('?slug=live&inc=1'))).incidents).toEqual([])
    const window = (await json(await api('/maintenances', { method: 'POST', json: { status_page_id: pageId, title: 'Now', start_at: new Date(NOW - 1000).toISOString(), end_at: new Date(NOW + 1000).toISOString() } }))).data
    expect((await json(await status('?slug=live'))).overall).toBe('under_maintenance')
    await api(`/maintenances/${window.id}`, { method: 'DELETE' })
    expect((await json(await status('?slug=live'))).overall).toBe('operational')
  })

  test("the widget's words: in the page's default language, or the best match of lang; one we do not have gives the default", async () => {
    const german = await ctx.createPage(growth.key, { slug: 'sprache', name: 'Sprache', language: 'de' })
    await api(`/status-pages/${german.id}/components`, { method: 'POST', json: { name: 'API' } })
    const words = async (query: string) => {
      const body = await json(await status(`?slug=sprache&lang=${query}`))
      return { language: body.language, operational: body.words.status.operational, state: body.words.state.investigating, uptime: body.words.uptime }
    }
    expect(await words('')).toEqual({ language: 'de', operational: 'Betriebsbereit', state: 'Wird untersucht', uptime: { one: 'Tägliche Verfügbarkeit, letzter {count} Tag', other: 'Tägliche Verfügbarkeit, letzte {count} Tage' } })
    expect((await words('ja')).operational).toBe('正常')
    expect((await words('ja')).uptime).toEqual({ other: '日ごとの稼働率（直近 {count} 日）' })
    // A host page's tag: the region is not needed, the case does not matter.
    expect((await words('en-GB')).language).toBe('en')
    expect((await words('PT')).language).toBe('pt-BR')
    expect((await words('ko')).language).toBe('de')
    // The live page's default is English: its answer in German is another cache entry than its English one.
    expect((await json(await status('?slug=live&lang=de'))).words.today).toBe('Heute')
    expect((await json(await status('?slug=live&lang='))).words.today).toBe('Today')
    // Without lang, no words: readers that build their own display do not pay for them.
    expect(Object.keys(await json(await status('?slug=sprache')))).not.toContain('words')
  })

  test('the new routes are in the OpenAPI document', async () => {
    const doc = await json(await ctx.request('/swagger/json'))
    for (const path of [
      '/api/embed/status',
      '/badge/{slug}',
      '/badge/{slug}/uptime.svg',
      '/static/embed/v1/status.js',
      '/user/api/v1/incidents',
      '/user/api/v1/incidents/{id}/updates',
      '/user/api/v1/incident-templates/{id}/incidents',
      '/user/api/v1/maintenances/{id}',
      '/user/api/v1/components/{id}/checks',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path)
    }
    // The preview is a page for people, not part of the API reference.
    expect(Object.keys(doc.paths)).not.toContain('/embed/preview')
  })

  test('maintenance windows show under_maintenance while active, also without any write at the boundary', async () => {
    await api('/maintenances', {
      method: 'POST',
      json: { status_page_id: pageId, title: 'M', start_at: new Date(NOW + 5_000).toISOString(), end_at: new Date(NOW + 60_000).toISOString() },
    })
    expect((await json(await status('?slug=live'))).overall).toBe('operational')
    ctx.clock.advance(5_000) // the cached entry expires at the window's start
    expect((await json(await status('?slug=live'))).overall).toBe('under_maintenance')
    ctx.clock.advance(60_000)
    expect((await json(await status('?slug=live'))).overall).toBe('operational')
    ctx.clock.set(NOW)
  })

  test('dns_only is true when every component is DNS', async () => {
    const page = await ctx.createPage(growth.key, { slug: 'dns-only', name: 'D' })
    expect((await json(await status('?slug=dns-only'))).dns_only).toBe(false)
    await api(`/status-pages/${page.id}/components`, { method: 'POST', json: { name: 'ns', type: 'dns' } })
    expect((await json(await status('?slug=dns-only'))).dns_only).toBe(true)
  })

  test('malformed or out-of-range parameters: 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['', 'missing slug'],
      ['?slug=', 'missing slug'],
      ['?slug=live&slug=x', 'slug must be given only once'],
      ['?slug=live&inc=2', 'inc must be 0 or 1'],
      ['?slug=live&inc=', 'inc must be 0 or 1'],
      ['?slug=live&inc=true', 'inc must be 0 or 1'],
      ['?slug=live&inc=1&inc=1', 'inc must be given only once'],
      ['?slug=live&rtm=0', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=241', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=-1', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=1.5', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=abc', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=99999999999999999999', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=１０', 'rtm must be an integer from 1 to 240 (minutes)'],
      ['?slug=live&rtm=5&rtm=6', 'rtm must be given only once'],
      ['?slug=live&upd=0', 'upd must be an integer from 1 to 30 (days)'],
      ['?slug=live&upd=31', 'upd must be an integer from 1 to 30 (days)'],
      ['?slug=live&upd=%20', 'upd must be an integer from 1 to 30 (days)'],
      ['?slug=live&lang=de&lang=ja', 'lang must be given only once'],
      ['?slug=live&lang=de_DE', 'lang must be a language tag such as de or pt-BR'],
      ['?slug=live&lang=%3Cscript%3E', 'lang must be a language tag such as de or pt-BR'],
      [`?slug=live&lang=${'x'.repeat(60)}`, 'lang must be a language tag such as de or pt-BR'],
    ]
    for (const [query, error] of cases) {
      const response = await status(query)
      expect(response.status).toBe(400)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await json(response)).toEqual({ error })
    }
    // Bounds are inclusive.
    const edges = await json(await status('?slug=live&rtm=240&upd=30&inc=0'))
    expect(edges.rtm).toHaveLength(240)
    expect(edges.upd).toHaveLength(30)
    expect((await json(await status('?slug=live&rtm=1&upd=1'))).rtm).toHaveLength(1)
  })

  test('unknown, hostile, blocked and private pages are 404 and never echo the slug', async () => {
    const pro = await ctx.createOwner('pro')
    await ctx.createPage(pro.key, { slug: 'secret', name: 'S', visibility: 'private' })
    await ctx.createPage(growth.key, { slug: 'blocked', name: 'B' })
    await ctx.app.services.pages.setBlocked('blocked', true)
    for (const slug of ['nope', 'secret', 'blocked', '<script>', '%00', 'a'.repeat(50_000), 'ünï', '..%2F..']) {
      const response = await status(`?slug=${slug}`)
      expect(response.status).toBe(404)
      const text = await response.text()
      expect(text).toBe('{"error":"not found"}')
    }
  })

  test('plans: free → 403, Pro gets the basic status but not incidents or sparklines', async () => {
    const free = await ctx.createOwner('free')
    await ctx.createPage(free.key, { slug: 'free-page', name: 'F' })
    let response = await status('?slug=free-page')
    expect(response.status).toBe(403)
    expect(await json(response)).toEqual({ error: 'Status API requires Pro plan or higher' })
    const pro = await ctx.createOwner('pro')
    await ctx.createPage(pro.key, { slug: 'pro-page', name: 'P' })
    expect((await status('?slug=pro-page')).status).toBe(200)
    expect((await status('?slug=pro-page&inc=0')).status).toBe(200)
    for (const query of ['inc=1', 'rtm=60', 'upd=7', 'inc=1&rtm=60&upd=7']) {
      response = await status(`?slug=pro-page&${query}`)
      expect(response.status).toBe(403)
      expect(await json(response)).toEqual({ error: 'Incidents and sparklines (inc, rtm, upd) require Growth plan or higher' })
    }
    // An upgrade shows at once.
    await ctx.app.services.accounts.setPlan(pro.user.email, 'growth')
    expect((await status('?slug=pro-page&inc=1&rtm=60&upd=7')).status).toBe(200)
  })
})
