/**
 * Vendor components against a local vendor status server (Bun.serve answering Statuspage-v2
 * summaries): the component follows the vendor's component or its whole page; an outage there
 * moves it (history, public page, status JSON); a vendor that goes down, answers garbage, a foreign
 * JSON, a redirect or a huge body makes the feed "unknown" — shown as such and never an outage of
 * the page — and a recovery brings it back. Reads go through the address guard; bad input and
 * other owners change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createAddressGuard } from '../../../src/lib/address-guard.ts'
import { readSummary, statusFromSummary } from '../../../src/modules/vendor-feeds/summary.ts'
import { parseFeedUrl, VENDOR_POLL_MS } from '../../../src/modules/vendor-feeds/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testDeps } from '../monitors/fixtures.ts'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0)

type Answer = { kind: 'summary'; api: string; indicator: string; incidents?: unknown[] } | { kind: 'garbage' } | { kind: 'foreign' } | { kind: 'error' } | { kind: 'redirect' } | { kind: 'huge' }

function summary(api: string, indicator: string, incidents: unknown[] = []) {
  return {
    page: { id: 'v1', name: 'Acme <Cloud>', url: 'https://status.acme.example', time_zone: 'Etc/UTC', updated_at: '2026-11-20T11:59:00Z' },
    status: { indicator, description: 'whatever' },
    components: [
      { id: 'c-api', name: 'API', status: api },
      { id: 'c-web', name: 'Website', status: 'operational' },
    ],
    incidents,
    scheduled_maintenances: [],
  }
}

describe('vendor summaries (pure)', () => {
  test('the shape is checked and the status follows the component or the indicator', () => {
    const read = readSummary(summary('partial_outage', 'minor', [{ name: 'API errors', status: 'identified', impact: 'minor', shortlink: 'https://stspg.io/x' }, { name: 'Old', status: 'resolved' }]))
    expect(read.ok).toBe(true)
    if (!read.ok) return
    expect(read.summary.incidents).toEqual([{ name: 'API errors', status: 'identified', impact: 'minor', url: 'https://stspg.io/x' }])
    expect(statusFromSummary(read.summary, 'c-api')).toEqual({ status: 'partial' })
    expect(statusFromSummary(read.summary, 'website')).toEqual({ status: 'up' })
    expect(statusFromSummary(read.summary, null)).toEqual({ status: 'degraded' })
    expect(statusFromSummary(read.summary, 'Billing')).toEqual({ reason: 'the feed has no component "Billing"' })
    expect(readSummary([1, 2])).toEqual({ ok: false, reason: 'the answer is not a JSON object' })
    expect(readSummary({ hello: 'world' })).toEqual({ ok: false, reason: 'no page.name: not a Statuspage v2 summary' })
    // A javascript: shortlink is not a link.
    const sneaky = readSummary(summary('operational', 'none', [{ name: 'x', status: 'investigating', shortlink: 'javascript:alert(1)' }]))
    expect(sneaky.ok && sneaky.summary.incidents[0]!.url).toBeNull()
  })

  test('what the owner types becomes the summary URL, or a clear refusal', () => {
    const guard = createAddressGuard({ resolve: async () => ['93.184.216.34'], allowPrivate: false })
    expect(parseFeedUrl(' https://www.githubstatus.com ', guard)).toBe('https://www.githubstatus.com/api/v2/summary.json')
    expect(parseFeedUrl('https://status.example.com/api/v2/summary.json#x', guard)).toBe('https://status.example.com/api/v2/summary.json')
    expect(() => parseFeedUrl('ftp://example.com/', guard)).toThrow('url must be a full http:// or https:// address')
    expect(() => parseFeedUrl('https://user:pw@example.com/', guard)).toThrow('url must not carry a user name or password')
    expect(() => parseFeedUrl('http://169.254.169.254/latest', guard)).toThrow(/url: 169\.254\.169\.254 is/)
    expect(() => parseFeedUrl('not a url', guard)).toThrow('url must be a full http:// or https:// address')
  })
})

describe('vendor components', () => {
  let ctx: TestContext
  let key: string
  let page: { id: number; slug: string }
  let apiId: number
  let ownId: number
  let vendor: ReturnType<typeof Bun.serve>
  let answer: Answer = { kind: 'summary', api: 'operational', indicator: 'none' }
  let hits = 0

  const feedUrl = () => `http://vendor.example:${vendor.port}/api/v2/summary.json`
  const publicPage = async () => (await ctx.request(`https://${page.slug}.status.test/`)).text()
  const overall = async () => (await json(await ctx.request(`/api/embed/status?slug=${page.slug}`))).overall
  const poll = async () => {
    ctx.clock.advance(VENDOR_POLL_MS)
    return ctx.app.services.vendorFeeds.pollDue()
  }
  const feed = async () => (await json(await ctx.request(`/user/api/v1/components/${apiId}/vendor-feed`, { key }))).data
  // The changes after the status the component was created with.
  const history = async () =>
    (await ctx.database.db.selectFrom('component_status_history').select(['status']).where('component_id', '=', apiId).orderBy('at').orderBy('id').execute()).slice(1)

  beforeAll(async () => {
    vendor = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch() {
        hits++
        switch (answer.kind) {
          case 'summary':
            return Response.json(summary(answer.api, answer.indicator, answer.incidents))
          case 'garbage':
            return new Response('<html>Bad gateway</html>', { headers: { 'content-type': 'text/html' } })
          case 'foreign':
            return Response.json({ status: 'ok' })
          case 'error':
            return new Response('oops', { status: 503 })
          case 'redirect':
            return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/' } })
          case 'huge':
            return new Response(`{"page":{"name":"${'x'.repeat(3 * 1024 * 1024)}"}}`)
        }
      },
    })
    ctx = await createTestContext({ now: NOW, publicCache: true, checkDeps: testDeps({ allowPrivate: true, names: { 'vendor.example': ['127.0.0.1'], 'private.example': ['10.0.0.5'] } }) })
    ;({ key } = await ctx.createOwner('enterprise'))
    page = await ctx.createPage(key, { slug: `vendor-${crypto.randomUUID().slice(0, 6)}`, name: 'Vendor page' })
    const create = async (name: string) =>
      (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name } }))).data.id as number
    apiId = await create('Acme API')
    ownId = await create('Our site')
  })
  afterAll(async () => {
    vendor?.stop(true)
    await ctx?.close()
  })

  test('following a vendor component reads it at once and shows who reports it', async () => {
    const response = await ctx.request(`/user/api/v1/components/${apiId}/vendor-feed`, { method: 'PUT', key, json: { url: feedUrl(), vendor_component: 'API' } })
    expect(response.status).toBe(200)
    const data = (await json(response)).data
    expect(data).toMatchObject({ component_id: apiId, url: feedUrl(), vendor_component: 'API', state: 'ok', reason: null, vendor_name: 'Acme <Cloud>', incidents: [] })
    const html = await publicPage()
    expect(html).toContain('Status reported by Acme &#60;Cloud&#62;.')
    expect(await overall()).toBe('operational')
  })

  test("the vendor's outage moves the component, with its incidents on the page; recovery moves it back", async () => {
    answer = { kind: 'summary', api: 'major_outage', indicator: 'critical', incidents: [{ name: 'API <down>', status: 'investigating', impact: 'critical', shortlink: 'https://stspg.io/abc' }] }
    expect(await poll()).toBe(1)
    expect((await history()).map((h) => h.status)).toEqual(['down'])
    expect(await overall()).toBe('partial_outage')
    const html = await publicPage()
    expect(html).toContain('<a href="https://stspg.io/abc" rel="nofollow noopener">API &#60;down&#62;</a>')
    answer = { kind: 'summary', api: 'operational', indicator: 'none' }
    await poll()
    expect((await history()).map((h) => h.status)).toEqual(['down', 'up'])
    expect(await publicPage()).not.toContain('stspg.io/abc')
  })

  test('a dead, garbled, foreign, redirecting or huge feed is unknown: shown as such, never an outage of the page', async () => {
    answer = { kind: 'summary', api: 'major_outage', indicator: 'critical' }
    await poll()
    expect(await overall()).toBe('partial_outage')
    const reasons: string[] = []
    for (const bad of [{ kind: 'garbage' }, { kind: 'foreign' }, { kind: 'error' }, { kind: 'redirect' }, { kind: 'huge' }] as Answer[]) {
      answer = bad
      await poll()
      const current = await feed()
      expect(current.state).toBe('unknown')
      reasons.push(current.reason)
      // The last status read stays in the history, but the page does not count it.
      expect(await overall()).toBe('operational')
      const html = await publicPage()
      expect(html).toContain('<span class="status status--unknown">Unknown</span>')
      expect(html).toContain("The provider&#39;s status feed cannot be read right now")
    }
    expect(reasons).toEqual([
      'the answer is not JSON',
      'no page.name: not a Statuspage v2 summary',
      'HTTP 503',
      'HTTP 302 (redirects are not followed)',
      'the answer is larger than 2 MiB',
    ])
    const port = vendor.port
    vendor.stop(true)
    await poll()
    expect((await feed()).state).toBe('unknown')
    expect((await history()).map((h) => h.status)).toEqual(['down', 'up', 'down'])
    // The vendor comes back on the same port and is read again.
    vendor = Bun.serve({
      hostname: '127.0.0.1',
      port,
      fetch() {
        hits++
        return Response.json(summary('operational', 'none'))
      },
    })
    await poll()
    expect((await feed()).state).toBe('ok')
    expect(await overall()).toBe('operational')
    expect((await history()).map((h) => h.status)).toEqual(['down', 'up', 'down', 'up'])
  })

  test('a feed is read once per interval, even with two pollers', async () => {
    const before = hits
    expect(await ctx.app.services.vendorFeeds.pollDue()).toBe(0)
    ctx.clock.advance(VENDOR_POLL_MS)
    const [a, b] = await Promise.all([ctx.app.services.vendorFeeds.pollDue(), ctx.app.services.vendorFeeds.pollDue()])
    expect(a + b).toBe(1)
    expect(hits - before).toBe(1)
  })

  test('bad input, refused addresses and other owners change nothing', async () => {
    const put = (body: unknown, asKey = key, id = ownId) => ctx.request(`/user/api/v1/components/${id}/vendor-feed`, { method: 'PUT', key: asKey, json: body })
    expect((await put({ url: 'javascript:alert(1)' })).status).toBe(400)
    const metadata = await put({ url: 'http://169.254.169.254/latest/meta-data' })
    expect(metadata.status).toBe(400)
    expect((await json(metadata)).error).toContain('url: 169.254.169.254 is')
    expect((await put({ url: 'x'.repeat(5000) })).status).toBe(400)
    expect((await put({ url: feedUrl(), vendor_component: 42 })).status).toBe(400)
    expect((await put({})).status).toBe(400)
    expect((await ctx.request(`/user/api/v1/components/${ownId}/vendor-feed`, { key })).status).toBe(404)
    const other = await ctx.createOwner('enterprise')
    expect((await put({ url: feedUrl() }, other.key, apiId)).status).toBe(404)
    expect((await ctx.request(`/user/api/v1/components/${apiId}/vendor-feed`, { key: other.key })).status).toBe(404)
    expect((await ctx.request(`/user/api/v1/components/${apiId}/vendor-feed`, { method: 'DELETE', key: other.key })).status).toBe(404)
    expect((await feed()).url).toBe(feedUrl())
  })

  test('a private address is refused when the instance refuses private targets (the read goes through the guard)', async () => {
    const strict = await createTestContext({ now: NOW, checkDeps: testDeps({ allowPrivate: false, names: { 'vendor.example': ['127.0.0.1'] } }) })
    try {
      const owner = await strict.createOwner('enterprise')
      const p = await strict.createPage(owner.key, { slug: `strict-${crypto.randomUUID().slice(0, 6)}`, name: 'Strict' })
      const id = (await json(await strict.request(`/user/api/v1/status-pages/${p.id}/components`, { method: 'POST', key: owner.key, json: { name: 'X' } }))).data.id
      const before = hits
      const data = (await json(await strict.request(`/user/api/v1/components/${id}/vendor-feed`, { method: 'PUT', key: owner.key, json: { url: feedUrl() } }))).data
      expect(data.state).toBe('unknown')
      expect(data.reason).toContain('vendor.example resolves to 127.0.0.1')
      expect(hits).toBe(before)
    } finally {
      await strict.close()
    }
  })

  test('stopping: the component keeps its status and shows no vendor line', async () => {
    expect((await ctx.request(`/user/api/v1/components/${apiId}/vendor-feed`, { method: 'DELETE', key })).status).toBe(200)
    expect(await publicPage()).not.toContain('Status reported by')
    expect((await ctx.request(`/user/api/v1/components/${apiId}/vendor-feed`, { key })).status).toBe(404)
  })
})
