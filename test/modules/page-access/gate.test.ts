import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { GATE_ATTEMPTS, GATE_WINDOW_MS, SESSION_TTL_MS } from '../../../src/modules/page-access/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'


let ctx: TestContext
let owner: { key: string }
let secret: { id: number }
let other: { id: number }

const HOST = 'https://secret.status.test'

function login(password: string, options: { host?: string; client?: string; next?: string; origin?: string } = {}) {
  const host = options.host ?? HOST
  const form = new URLSearchParams({ password, next: options.next ?? '/' })
  return ctx.request(`${host}/_lantern/access`, {
    method: 'POST',
    body: form.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': options.client ?? '203.0.113.7',
      ...(options.origin ? { origin: options.origin } : {}),
    },
  })
}

const cookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0]!

beforeAll(async () => {
  ctx = await createTestContext()
  owner = await ctx.createOwner('pro')
  secret = await ctx.createPage(owner.key, { slug: 'secret', name: 'Secret Co', visibility: 'private', custom_domain: 'status.secret.example' })
  await ctx.request(`/user/api/v1/status-pages/${secret.id}/components`, { method: 'POST', key: owner.key, json: { name: 'Hidden Database' } })
  other = await ctx.createPage(owner.key, { slug: 'other', name: 'Other Co', visibility: 'private' })
  await ctx.request(`/user/api/v1/status-pages/${other.id}/access`, { method: 'PUT', key: owner.key, json: { password: 'other-pass' } })
})
afterAll(() => ctx.close())

