import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { gunzipSync } from 'node:zlib'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

describe('GET /static/embed/v1/status.js', () => {
  test('one minified script with a content type, a long cache lifetime and an ETag', async () => {
    const response = await ctx.request('/static/embed/v1/status.js')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800')
    expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/)
    const js = await response.text()
    expect(js.startsWith('(()=>{')).toBe(true)
    expect(js).toContain('/api/embed/status')
    expect(() => new Function(js)).not.toThrow()
  })

  test('under 8 KB gzipped, served gzipped to clients that accept it', async () => {
    const response = await ctx.request('/static/embed/v1/status.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('vary')).toBe('Accept-Encoding')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(bytes.byteLength).toBeLessThan(8 * 1024)
    const plain = await (await ctx.request('/static/embed/v1/status.js')).text()
    expect(new TextDecoder().decode(gunzipSync(bytes))).toBe(plain)
  })

  test('conditional requests answer 304; HEAD has no body', async () => {
    const etag = (await ctx.request('/static/embed/v1/status.js')).headers.get('etag')!
    const again = await ctx.request('/static/embed/v1/status.js', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    const head = await ctx.request('/static/embed/v1/status.js', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})
