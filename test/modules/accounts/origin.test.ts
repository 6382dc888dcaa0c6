/**
 * The Origin check compares the whole origin (scheme, host, port): with an https BASE_URL, a page
 * served over plain http on the same host name (a network attacker can inject one) must not be
 * able to post to any cookie-authenticated route, nor to the gate form of a status host.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let open: TestContext
const PASSWORD = 'correct horse battery'
const HTTPS = 'https://lantern.test'
const HTTP = 'http://lantern.test'
const FORM = 'application/x-www-form-urlencoded'

beforeAll(async () => {
  ctx = await createTestContext()
  open = await createTestContext({ env: { SIGNUP: 'open' } })
})
afterAll(async () => {
  await ctx.close()
  await open.close()
})

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0]!

async function loggedIn(): Promise<{ cookie: string; email: string; key: string; userId: number }> {
  const { user, key } = await ctx.createOwner('enterprise')
  const response = await ctx.request('/user/login', { method: 'POST', headers: { origin: HTTPS, 'content-type': FORM }, body: form({ email: user.email, password: PASSWORD }) })
  expect(response.status).toBe(303)
  return { cookie: cookieOf(response), email: user.email, key, userId: user.id }
}

describe('cookie-authenticated writes compare the whole origin', () => {
  test('management API, share tokens, password change and logout refuse http://<service host>', async () => {
    const { cookie, key } = await loggedIn()
    const page = await ctx.createPage(key, { slug: `o-${crypto.randomUUID().slice(0, 6)}`, name: 'Origin Co' })
    const writes: Array<[string, string, RequestInit]> = [
      ['POST', '/user/api/v1/status-pages', { body: JSON.stringify({ slug: `x-${crypto.randomUUID().slice(0, 6)}`, name: 'X' }), headers: { 'content-type': 'application/json' } }],
      ['PATCH', `/user/api/v1/status-pages/${page.id}`, { body: JSON.stringify({ name: 'Hijacked' }), headers: { 'content-type': 'application/json' } }],
      ['PUT', `/user/api/v1/status-pages/${page.id}/access`, { body: JSON.stringify({ password: 'attacker chosen' }), headers: { 'content-type': 'application/json' } }],
      ['POST', `/user/analytics/${page.id}/tokens`, { body: JSON.stringify({ label: 'exfiltrate' }), headers: { 'content-type': 'application/json' } }],
      ['POST', '/user/password', { body: form({ current_password: PASSWORD, new_password: 'attacker chosen pw' }), headers: { 'content-type': FORM } }],
      ['POST', '/user/logout', {}],
    ]
    for (const [method, path, init] of writes) {
      for (const claim of [{ origin: HTTP }, { referer: `${HTTP}/user` }, { origin: 'https://lantern.test:8443' }] as Record<string, string>[]) {
        const response = await ctx.request(path, { ...init, method, headers: { ...(init.headers as Record<string, string>), cookie, ...claim } })
        expect(`${method} ${path} ${JSON.stringify(claim)} ${response.status}`).toBe(`${method} ${path} ${JSON.stringify(claim)} 403`)
      }
    }
    // Nothing happened: the page kept its name, no token exists, the session is still open.
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${page.id}`, { key }))).data.name).toBe('Origin Co')
    expect((await json(await ctx.request(`/user/analytics/${page.id}/tokens`, { key }))).data).toEqual([])
    expect((await ctx.request('/user', { headers: { cookie } })).status).toBe(200)
    // The https origin itself (with its default port spelled out or not) is this service.
    const ok = await ctx.request(`/user/api/v1/status-pages/${page.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'Renamed' }),
      headers: { 'content-type': 'application/json', cookie, origin: 'https://lantern.test:443' },
    })
    expect(ok.status).toBe(200)
  })

  test('the login and sign-up forms refuse http://<service host>', async () => {
    const { user } = await ctx.createOwner()
    const login = await ctx.request('/user/login', { method: 'POST', headers: { origin: HTTP, 'content-type': FORM }, body: form({ email: user.email, password: PASSWORD }) })
    expect(login.status).toBe(403)
    expect(login.headers.get('set-cookie')).toBeNull()
    const signup = await open.request('/user/signup', {
      method: 'POST',
      headers: { origin: HTTP, 'content-type': FORM },
      body: form({ email: 'http-signup@example.com', password: 'long enough password' }),
    })
    expect(signup.status).toBe(403)
    expect(signup.headers.get('set-cookie')).toBeNull()
  })
})

describe('the gate form of a private page compares the whole origin of its own host', () => {
  let ownerKey: string
  beforeAll(async () => {
    ownerKey = (await ctx.createOwner('pro')).key
    const page = await ctx.createPage(ownerKey, { slug: 'gated', name: 'Gated', visibility: 'private', custom_domain: 'status.gated.example' })
    await ctx.request(`/user/api/v1/status-pages/${page.id}/access`, { method: 'PUT', key: ownerKey, json: { password: 'open sesame' } })
  })
  const gate = (host: string, origin: string, client: string) =>
    ctx.request(`${host}/_lantern/access`, {
      method: 'POST',
      body: form({ password: 'open sesame', next: '/' }),
      headers: { 'content-type': FORM, origin, 'x-forwarded-for': client },
    })

  test('on the status host and on the custom domain', async () => {
    for (const host of ['https://gated.status.test', 'https://status.gated.example']) {
      const plain = host.replace('https:', 'http:')
      const refused = await gate(host, plain, '192.0.2.1')
      expect(refused.status).toBe(403)
      expect(refused.headers.get('set-cookie')).toBeNull()
      expect((await gate(host, 'https://lantern.test', '192.0.2.2')).status).toBe(403)
      expect((await gate(host, host, '192.0.2.3')).status).toBe(303)
    }
  })
})
