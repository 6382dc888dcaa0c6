import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { ManualClock } from '../helpers/clock.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { clientAddress } from '../../src/http/edge/client-address.ts'
import { readOperationsConfig } from '../../src/config.ts'
import { createEdge } from '../../src/http/edge/edge.ts'
import { RateLimiter } from '../../src/http/edge/rate-limit.ts'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let slug: string
beforeAll(async () => {
  ctx = await createTestContext()
  const { key } = await ctx.createOwner('enterprise')
  slug = (await ctx.createPage(key, { slug: 'edge-test', name: 'Edge', custom_domain: 'status.edge-test.com' })).slug
})
afterAll(() => ctx.close())

const operations = (env: Record<string, string> = {}) => readOperationsConfig(env, 3000)
const visitor = '203.0.113.7'

describe('rate limit on public APIs', () => {
  test('429 with Retry-After after the limit, per client, and tokens come back with time', async () => {
    const clock = new ManualClock()
    const edge = createEdge((r) => ctx.app.handle(r), { operations: operations({ RATE_LIMIT: '5' }), serviceOrigin: 'https://lantern.test', clock })
    const ask = (ip: string) => edge(new Request(`https://lantern.test/api/embed/markdown?slug=${slug}`), ip)
    for (let i = 0; i < 5; i++) expect((await ask(visitor)).status).toBe(200)
    const limited = await ask(visitor)
    expect(limited.status).toBe(429)
    expect(await json(limited)).toEqual({ error: 'too many requests' })
    expect(limited.headers.get('content-type')).toBe('application/json; charset=utf-8')
    // 5 a minute: one token every 12 s.
    expect(limited.headers.get('retry-after')).toBe('12')
    expect(limited.headers.get('access-control-allow-origin')).toBe('*')
    // Another client is not affected.
    expect((await ask('198.51.100.1')).status).toBe(200)
    // IPv4-mapped IPv6 is the same client.
    expect((await ask(`::ffff:${visitor}`)).status).toBe(429)
    clock.advance(11_000)
    expect((await ask(visitor)).status).toBe(429)
    clock.advance(1_000)
    expect((await ask(visitor)).status).toBe(200)
    expect((await ask(visitor)).status).toBe(429)
  })

  test('pages, badges and the management API are not limited; loopback is not limited; 0 turns it off', async () => {
    const clock = new ManualClock()
    const edge = createEdge((r) => ctx.app.handle(r), { operations: operations({ RATE_LIMIT: '1' }), serviceOrigin: 'https://lantern.test', clock })
    for (let i = 0; i < 3; i++) {
      expect((await edge(new Request('https://lantern.test/docs/'), visitor)).status).toBe(200)
      expect((await edge(new Request('https://lantern.test/user/api/v1/status-pages'), visitor)).status).toBe(401)
      expect((await edge(new Request(`https://lantern.test/api/embed/markdown?slug=${slug}`), '127.0.0.1')).status).toBe(200)
      expect((await edge(new Request(`https://lantern.test/api/embed/markdown?slug=${slug}`, { method: 'OPTIONS' }), visitor)).status).not.toBe(429)
    }
    const off = createEdge((r) => ctx.app.handle(r), { operations: operations({ RATE_LIMIT: '0' }), serviceOrigin: 'https://lantern.test', clock })
    for (let i = 0; i < 20; i++) expect((await off(new Request(`https://lantern.test/api/embed/markdown?slug=${slug}`), visitor)).status).toBe(200)
  })

  test('the limiter stays bounded under a flood of addresses', () => {
    const limiter = new RateLimiter(10, new ManualClock(), 1000)
    for (let i = 0; i < 5000; i++) limiter.take(`10.0.${i >> 8}.${i & 255}`)
    expect(limiter.size).toBeLessThanOrEqual(1000)
  })
})

describe('client address', () => {
  const trusted = new Set(['127.0.0.1', '10.0.0.2'])
  test('X-Forwarded-For is believed only from a trusted proxy, right to left', () => {
    expect(clientAddress('198.51.100.9', '203.0.113.7', trusted)).toBe('198.51.100.9')
    expect(clientAddress('127.0.0.1', '203.0.113.7', trusted)).toBe('203.0.113.7')
    expect(clientAddress('127.0.0.1', '1.2.3.4, 203.0.113.7, 10.0.0.2', trusted)).toBe('203.0.113.7')
    expect(clientAddress('127.0.0.1', 'garbage, 203.0.113.7', trusted)).toBe('203.0.113.7')
    expect(clientAddress('127.0.0.1', '203.0.113.7, garbage', trusted)).toBe('127.0.0.1')
    expect(clientAddress('127.0.0.1', null, trusted)).toBe('127.0.0.1')
    expect(clientAddress('::ffff:127.0.0.1', '2001:db8::1', trusted)).toBe('2001:db8::1')
    expect(clientAddress(undefined, '203.0.113.7', trusted)).toBeUndefined()
  })
})