describe('private page gate', () => {
  test('without a password set, the gate says so and shows nothing of the page', async () => {
    const response = await ctx.request(`${HOST}/`)
    expect(response.status).toBe(401)
    const body = await response.text()
    expect(body).toContain('The owner has not set a password')
    expect(body).not.toContain('Hidden Database')
    expect((await login('anything')).status).toBe(403)
  })

  test('the password must have at least 8 characters', async () => {
    const short = await ctx.request(`/user/api/v1/status-pages/${secret.id}/access`, { method: 'PUT', key: owner.key, json: { password: 'abcdefg' } })
    expect(short.status).toBe(400)
    expect((await json(short)).error).toBe('password must be at least 8 characters')
    const ok = await ctx.request(`/user/api/v1/status-pages/${secret.id}/access`, { method: 'PUT', key: owner.key, json: { password: 'open sesame' } })
    expect(ok.status).toBe(200)
    expect((await json(ok)).data).toEqual({ visibility: 'private', password_set: true, embed_token_set: false })
  })

  test('the gate is noindex, in its header and its markup, and leaks no components', async () => {
    const response = await ctx.request(`${HOST}/`)
    expect(response.status).toBe(401)
    expect(response.headers.get('x-robots-tag')).toBe('noindex')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await response.text()
    expect(body).toContain('<meta name="robots" content="noindex">')
    expect(body).toContain('<form method="post" action="/_lantern/access">')
    expect(body).not.toContain('Hidden Database')
    for (const path of ['/history', '/api/v2/summary.json', '/api/v2/components.json', '/history.rss', '/history.atom']) {
      const r = await ctx.request(`${HOST}${path}`)
      expect(r.status).toBe(401)
      expect(await r.text()).not.toContain('Hidden Database')
    }
    const robots = await ctx.request(`${HOST}/robots.txt`)
    expect(await robots.text()).toBe('User-agent: *\nDisallow: /\n')
    expect(robots.headers.get('x-robots-tag')).toBe('noindex')
  })

  test('a wrong password is refused without a cookie', async () => {
    const response = await login('open says me')
    expect(response.status).toBe(401)
    expect(response.headers.get('set-cookie')).toBeNull()
    const body = await response.text()
    expect(body).toContain('Wrong password.')
    // The form of the retry still leads back to the page asked for, not to the form's address.
    expect(body).toContain('<input type="hidden" name="next" value="/">')
  })

  test('the right password opens a 1-hour session on this host only', async () => {
    const response = await login('open sesame', { next: '/history' })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/history')
    const setCookie = response.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^__Host-lantern_access=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure$/)
    expect(setCookie).not.toContain('Domain=')
    const cookie = cookieOf(response)

    const page = await ctx.request(`${HOST}/`, { headers: { cookie } })
    expect(page.status).toBe(200)
    expect(page.headers.get('x-robots-tag')).toBe('noindex')
    expect(page.headers.get('cache-control')).toBe('private, no-cache')
    // The page speaks the visitor's language too, so caches key on both.
    expect(page.headers.get('vary')).toBe('Accept-Language, Cookie')
    const body = await page.text()
    expect(body).toContain('Hidden Database')
    expect(body).toContain('<meta name="robots" content="noindex">')
    const api = await ctx.request(`${HOST}/api/v2/components.json`, { headers: { cookie } })
    expect(api.status).toBe(200)
    expect(api.headers.get('cache-control')).toBe('private, no-store')

    // The same cookie on the page's custom domain, on another private page, or forged: refused.
    expect((await ctx.request('https://status.secret.example/', { headers: { cookie } })).status).toBe(401)
    expect((await ctx.request('https://other.status.test/', { headers: { cookie } })).status).toBe(401)
    expect((await ctx.request(`${HOST}/`, { headers: { cookie: cookie.replace(/=.{4}/, '=AAAA') } })).status).toBe(401)
    expect((await ctx.request(`${HOST}/`, { headers: { cookie: 'lantern_access=x' } })).status).toBe(401)

    // One hour later, the session is over.
    ctx.clock.advance(SESSION_TTL_MS - 1000)
    expect((await ctx.request(`${HOST}/`, { headers: { cookie } })).status).toBe(200)
    ctx.clock.advance(1000)
    expect((await ctx.request(`${HOST}/`, { headers: { cookie } })).status).toBe(401)
  })

  test('a session opened on another host does not open this one', async () => {
    const elsewhere = cookieOf(await login('other-pass', { host: 'https://other.status.test' }))
    expect((await ctx.request('https://other.status.test/', { headers: { cookie: elsewhere } })).status).toBe(200)
    expect((await ctx.request(`${HOST}/`, { headers: { cookie: elsewhere } })).status).toBe(401)
  })

  test('attempts are limited per client, even with the right password', async () => {
    const client = '198.51.100.23'
    for (let i = 0; i < GATE_ATTEMPTS; i++) expect((await login(`wrong-${i}`, { client })).status).toBe(401)
    const limited = await login('open sesame', { client })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.headers.get('set-cookie')).toBeNull()
    expect(await limited.text()).toContain('Too many attempts')
    // Another client is not held back by it.
    expect((await login('open sesame', { client: '198.51.100.99' })).status).toBe(303)
    ctx.clock.advance(GATE_WINDOW_MS)
    expect((await login('open sesame', { client })).status).toBe(303)
  })

  test('the form refuses other origins and never redirects off the host', async () => {
    expect((await login('open sesame', { origin: 'https://evil.example' })).status).toBe(403)
    expect((await login('open sesame', { origin: 'null' })).status).toBe(403)
    expect((await login('open sesame', { origin: HOST })).status).toBe(303)
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      expect((await login('open sesame', { next, client: `10.9.8.${next.length}` })).headers.get('location')).toBe('/')
    }
  })

  test('changing the password ends every session', async () => {
    const cookie = cookieOf(await login('open sesame', { client: '192.0.2.50' }))
    expect((await ctx.request(`${HOST}/`, { headers: { cookie } })).status).toBe(200)
    await ctx.request(`/user/api/v1/status-pages/${secret.id}/access`, { method: 'PUT', key: owner.key, json: { password: 'new secret' } })
    expect((await ctx.request(`${HOST}/`, { headers: { cookie } })).status).toBe(401)
  })

  test('the embed token (auth_token) opens the JSON API and feeds, never the HTML page', async () => {
    const created = await ctx.request(`/user/api/v1/status-pages/${secret.id}/access/token`, { method: 'POST', key: owner.key })
    expect(created.status).toBe(201)
    const token = (await json(created)).data.auth_token as string
    expect(token).toMatch(/^lpt_/)
    const api = await ctx.request(`${HOST}/api/v2/summary.json?auth_token=${token}`)
    expect(api.status).toBe(200)
    expect(JSON.stringify(await json(api))).toContain('Hidden Database')
    expect((await ctx.request(`${HOST}/history.rss?auth_token=${token}`)).status).toBe(200)
    expect((await ctx.request(`${HOST}/?auth_token=${token}`)).status).toBe(401)
    expect((await ctx.request(`https://other.status.test/api/v2/summary.json?auth_token=${token}`)).status).toBe(401)
    expect(await ctx.app.services.pageAccess.embedTokenGrants(secret.id, token)).toBe(true)
    expect(await ctx.app.services.pageAccess.embedTokenGrants(other.id, token)).toBe(false)
    expect(await ctx.app.services.pageAccess.embedTokenGrants(secret.id, `${token.slice(0, -1)}x`)).toBe(false)
    // Rotating replaces it; revoking ends it.
    const rotated = (await json(await ctx.request(`/user/api/v1/status-pages/${secret.id}/access/token`, { method: 'POST', key: owner.key }))).data.auth_token
    expect((await ctx.request(`${HOST}/api/v2/summary.json?auth_token=${token}`)).status).toBe(401)
    expect((await ctx.request(`${HOST}/api/v2/summary.json?auth_token=${rotated}`)).status).toBe(200)
    await ctx.request(`/user/api/v1/status-pages/${secret.id}/access/token`, { method: 'DELETE', key: owner.key })
    expect((await ctx.request(`${HOST}/api/v2/summary.json?auth_token=${rotated}`)).status).toBe(401)
  })

  test('access settings are the owner\'s only', async () => {
    const stranger = await ctx.createOwner('pro')
    for (const [method, path, body] of [
      ['GET', 'access', undefined],
      ['PUT', 'access', { password: 'hijack!' }],
      ['POST', 'access/token', undefined],
    ] as const) {
      const response = await ctx.request(`/user/api/v1/status-pages/${secret.id}/${path}`, { method, key: stranger.key, json: body })
      expect(response.status).toBe(404)
    }
    expect((await ctx.request(`/user/api/v1/status-pages/${secret.id}/access`)).status).toBe(401)
  })

  test('badge and status JSON of a private page: Unknown/404 without the token, real with it', async () => {
    const token = (await json(await ctx.request(`/user/api/v1/status-pages/${secret.id}/access/token`, { method: 'POST', key: owner.key }))).data.auth_token
    const anonymous = await ctx.request('/api/embed/status?slug=secret')
    expect(anonymous.status).toBe(404)
    const anonymousBadge = await (await ctx.request('/badge/secret.svg')).text()
    expect(anonymousBadge).toContain('Unknown')
    expect(anonymousBadge).not.toContain('Secret Co')

    const status = await ctx.request(`/api/embed/status?slug=secret&auth_token=${token}`)
    expect(status.status).toBe(200)
    expect(status.headers.get('cache-control')).toBe('private, no-store')
    expect((await json(status)).overall).toBe('operational')
    // Pro has no incidents/sparklines: the same 403 as for public pages.
    expect((await ctx.request(`/api/embed/status?slug=secret&inc=1&auth_token=${token}`)).status).toBe(403)
    const badge = await ctx.request(`/badge/secret.svg?auth_token=${token}`)
    expect(badge.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8')
    expect(badge.headers.get('cache-control')).toBe('private, no-store')
    const svg = await badge.text()
    expect(svg).toContain('Secret Co')
    expect(svg).toContain('Operational')
    expect(await (await ctx.request(`/badge/secret/uptime.svg?days=7&auth_token=${token}`)).text()).toContain('uptime')

    // A wrong token, another page's slug, or the token after the anonymous answer was cached: nothing leaks.
    expect((await ctx.request(`/api/embed/status?slug=secret&auth_token=lpt_${'A'.repeat(43)}`)).status).toBe(404)
    expect((await ctx.request(`/api/embed/status?slug=other&auth_token=${token}`)).status).toBe(404)
    expect(await (await ctx.request('/badge/secret.svg')).text()).not.toContain('Secret Co')
  })
})
