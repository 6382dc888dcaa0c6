/** `GET /metrics`: Prometheus text, off unless METRICS_TOKEN is set, Bearer token, bounded route labels. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { ConfigError, loadConfig } from '../../../src/config.ts'
import { startServer } from '../../../src/main.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { parseExposition, valueOf, type Sample } from './samples.ts'

const TOKEN = 'metrics-token-0123456789abcdefghijklmnopq'
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36'

describe('off by default', () => {
  test('without METRICS_TOKEN, /metrics is 404 with or without a token', async () => {
    const ctx = await createTestContext()
    try {
      expect((await ctx.request('/metrics')).status).toBe(404)
      expect((await ctx.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
      const doc = await json(await ctx.request('/swagger/json'))
      expect(doc.paths['/metrics']).toBeUndefined()
    } finally {
      await ctx.close()
    }
  })

  test('METRICS_TOKEN must be long enough and printable', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined()
    expect(loadConfig({ METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined()
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN)
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError)
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 32 characters')
    expect(() => loadConfig({ METRICS_TOKEN: `${TOKEN} with spaces` })).toThrow('METRICS_TOKEN must be printable ASCII without spaces')
  })
})

describe('with METRICS_TOKEN', () => {
  let ctx: TestContext
  let key: string
  let componentId: number

  const scrape = async (): Promise<Sample[]> => {
    const response = await ctx.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(response.status).toBe(200)
    return parseExposition(await response.text())
  }

  beforeAll(async () => {
    ctx = await createTestContext({ env: { METRICS_TOKEN: TOKEN } })
    key = (await ctx.createOwner('growth')).key
    const page = await ctx.createPage(key, { slug: 'measured', name: 'Measured' })
    const response = await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } })
    componentId = (await json(response)).data.id
  })
  afterAll(() => ctx.close())

  test('a missing, wrong or non-Bearer token is 401, never stored', async () => {
    const attempts: HeadersInit[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${TOKEN}` },
      { authorization: 'Bearer' },
      { 'x-api-key': TOKEN },
      { authorization: `Bearer ${key}` },
    ]
    for (const headers of attempts) {
      const response = await ctx.request('/metrics', { headers })
      expect(response.status).toBe(401)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      expect(await json(response)).toEqual({ error: 'unauthorized' })
    }
  })

  test('the right token: Prometheus text format 0.0.4, not stored', async () => {
    const response = await ctx.request('/metrics', { headers: { authorization: `bearer  ${TOKEN}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const text = await response.text()
    expect(text).toContain('# TYPE lantern_http_requests_total counter')
    expect(text).toContain('# TYPE lantern_http_request_duration_seconds histogram')
  })

  test('requests by route pattern and status; never a raw path or slug', async () => {
    const before = await scrape()
    const labels = { route: '/user/api/v1/components/:id', method: 'GET', status: '200' }
    for (let i = 0; i < 3; i++) expect((await ctx.request(`/user/api/v1/components/${componentId}`, { key })).status).toBe(200)
    expect((await ctx.request('/user/api/v1/components/99999', { key })).status).toBe(404)
    expect((await ctx.request('/no/such/thing-secret-slug')).status).toBe(404)
    expect((await ctx.request('/badge/measured.svg')).status).toBe(200)
    const after = await scrape()
    expect(valueOf(after, 'lantern_http_requests_total', labels) - valueOf(before, 'lantern_http_requests_total', labels)).toBe(3)
    expect(valueOf(after, 'lantern_http_requests_total', { ...labels, status: '404' })).toBe(1)
    expect(valueOf(after, 'lantern_http_requests_total', { route: 'other', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(valueOf(after, 'lantern_http_requests_total', { route: '/badge/:slug', status: '200' })).toBeGreaterThanOrEqual(1)
    const routes = new Set(after.map((s) => s.labels.route).filter(Boolean))
    for (const route of routes) expect(route === 'other' || route!.startsWith('/') || route!.startsWith('status:')).toBe(true)
    const text = after.map((s) => JSON.stringify(s.labels)).join('\n')
    expect(text).not.toContain('thing-secret-slug')
    expect(text).not.toContain('measured')
    for (const route of routes) expect(route).not.toMatch(/\/\d+(\/|$)/)
    expect(valueOf(after, 'lantern_http_requests_total', { route: '/user/api/v1/status-pages', method: 'POST', status: '201' })).toBe(1)
  })

  test('latency histogram buckets per route', async () => {
    await ctx.request('/healthz')
    const samples = await scrape()
    const buckets = samples.filter((s) => s.name === 'lantern_http_request_duration_seconds_bucket' && s.labels.route === '/healthz')
    expect(buckets.length).toBeGreaterThan(5)
    expect(buckets.some((s) => s.labels.le === '+Inf')).toBe(true)
    const count = valueOf(samples, 'lantern_http_request_duration_seconds_count', { route: '/healthz' })
    expect(count).toBeGreaterThanOrEqual(1)
    expect(buckets.find((s) => s.labels.le === '+Inf')!.value).toBe(count)
    expect(valueOf(samples, 'lantern_http_request_duration_seconds_sum', { route: '/healthz' })).toBeGreaterThan(0)
  })

  test('cache hits and misses move; a fast-lane hit answered before the edge counts as a request and a hit', async () => {
    // Query parameters are part of the cache key: an `rtm` not asked for before is a new entry.
    const url = '/api/embed/status?slug=measured&rtm=7'
    const before = await scrape()
    expect((await ctx.request(url)).status).toBe(200) // miss: built from the database
    expect((await ctx.request(url)).status).toBe(200) // hit
    const hit = ctx.app.answerFromCache(new Request(`${ctx.config.baseUrl}${url}`))
    expect(hit?.status).toBe(200)
    const after = await scrape()
    const delta = (name: string, labels?: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels)
    expect(delta('lantern_cache_misses_total')).toBe(1)
    expect(delta('lantern_cache_hits_total')).toBe(2)
    expect(delta('lantern_http_requests_total', { route: '/api/embed/status', method: 'GET', status: '200' })).toBe(3)
    expect(valueOf(after, 'lantern_cache_entries')).toBeGreaterThan(0)
  })

  test('a status host read answered by its fast lane counts under its status route', async () => {
    const url = 'https://measured.status.test/api/v2/components.json'
    expect((await ctx.request(url)).status).toBe(200) // miss: fills the cache
    const before = await scrape()
    expect(ctx.app.answerFromCache(new Request(url))?.status).toBe(200)
    const after = await scrape()
    const delta = (labels: Record<string, string>) => valueOf(after, 'lantern_http_requests_total', labels) - valueOf(before, 'lantern_http_requests_total', labels)
    expect(delta({ route: 'status:/api/v2/components.json', method: 'GET', status: '200' })).toBe(1)
    expect(delta({ route: 'other', method: 'GET', status: '200' })).toBe(0)
  })

  test('database size and page views waiting in the buffer', async () => {
    const view = await ctx.request('https://measured.status.test/', { headers: { 'user-agent': BROWSER, accept: 'text/html' } })
    expect(view.status).toBe(200)
    expect(ctx.app.services.pageViews.pending).toBeGreaterThan(0)
    const samples = await scrape()
    expect(valueOf(samples, 'lantern_page_views_buffered')).toBe(ctx.app.services.pageViews.pending)
    expect(valueOf(samples, 'lantern_database_size_bytes')).toBeGreaterThan(0)
    expect(valueOf(samples, 'lantern_http_requests_total', { route: 'status:/', status: '200' })).toBeGreaterThanOrEqual(1)
    await ctx.app.services.pageViews.flush()
    expect(valueOf(await scrape(), 'lantern_page_views_buffered')).toBe(0)
  })

  test('only on the service host: a status host does not serve /metrics', async () => {
    const response = await ctx.request('https://measured.status.test/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(response.status).toBe(404)
    expect(await response.text()).not.toContain('lantern_http_requests_total')
  })
})

describe('on a listening server', () => {
  test('cache hits answered before the edge are counted; each worker labels its own figures', async () => {
    const ctx = await createTestContext()
    const key = (await ctx.createOwner('growth')).key
    await ctx.createPage(key, { slug: 'wired', name: 'Wired' })
    await ctx.database.close() // the server opens the same file next
    const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', ...ctx.databaseEnv, METRICS_TOKEN: TOKEN }), { workerId: 2 })
    try {
      const base = `http://127.0.0.1:${server.port}`
      for (let i = 0; i < 3; i++) expect((await fetch(`${base}/badge/wired.svg`)).status).toBe(200)
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(response.status).toBe(200)
      const samples = parseExposition(await response.text())
      expect(valueOf(samples, 'lantern_http_requests_total', { route: '/badge/:slug', status: '200', worker: '2' })).toBe(3)
      expect(valueOf(samples, 'lantern_cache_hits_total', { worker: '2' })).toBe(2)
      expect(samples.every((s) => s.labels.worker === '2')).toBe(true)
    } finally {
      await server.stop()
      rmSync(ctx.dir, { recursive: true, force: true })
    }
  })
})
