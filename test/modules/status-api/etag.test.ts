/**
 * The status JSON carries `updated` (when it was computed), so its bytes change on every recompute.
 * Its ETag must not: an unchanged status keeps its ETag, so the widget and browsers get 304s.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { STATUS_TTL_MS } from '../../../src/modules/status-api/cached-reads.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let componentId: number

const STATUS = '/api/embed/status?slug=tagged&inc=1'
const status = (headers?: HeadersInit) => ctx.request(STATUS, { headers })

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 10, 12, 0, 0) })
  key = (await ctx.createOwner('growth')).key
  const page = await ctx.createPage(key, { slug: 'tagged', name: 'Tagged' })
  const response = await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } })
  componentId = (await json(response)).data.id
})
afterAll(() => ctx.close())

describe('status JSON ETag', () => {
  test('an unchanged status keeps its ETag across recomputes; If-None-Match answers 304', async () => {
    const first = await status()
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    const firstBody = await json(first)

    // Past the 15 s cache: the answer is built again, with a later `updated`.
    ctx.clock.advance(STATUS_TTL_MS + 1_000)
    const second = await status()
    const secondBody = await json(second)
    expect(secondBody.updated).not.toBe(firstBody.updated)
    expect(second.headers.get('etag')).toBe(etag)

    ctx.clock.advance(STATUS_TTL_MS + 1_000)
    const revalidated = await status({ 'if-none-match': etag })
    expect(revalidated.status).toBe(304)
    expect(await revalidated.text()).toBe('')
    expect(revalidated.headers.get('etag')).toBe(etag)
  })

  test('a change of status gives a new ETag, and the old one no longer answers 304', async () => {
    const before = (await status()).headers.get('etag')!
    const changed = await ctx.request(`/user/api/v1/components/${componentId}`, { method: 'PATCH', key, json: { status: 'down' } })
    expect(changed.status).toBe(200)
    const after = await status({ 'if-none-match': before })
    expect(after.status).toBe(200)
    expect((await json(after)).overall).toBe('major_outage')
    expect(after.headers.get('etag')).not.toBe(before)
  })
})

describe('siblings: answers rebuilt from an unchanged page keep their ETag', () => {
  const PAGE_HOST = 'https://tagged.status.test'
  const etagAfterRecompute = async (url: string): Promise<[string | null, string | null]> => {
    const first = await ctx.request(url)
    expect(first.status).toBe(200)
    ctx.clock.advance(60 * 60_000) // past every public cache lifetime
    const second = await ctx.request(url)
    expect(second.status).toBe(200)
    return [first.headers.get('etag'), second.headers.get('etag')]
  }

  test('badge, Statuspage v2 summary and status, and the feeds of a page without incidents', async () => {
    for (const url of ['/badge/tagged.svg', `${PAGE_HOST}/api/v2/summary.json`, `${PAGE_HOST}/api/v2/status.json`, `${PAGE_HOST}/history.rss`, `${PAGE_HOST}/history.atom`]) {
      const [before, after] = await etagAfterRecompute(url)
      expect(before, url).toBeTruthy()
      expect(after, url).toBe(before)
    }
  })
})
