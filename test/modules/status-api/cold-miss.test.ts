/**
 * With the public cache off every status JSON is a miss, answered by the fast lane's miss reader
 * instead of the Elysia route (http.ts `missed`). It must answer exactly as the route did: headers,
 * 304, the route's 400 and 404 for what it leaves, HEAD, and a 500 (not a dropped request) when
 * the database fails under it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
const STATUS = '/api/embed/status?slug=coldpage&inc=1&rtm=5&upd=2'

beforeAll(async () => {
  ctx = await createTestContext({ publicCache: false, now: Date.UTC(2026, 10, 10, 12, 0, 0) })
  const { key } = await ctx.createOwner('growth')
  const page = await ctx.createPage(key, { slug: 'coldpage', name: 'Cold' })
  const created = await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } })
  expect(created.status).toBe(201)
})
afterAll(() => ctx.close())

test('a cold GET carries the route\'s headers and body, and revalidates with 304', async () => {
  const response = await ctx.request(STATUS)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(response.headers.get('cache-control')).toBe('public, no-cache')
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  const etag = response.headers.get('etag')!
  expect(etag).toMatch(/^W\/"/)
  const body = await json(response)
  expect(body).toMatchObject({ page: 'coldpage', overall: 'operational', incidents: [], dns_only: false })
  expect(body.rtm).toHaveLength(5)
  expect(body.upd).toHaveLength(2)

  const again = await ctx.request(STATUS, { headers: { 'if-none-match': etag } })
  expect(again.status).toBe(304)
  expect(await again.text()).toBe('')
})

test('what the miss reader leaves is the route\'s answer: 400 naming the parameter, 404, HEAD', async () => {
  const doubled = await ctx.request('/api/embed/status?slug=coldpage&slug=other')
  expect(doubled.status).toBe(400)
  expect((await json(doubled)).error).toBe('slug must be given only once')
  expect(doubled.headers.get('cache-control')).toBe('no-store')
  const unknown = await ctx.request('/api/embed/status?slug=nobody-here')
  expect(unknown.status).toBe(404)
  expect(unknown.headers.get('cache-control')).toBe('no-store')
  const head = await ctx.request(STATUS, { method: 'HEAD' })
  expect(head.status).toBe(200)
  expect(head.headers.get('etag')).toMatch(/^W\/"/)
})

test('a database failure under the miss reader is the app\'s logged 500, never a dropped request', async () => {
  await sql`ALTER TABLE page_check_minutes RENAME TO page_check_minutes_away`.execute(ctx.database.db)
  try {
    const failed = await ctx.request(STATUS)
    expect(failed.status).toBe(500)
    expect(failed.headers.get('cache-control')).toBe('no-store')
    expect(await json(failed)).toEqual({ error: 'internal error' })
  } finally {
    await sql`ALTER TABLE page_check_minutes_away RENAME TO page_check_minutes`.execute(ctx.database.db)
  }
  expect((await ctx.request(STATUS)).status).toBe(200)
})
