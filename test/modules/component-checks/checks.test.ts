import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DAY_MS, MINUTE_MS } from '../../../src/lib/time.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { minuteMeans } from '../../helpers/minutes.ts'

let ctx: TestContext
let key: string
let otherKey: string
let componentId: number
let secondId: number
const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString()

const post = (id: number, body: unknown, k = key) => ctx.request(`/user/api/v1/components/${id}/checks`, { method: 'POST', key: k, json: body })

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  key = (await ctx.createOwner('growth')).key
  otherKey = (await ctx.createOwner('growth')).key
  const page = await ctx.createPage(key, { slug: 'checks-page', name: 'C' })
  const add = async (name: string) =>
    (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name } }))).data.id as number
  componentId = await add('API')
  secondId = await add('Web')
})
afterAll(() => ctx.close())

describe('POST /user/api/v1/components/:id/checks', () => {
  test('accepts a batch and feeds the minute series (mean across components, null gaps)', async () => {
    const response = await post(componentId, [
      { at: iso(-2 * MINUTE_MS), ok: true, response_ms: 100 },
      { at: iso(-2 * MINUTE_MS + 10_000), ok: true, response_ms: 300 },
      { at: iso(-10_000), ok: false },
      { at: iso(-5_000), ok: false, response_ms: null },
    ])
    expect(response.status).toBe(201)
    expect(await json(response)).toEqual({ data: { accepted: 4 } })
    await post(secondId, [{ at: iso(-2 * MINUTE_MS + 1), ok: true, response_ms: 500 }])
    const checks = ctx.app.services.checks
    expect(await minuteMeans(ctx.database.db, [componentId], NOW, 3)).toEqual([200, null, null])
    expect(await minuteMeans(ctx.database.db, [componentId, secondId], NOW, 3)).toEqual([300, null, null])
    const days = await checks.dailyBuckets([componentId], NOW, 2)
    expect(days.map((d) => [d.checks, d.okChecks, d.timedChecks, d.responseMsSum])).toEqual([
      [0, 0, 0, 0],
      [4, 2, 2, 400],
    ])
  })

  test('repeated batches add up in the buckets', async () => {
    await post(componentId, [{ at: iso(-2 * MINUTE_MS + 20_000), ok: true, response_ms: 600 }])
    expect(await minuteMeans(ctx.database.db, [componentId], NOW, 3)).toEqual([333, null, null])
  })

  test('old checks keep day figures but no raw rows or minute buckets; retention prunes raw rows', async () => {
    const before = await ctx.app.services.checks.rawCount(componentId)
    await post(componentId, [{ at: iso(-10 * DAY_MS), ok: false, response_ms: 50 }])
    expect(await ctx.app.services.checks.rawCount(componentId)).toBe(before)
    const days = await ctx.app.services.checks.dailyBuckets([componentId], NOW, 11)
    expect(days[0]).toMatchObject({ checks: 1, okChecks: 0, responseMsSum: 50 })
    // Eight days later the raw rows of today are gone, the day bucket stays.
    ctx.clock.set(NOW + 8 * DAY_MS)
    await post(componentId, [{ at: new Date(NOW + 8 * DAY_MS).toISOString(), ok: true, response_ms: 1 }])
    expect(await ctx.app.services.checks.rawCount(componentId)).toBe(1)
    const later = await ctx.app.services.checks.dailyBuckets([componentId], NOW + 8 * DAY_MS, 9)
    expect(later[0]).toMatchObject({ checks: 5 })
    expect(await minuteMeans(ctx.database.db, [componentId], NOW, 3)).toEqual([null, null, null])
    ctx.clock.set(NOW)
  })

  test('pruneAll drops raw rows of components that stopped reporting', async () => {
    await post(secondId, [{ at: iso(-1000), ok: true, response_ms: 5 }])
    expect(await ctx.app.services.checks.rawCount(secondId)).toBeGreaterThan(0)
    ctx.clock.set(NOW + 8 * DAY_MS)
    await ctx.app.services.checks.pruneAll()
    expect(await ctx.app.services.checks.rawCount(secondId)).toBe(0)
    // Day buckets stay.
    expect((await ctx.app.services.checks.dailyBuckets([secondId], NOW, 1))[0]!.checks).toBeGreaterThan(0)
    ctx.clock.set(NOW)
  })

  test('validation: 400 naming the entry, nothing stored', async () => {
    const before = await ctx.app.services.checks.rawCount(secondId)
    const cases: Array<[unknown, RegExp]> = [
      [[], /at least one/],
      [{}, /./],
      [[{ ok: true }], /at/],
      [[{ at: 'now', ok: true }], /checks\[0\]\.at must be an RFC 3339/],
      [[{ at: iso(0), ok: true }, { at: iso(0), ok: 'yes' }], /ok must be true or false/],
      [[{ at: iso(0), ok: true, response_ms: -1 }], /response_ms/],
      [[{ at: iso(0), ok: true, response_ms: 1.5 }], /response_ms/],
      [[{ at: iso(0), ok: true, response_ms: 600_001 }], /response_ms/],
      [[{ at: iso(0), ok: true }, { at: iso(DAY_MS), ok: true }], /checks\[1\]\.at must not be in the future/],
      [[{ at: '1970-01-01T00:00:00Z', ok: true }], /checks\[0\]\.at must be within the last 366 days/],
      [Array.from({ length: 1001 }, () => ({ at: iso(0), ok: true })), /at most 1000/],
    ]
    for (const [body, message] of cases) {
      const response = await post(secondId, body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(message)
    }
    expect(await ctx.app.services.checks.rawCount(secondId)).toBe(before)
  })

  test("someone else's component is 404, no key is 401, unknown id 404", async () => {
    expect((await post(componentId, [{ at: iso(0), ok: true }], otherKey)).status).toBe(404)
    expect((await ctx.request(`/user/api/v1/components/${componentId}/checks`, { method: 'POST', json: [] })).status).toBe(401)
    expect((await post(987654, [{ at: iso(0), ok: true }])).status).toBe(404)
    expect((await post(0, [{ at: iso(0), ok: true }])).status).toBe(400)
  })

  test('a small clock skew (under a minute ahead) is accepted', async () => {
    expect((await post(secondId, [{ at: iso(30_000), ok: true, response_ms: 10 }])).status).toBe(201)
  })
})