describe('security headers', () => {
  const edge = createEdge((r) => ctx.app.handle(r), { operations: operations(), serviceOrigin: 'https://lantern.test' })

  test('HTML on the service host: CSP without inline scripts, no framing, nosniff', async () => {
    const response = await edge(new Request('https://lantern.test/docs/'), visitor)
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self'")
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d]))
    expect(directives['script-src']).toBe("script-src 'self'") // no inline scripts, no eval
    expect(directives['style-src']).toBe("style-src 'self' 'unsafe-inline'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })

  test('HTML on a status-page host may be framed and may load assets from the service origin', async () => {
    const edgeWith = createEdge(async () => new Response('<p>page</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } }), {
      operations: operations(),
      serviceOrigin: 'https://lantern.test',
    })
    const response = await edgeWith(new Request('https://acme.status.test/'), visitor)
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self' https://lantern.test")
    expect(csp).toContain('frame-ancestors *')
    expect(response.headers.get('x-frame-options')).toBeNull()
  })

  test('a policy set by a feature is kept; SVG gets a script-free policy without frame-ancestors; JSON is open', async () => {
    const own = createEdge(async () => new Response('<p/>', { headers: { 'content-type': 'text/html', 'content-security-policy': "default-src 'none'" } }), {
      operations: operations(),
      serviceOrigin: 'https://lantern.test',
    })
    expect((await own(new Request('https://lantern.test/x'), visitor)).headers.get('content-security-policy')).toBe("default-src 'none'")
    const svg = createEdge(async () => new Response('<svg/>', { headers: { 'content-type': 'image/svg+xml' } }), {
      operations: operations(),
      serviceOrigin: 'https://lantern.test',
    })
    const badge = await svg(new Request('https://lantern.test/badge/x.svg'), visitor)
    expect(badge.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:")
    expect(badge.headers.get('x-frame-options')).toBeNull()
    const api = await edge(new Request(`https://lantern.test/api/embed/markdown?slug=${slug}`), visitor)
    expect(api.headers.get('content-security-policy')).toBeNull()
    expect(api.headers.get('x-frame-options')).toBeNull()
    expect(api.headers.get('x-content-type-options')).toBe('nosniff')
    // Redirects and immutable responses get headers too.
    const redirect = await edge(new Request('https://lantern.test/docs'), visitor)
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff')
    const immutable = createEdge(async () => Response.redirect('https://lantern.test/', 302), { operations: operations(), serviceOrigin: 'https://lantern.test' })
    expect((await immutable(new Request('https://lantern.test/x'), visitor)).headers.get('x-content-type-options')).toBe('nosniff')
  })
})

describe('Strict-Transport-Security', () => {
  test('sent on every response of the service host, status hosts and custom domains when BASE_URL is https; never over an http BASE_URL', async () => {
    const edge = createEdge((r) => ctx.app.handle(r), { operations: operations(), serviceOrigin: 'https://lantern.test' })
    for (const url of ['https://lantern.test/docs/', `https://lantern.test/api/embed/markdown?slug=${slug}`, `https://${slug}.status.test/`, 'https://status.edge-test.com/', 'https://nowhere.example/']) {
      const response = await edge(new Request(url), visitor)
      expect(`${url} ${response.headers.get('strict-transport-security')}`).toBe(`${url} max-age=31536000`)
    }
    // A cache hit answered by the fast lane (the edge's `cached` path) carries it too.
    const hit = `https://lantern.test/api/embed/markdown?slug=${slug}`
    const hitResponse = await edge(new Request(hit), visitor, (r) => ctx.app.answerFromCache(r))
    expect(ctx.app.answerFromCache(new Request(hit))).toBeDefined()
    expect(hitResponse.headers.get('strict-transport-security')).toBe('max-age=31536000')
    // Over an http BASE_URL: the whole front door of such an app (its own edge included), from a socket.
    const http = await createTestContext({ env: { BASE_URL: 'http://lantern.test' } })
    try {
      const plain = createEdge((r) => http.app.handle(r), { operations: operations(), serviceOrigin: 'http://lantern.test' })
      expect((await plain(new Request('http://lantern.test/docs/'), visitor)).headers.get('strict-transport-security')).toBeNull()
      expect((await http.app.fetch(new Request('http://lantern.test/docs/'), visitor)).headers.get('strict-transport-security')).toBeNull()
    } finally {
      await http.close()
    }
  })
})

describe('request log', () => {
  test('one JSON line per request, without the query string, only when enabled', async () => {
    const lines: string[] = []
    const clock = new ManualClock(Date.UTC(2026, 10, 24, 10))
    const edge = createEdge((r) => ctx.app.handle(r), {
      operations: operations({ REQUEST_LOG: '1' }),
      serviceOrigin: 'https://lantern.test',
      clock,
      log: (line) => lines.push(line),
    })
    await edge(new Request(`https://lantern.test/api/embed/markdown?slug=${slug}&token=secret`, { headers: { 'user-agent': 'test-agent' } }), visitor)
    await edge(new Request('https://lantern.test/nope'), '::1')
    expect(lines).toHaveLength(2)
    const first = JSON.parse(lines[0]!)
    expect(first).toMatchObject({ time: '2026-11-24T10:00:00.000Z', method: 'GET', host: 'lantern.test', path: '/api/embed/markdown', status: 200, ip: visitor, ua: 'test-agent' })
    expect(typeof first.ms).toBe('number')
    expect(lines[0]).not.toContain('secret')
    expect(JSON.parse(lines[1]!)).toMatchObject({ path: '/nope', status: 404, ip: '::1' })

    const quiet: string[] = []
    const off = createEdge((r) => ctx.app.handle(r), { operations: operations(), serviceOrigin: 'https://lantern.test', log: (l) => quiet.push(l) })
    await off(new Request('https://lantern.test/healthz'), visitor)
    expect(quiet).toHaveLength(0)
  })
})

describe('configuration', () => {
  test('defaults and bad values name the variable', () => {
    expect(operations()).toEqual({ workers: 1, requestLog: false, rateLimitPerMinute: 600, trustedProxies: ['127.0.0.1', '::1'] })
    expect(operations({ TRUST_PROXY: 'none' }).trustedProxies).toEqual([])
    expect(operations({ WORKERS: '4', REQUEST_LOG: 'on', RATE_LIMIT: '0', TRUST_PROXY: '127.0.0.1, ::1' })).toEqual({
      workers: 4,
      requestLog: true,
      rateLimitPerMinute: 0,
      trustedProxies: ['127.0.0.1', '::1'],
    })
    const bad: [Record<string, string>, string][] = [
      [{ WORKERS: '0' }, 'WORKERS'],
      [{ WORKERS: '2.5' }, 'WORKERS'],
      [{ WORKERS: '65' }, 'WORKERS'],
      [{ RATE_LIMIT: '-1' }, 'RATE_LIMIT'],
      [{ REQUEST_LOG: 'maybe' }, 'REQUEST_LOG'],
      [{ TRUST_PROXY: 'proxy.local' }, 'TRUST_PROXY'],
      [{ TRUST_PROXY: '300.1.1.1' }, 'TRUST_PROXY'],
    ]
    for (const [env, name] of bad) expect(() => loadConfig(env)).toThrow(name)
    expect(() => loadConfig({ WORKERS: '2', PORT: '0' })).toThrow('WORKERS above 1 needs a fixed PORT')
  })
})

describe('through a listening server', () => {
  let server: RunningServer
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lantern-edge-'))
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'db.sqlite'), RATE_LIMIT: '3', TRUST_PROXY: '127.0.0.1' }),
    )
  })
  afterAll(async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('behind a trusted proxy the forwarded client is limited: 429 after the limit', async () => {
    // A new unknown slug each time: one unknown slug is itself cached (briefly) after its first miss.
    let unknown = 0
    const get = (forwarded: string) =>
      fetch(`http://127.0.0.1:${server.port}/api/embed/markdown?slug=nothing-here-${unknown++}`, { headers: { 'x-forwarded-for': forwarded } })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await get('203.0.113.50')).status)
    expect(statuses).toEqual([404, 404, 404, 429, 429])
    const limited = await get('203.0.113.50')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect((await get('203.0.113.51')).status).toBe(404)
    // Security headers are on real responses too.
    const docs = await fetch(`http://127.0.0.1:${server.port}/docs/`)
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
