/** The monitors management API over the real app: CRUD, validation, ownership, plan limits, results and availability. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number
let componentId: number

beforeAll(async () => {
  ctx = await createTestContext()
  ;({ key } = await ctx.createOwner('pro'))
  pageId = (await ctx.createPage(key, { slug: 'mon-api', name: 'Mon API' })).id
  const component = await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'Website' } })
  componentId = (await json(component)).data.id
})
afterAll(() => ctx.close())

const create = (body: Record<string, unknown>, as = key) => ctx.request('/user/api/v1/monitors', { method: 'POST', key: as, json: body })

describe('CRUD', () => {
  test('create, get, list, patch, pause, resume, delete in the hosted shape', async () => {
    const created = await create({ name: 'Site', type: 'http', target: 'https://example.com/health', interval_seconds: 60, component_id: componentId })
    expect(created.status).toBe(201)
    const monitor = (await json(created)).data
    expect(monitor).toMatchObject({
      name: 'Site',
      type: 'http',
      target: 'https://example.com/health',
      interval_seconds: 60,
      enabled: true,
      component_id: componentId,
      status_page_id: pageId,
      status_page_slug: 'mon-api',
      state: 'pending',
      timeout_ms: 10_000,
      retries: 2,
      confirm_failures: 2,
    })
    expect(typeof monitor.created_at).toBe('string')
    // First runs are spread over the interval, never all at once.
    const next = Date.parse(monitor.next_run_at)
    expect(next).toBeGreaterThanOrEqual(ctx.clock.now())
    expect(next).toBeLessThan(ctx.clock.now() + 60_000)

    const got = await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key }))
    expect(got.data.id).toBe(monitor.id)
    const list = await json(await ctx.request('/user/api/v1/monitors', { key }))
    expect(list.meta.count).toBeGreaterThanOrEqual(1)

    const patched = await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { method: 'PATCH', key, json: { name: 'Site 2', accepted_status: '200-299,301' } })
    expect(patched.status).toBe(200)
    expect((await json(patched)).data).toMatchObject({ name: 'Site 2', options: { accepted_status: '200-299,301' } })

    const paused = await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/pause`, { method: 'POST', key }))
    expect(paused.data).toMatchObject({ enabled: false, state: 'paused', next_run_at: null })
    const resumed = await json(await ctx.request(`/user/api/v1/monitors/${monitor.id}/resume`, { method: 'POST', key }))
    expect(resumed.data).toMatchObject({ enabled: true, state: 'pending' })

    expect((await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { method: 'DELETE', key })).status).toBe(200)
    expect((await ctx.request(`/user/api/v1/monitors/${monitor.id}`, { key })).status).toBe(404)
  })

  test('a push monitor answers its push URL once, and never again', async () => {
    const created = await json(await create({ name: 'Nightly job', type: 'push', interval_seconds: 3600 }))
    expect(created.data.push_url).toMatch(/^https:\/\/lantern\.test\/api\/push\/[A-Za-z0-9_-]{32}$/)
    const again = await json(await ctx.request(`/user/api/v1/monitors/${created.data.id}`, { key }))
    expect(again.data.push_url).toBeUndefined()
  })
})

describe('validation: 400 naming the field, nothing stored', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['no target', { name: 'x', type: 'http' }, /target is required/],
    ['not a URL', { name: 'x', type: 'http', target: 'example.com' }, /^target: /],
    ['loopback target', { name: 'x', type: 'http', target: 'http://127.0.0.1:8080/' }, /^target: /],
    ['metadata target', { name: 'x', type: 'tcp', target: '169.254.169.254:80' }, /^target: /],
    ['bad status list', { name: 'x', type: 'http', target: 'https://example.com', accepted_status: '200-' }, /^accepted_status: /],
    ['bad condition', { name: 'x', type: 'json', target: 'https://example.com', conditions: ['[STATUS] = 200'] }, /^conditions: condition 1: .*column/],
    ['json without conditions', { name: 'x', type: 'json', target: 'https://example.com' }, /conditions/],
    ['keyword without keyword', { name: 'x', type: 'keyword', target: 'https://example.com' }, /keyword is required/],
    ['tcp without port', { name: 'x', type: 'tcp', target: 'db.example.com' }, /^port: /],
    ['unknown type', { name: 'x', type: 'icmp', target: 'example.com' }, /type must be one of/],
    ['interval too short', { name: 'x', type: 'http', target: 'https://example.com', interval_seconds: 5 }, /interval_seconds/],
    ['timeout over the limit', { name: 'x', type: 'http', target: 'https://example.com', timeout_ms: 120_000 }, /timeout_ms/],
    ['push with a target', { name: 'x', type: 'push', target: 'https://example.com' }, /^target: /],
  ]
  for (const [label, body, message] of cases) {
    test(label, async () => {
      const before = (await json(await ctx.request('/user/api/v1/monitors', { key }))).meta.count
      const response = await create(body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(message)
      expect((await json(await ctx.request('/user/api/v1/monitors', { key }))).meta.count).toBe(before)
    })
  }

  test('a bad patch changes nothing', async () => {
    const id = (await json(await create({ name: 'p', type: 'http', target: 'https://example.com' }))).data.id
    const response = await ctx.request(`/user/api/v1/monitors/${id}`, { method: 'PATCH', key, json: { target: 'http://10.0.0.1/' } })
    expect(response.status).toBe(400)
    expect((await json(await ctx.request(`/user/api/v1/monitors/${id}`, { key }))).data.target).toBe('https://example.com')
    const toPush = await ctx.request(`/user/api/v1/monitors/${id}`, { method: 'PATCH', key, json: { type: 'push', target: null } })
    expect(toPush.status).toBe(400)
  })
})

describe('ownership: another owner’s monitor, component or page is 404', () => {
  test('monitors, components and pages of others', async () => {
    const other = await ctx.createOwner('pro')
    const mine = (await json(await create({ name: 'mine', type: 'http', target: 'https://example.com' }))).data.id
    for (const [method, path] of [
      ['GET', `/user/api/v1/monitors/${mine}`],
      ['PATCH', `/user/api/v1/monitors/${mine}`],
      ['DELETE', `/user/api/v1/monitors/${mine}`],
      ['POST', `/user/api/v1/monitors/${mine}/pause`],
      ['GET', `/user/api/v1/monitors/${mine}/results`],
      ['GET', `/user/api/v1/monitors/${mine}/availability`],
      ['GET', `/user/api/v1/monitors/${mine}/state-changes`],
    ] as const) {
      const response = await ctx.request(path, { method, key: other.key, ...(method === 'PATCH' ? { json: { name: 'x' } } : {}) })
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 404`)
    }
    expect((await create({ name: 'x', type: 'http', target: 'https://example.com', component_id: componentId }, other.key)).status).toBe(404)
    expect((await create({ name: 'x', type: 'http', target: 'https://example.com', status_page_id: pageId }, other.key)).status).toBe(404)
    expect((await json(await ctx.request('/user/api/v1/monitors', { key: other.key }))).meta.count).toBe(0)
  })

  test('without a key: 401', async () => {
    expect((await ctx.request('/user/api/v1/monitors')).status).toBe(401)
  })
})

describe('plan limits from the plan matrix: 403 naming the limit and the count', () => {
  test('free: 5 monitors, 300 s minimum; the default interval follows the plan', async () => {
    const free = await ctx.createOwner('free')
    const short = await create({ name: 'x', type: 'http', target: 'https://example.com', interval_seconds: 60 }, free.key)
    expect(short.status).toBe(403)
    expect((await json(short)).error).toMatch(/interval_seconds 60 is below the Free plan's minimum of 300 s/)
    for (let i = 0; i < 5; i++) {
      const ok = await create({ name: `m${i}`, type: 'http', target: 'https://example.com' }, free.key)
      expect(ok.status).toBe(201)
      expect((await json(ok)).data.interval_seconds).toBe(300)
    }
    const sixth = await create({ name: 'm6', type: 'http', target: 'https://example.com' }, free.key)
    expect(sixth.status).toBe(403)
    expect((await json(sixth)).error).toBe('the Free plan allows 5 monitors and you have 5')
  })

  test('paid plans go down to 30 s', async () => {
    expect((await create({ name: 'fast', type: 'http', target: 'https://example.com', interval_seconds: 30 })).status).toBe(201)
  })

  test('10 s from Business up; Pro and Growth stop at 30 s; below 10 s no plan goes', async () => {
    for (const plan of ['business', 'oss_hero', 'enterprise'] as const) {
      const owner = await ctx.createOwner(plan)
      const fast = await create({ name: 'fast', type: 'http', target: 'https://example.com', interval_seconds: 10 }, owner.key)
      expect({ plan, status: fast.status }).toEqual({ plan, status: 201 })
      expect((await json(fast)).data.interval_seconds).toBe(10)
    }
    for (const plan of ['pro', 'growth'] as const) {
      const owner = await ctx.createOwner(plan)
      const fast = await create({ name: 'fast', type: 'http', target: 'https://example.com', interval_seconds: 10 }, owner.key)
      expect({ plan, status: fast.status }).toEqual({ plan, status: 403 })
      expect((await json(fast)).error).toMatch(/interval_seconds 10 is below the (Pro|Growth) plan's minimum of 30 s/)
    }
    const business = await ctx.createOwner('business')
    const tooFast = await create({ name: 'too fast', type: 'http', target: 'https://example.com', interval_seconds: 9 }, business.key)
    expect(tooFast.status).toBe(400)
    expect((await json(tooFast)).error).toContain('interval_seconds must be a whole number from 10 to 86400')
    const id = (await json(await create({ name: 'slow', type: 'http', target: 'https://example.com' }, business.key))).data.id
    const patched = await ctx.request(`/user/api/v1/monitors/${id}`, { method: 'PATCH', key: business.key, json: { interval_seconds: 10 } })
    expect(patched.status).toBe(200)
    expect((await json(patched)).data).toMatchObject({ interval_seconds: 10, timeout_ms: 8_000 })
  })
})

describe('results and availability', () => {
  test('empty at first; bad queries are 400', async () => {
    const id = (await json(await create({ name: 'r', type: 'http', target: 'https://example.com' }))).data.id
    const results = await json(await ctx.request(`/user/api/v1/monitors/${id}/results`, { key }))
    expect(results).toEqual({ data: [], meta: { count: 0, next_before: null } })
    const availability = await json(await ctx.request(`/user/api/v1/monitors/${id}/availability?period=7d`, { key }))
    expect(availability.data).toMatchObject({ period: '7d', uptime_percent: null, downtime_seconds: 0, incidents: 0 })
    expect((await ctx.request(`/user/api/v1/monitors/${id}/availability?period=2d`, { key })).status).toBe(400)
    expect((await ctx.request(`/user/api/v1/monitors/${id}/results?limit=0`, { key })).status).toBe(400)
  })

  test('the state changes (downtime log): created pending, then paused, oldest first', async () => {
    const id = (await json(await create({ name: 's', type: 'http', target: 'https://example.com' }))).data.id
    await ctx.request(`/user/api/v1/monitors/${id}/pause`, { method: 'POST', key })
    const changes = (await json(await ctx.request(`/user/api/v1/monitors/${id}/state-changes`, { key }))).data
    expect(changes.map((c: { state: string }) => c.state)).toEqual(['pending', 'paused'])
    expect(changes[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T/)
  })
})

describe('OpenAPI', () => {
  test('the monitor routes reference named models', async () => {
    const doc = await json(await ctx.request('/swagger/json'))
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Monitor', 'MonitorResult', 'MonitorAvailability']))
    const schema = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content['application/json'].schema
    expect(schema('/user/api/v1/monitors/{id}', 'get', '200').properties.data).toEqual({ $ref: '#/components/schemas/Monitor' })
    expect(schema('/user/api/v1/monitors/{id}/results', 'get', '200').properties.data.items).toEqual({ $ref: '#/components/schemas/MonitorResult' })
    expect(schema('/user/api/v1/monitors/{id}/availability', 'get', '200').properties.data).toEqual({ $ref: '#/components/schemas/MonitorAvailability' })
    expect(doc.paths['/api/push/{token}'].post).toBeDefined()
  })
})
