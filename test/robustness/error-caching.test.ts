/**
 * No error answer may be stored by a browser or a shared cache: a page created, a key fixed or a
 * limit lifted a moment later must not hide behind a cached 400/401/403/404/429. This sweeps every
 * documented operation (no credentials, a wrong key, another owner's ids, hostile bodies and
 * queries) and the status hosts, and checks `Cache-Control: no-store` on every error answer.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let mine: { key: string; page: number; slug: string }
let other: { key: string; page: number }

beforeAll(async () => {
  ctx = await createTestContext()
  const a = await ctx.createOwner('enterprise')
  const b = await ctx.createOwner('free')
  const page = await ctx.createPage(a.key, { slug: 'cache-errors', name: 'Errors' })
  mine = { key: a.key, page: page.id, slug: page.slug }
  other = { key: b.key, page: (await ctx.createPage(b.key, { slug: 'cache-other', name: 'Other' })).id }
  const secret = await ctx.createPage(a.key, { slug: 'cache-private', name: 'Private', visibility: 'private' })
  await ctx.request(`/user/api/v1/status-pages/${secret.id}/access`, { method: 'PUT', key: a.key, json: { password: 'open sesame' } })
  await ctx.createPage(a.key, { slug: 'cache-blocked', name: 'Blocked' })
  await ctx.app.services.pages.setBlocked('cache-blocked', true)
})
afterAll(() => ctx.close())

const seen = new Map<number, number>()
const failures: string[] = []

async function check(label: string, response: Response): Promise<void> {
  await response.arrayBuffer()
  if (response.status < 400) return
  seen.set(response.status, (seen.get(response.status) ?? 0) + 1)
  const cacheControl = response.headers.get('cache-control') ?? ''
  if (!/\bno-store\b/.test(cacheControl)) failures.push(`${label} -> ${response.status} cache-control: ${cacheControl || '(none)'}`)
}

test('every error answer of the service host says Cache-Control: no-store', async () => {
  const doc = await json(await ctx.request('/swagger/json'))
  for (const [template, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
    for (const method of Object.keys(operations)) {
      const verb = method.toUpperCase()
      for (const [who, key, id] of [
        ['anon', undefined, mine.page],
        ['bad key', 'lnt_not-a-key', mine.page],
        ['other owner', other.key, mine.page],
        ['owner, odd id', mine.key, 'abc'],
      ] as const) {
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'slug' ? mine.slug : name === 'tag' ? 'x' : String(id)))
        await check(`${verb} ${path} (${who})`, await ctx.request(path, { method: verb, key, json: verb === 'GET' || verb === 'DELETE' ? undefined : { x: [1] } }))
        await check(`${verb} ${path}?… (${who})`, await ctx.request(`${path}?slug=&days=abc&range=x&token=x&before=-1`, { method: verb, key }))
      }
    }
  }
  // Named in the issue: the uptime badge's 400 and the share-token routes' 401.
  for (const path of [`/badge/${mine.slug}/uptime.svg?days=abc`, `/badge/${mine.slug}/uptime.svg?days=1&days=2`, '/badge/x/uptime.svg?days=0']) await check(path, await ctx.request(path))
  for (const method of ['GET', 'POST']) await check(`${method} tokens`, await ctx.request(`/user/analytics/${mine.page}/tokens`, { method, json: method === 'POST' ? { label: 'x' } : undefined }))
  await check('unknown path', await ctx.request('/no/such/path'))
  await check('unknown path, HTML', await ctx.request('/no/such/path', { headers: { accept: 'text/html' } }))
  // Login attempts until the limit (429).
  for (let i = 0; i < 12; i++) {
    await check('login', await ctx.request('/user/login', { method: 'POST', body: 'email=nobody%40example.com&password=wrong-password', headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
  }
  expect(failures).toEqual([])
  expect([...seen.keys()].sort()).toEqual(expect.arrayContaining([400, 401, 403, 404, 429]))
}, 60_000)

test('every error answer of the status hosts says Cache-Control: no-store', async () => {
  failures.length = 0
  seen.clear()
  const hosts = ['https://cache-errors.status.test', 'https://cache-private.status.test', 'https://cache-blocked.status.test', 'https://nobody.status.test', 'https://unknown.example']
  const paths = ['/', '/nope', '/history?before=-1', '/incidents/abc', '/incidents/999', '/_lantern/logo', '/api/v2/summary.json', '/api/v2/nope.json', '/history.rss', '/robots.txt']
  for (const host of hosts) {
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'OPTIONS']) await check(`${method} ${host}${path}`, await ctx.request(`${host}${path}`, { method }))
    }
    await check(`${host} wrong password`, await ctx.request(`${host}/_lantern/access`, { method: 'POST', body: 'password=wrong', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: host } }))
    await check(`${host} cross-site form`, await ctx.request(`${host}/_lantern/access`, { method: 'POST', body: 'password=x', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' } }))
  }
  expect(failures).toEqual([])
  expect([...seen.keys()].sort()).toEqual(expect.arrayContaining([400, 401, 403, 404, 503]))
})
