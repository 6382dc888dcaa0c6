/**
 * The front door routes each request by host once and asks the fast lane at most once, on every
 * path: a cache hit, a miss that goes on to the app, a status host, and with the request log on.
 */
import { describe, expect, test } from 'bun:test'
import { readOperationsConfig } from '../../src/config.ts'
import { FastLane } from '../../src/http/fast-lane.ts'
import { createFront } from '../../src/http/front.ts'
import { createHostRouter, type HostRouter } from '../../src/http/host-router.ts'
import { prepareWithoutEtag } from '../../src/lib/http-cache.ts'

const prepared = (text: string, cacheControl = 'no-store') => prepareWithoutEtag(200, text, { contentType: 'text/plain', cacheControl })

function counted(env: Record<string, string> = {}) {
  const counts = { route: 0, fastLane: 0, app: 0, site: 0, siteLane: 0 }
  const real = createHostRouter({ baseUrl: 'https://lantern.test', statusDomain: 'status.test' })
  const router: HostRouter = { route: (host) => (counts.route++, real.route(host)) }
  const fastLane = new (class extends FastLane {
    override answer(request: Request, url?: string, path?: string) {
      counts.fastLane++
      return super.answer(request, url, path)
    }
  })()
  const hot = prepared('hot', 'public, max-age=60')
  fastLane.register('/hot', () => hot)
  const lines: string[] = []
  const front = createFront({
    router,
    fastLane,
    serviceApp: () => (counts.app++, new Response('from the app')),
    isCorsOpenPath: () => false,
    privateEmbed: () => undefined,
    statusSiteHit: (_request, route, context) => {
      counts.siteLane++
      return route.kind === 'status' && context.path === '/warm' ? prepared('warm status read') : undefined
    },
    statusSite: async () => (counts.site++, new Response('status site')),
    operations: readOperationsConfig(env, 3000),
    serviceOrigin: 'https://lantern.test',
    log: (line) => lines.push(line),
    logError: () => {},
  })
  return { front, counts, lines }
}

const request = (url: string) => new Request(url, { headers: { host: new URL(url).host } })

describe('one front door', () => {
  test('a cache hit: host-routed once, fast lane asked once, the app never reached', async () => {
    const { front, counts } = counted()
    const response = await front.fetch(request('https://lantern.test/hot'), '203.0.113.9')
    expect(await response.text()).toBe('hot')
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000')
    expect(counts).toEqual({ route: 1, fastLane: 1, app: 0, site: 0, siteLane: 0 })
  })

  test('a miss: the fast lane is not asked a second time on the way to the app', async () => {
    const { front, counts } = counted()
    expect(await (await front.fetch(request('https://lantern.test/cold'), '203.0.113.9')).text()).toBe('from the app')
    expect(counts).toEqual({ route: 1, fastLane: 1, app: 1, site: 0, siteLane: 0 })
  })

  test('a status host: routed once, never the service fast lane; its own lane asked once, a miss goes on to the site', async () => {
    const { front, counts } = counted()
    expect(await (await front.fetch(request('https://acme.status.test/hot'), '203.0.113.9')).text()).toBe('status site')
    expect(counts).toEqual({ route: 1, fastLane: 0, app: 0, site: 1, siteLane: 1 })
  })

  test('a warm status-host read: answered by its lane, the status site never reached, HSTS added', async () => {
    const { front, counts } = counted()
    const hit = front.fetch(request('https://acme.status.test/warm'), '203.0.113.9')
    expect(hit).toBeInstanceOf(Response)
    expect(await (hit as Response).text()).toBe('warm status read')
    expect((hit as Response).headers.get('strict-transport-security')).toBe('max-age=31536000')
    expect(counts).toEqual({ route: 1, fastLane: 0, app: 0, site: 0, siteLane: 1 })
  })

  test('with the request log on, a warm status-host read takes the full path and is logged', async () => {
    const { front, counts, lines } = counted({ REQUEST_LOG: '1' })
    expect(await (await front.handle(request('https://acme.status.test/warm'))).text()).toBe('status site')
    expect(counts).toEqual({ route: 1, fastLane: 0, app: 0, site: 1, siteLane: 0 })
    expect(lines).toHaveLength(1)
  })

  test('with the request log on, a hit takes the full path (logged) and still asks the fast lane once', async () => {
    const { front, counts, lines } = counted({ REQUEST_LOG: '1' })
    expect(await (await front.handle(request('https://lantern.test/hot'))).text()).toBe('hot')
    expect(counts).toEqual({ route: 1, fastLane: 1, app: 0, site: 0, siteLane: 0 })
    expect(lines).toHaveLength(1)
  })

  test('a private embed (`auth_token`) never comes from the cache', async () => {
    const { front, counts } = counted()
    expect(await (await front.fetch(request('https://lantern.test/hot?auth_token=x'), '203.0.113.9')).text()).toBe('hot')
    // Answered by the full path (its fast lane would be the route's cache read); the hit lane was skipped.
    expect(counts.route).toBe(1)
    expect(front.answerFromCache(request('https://lantern.test/hot?auth_token=x'))).toBeUndefined()
  })
})
