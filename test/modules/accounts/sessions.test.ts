import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { runCli } from '../../../src/cli.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

// Several tests check ten or more argon2 hashes: give a loaded machine room.
setDefaultTimeout(30_000)

let ctx: TestContext
const PASSWORD = 'correct horse battery'
const ORIGIN = 'https://lantern.test'

beforeAll(async () => {
  // Login and password changes: argon2id, as in production.
  ctx = await createTestContext({ realPasswords: true })
})
afterAll(() => ctx.close())

function form(fields: Record<string, string>) {
  return new URLSearchParams(fields).toString()
}

async function login(email: string, password = PASSWORD, headers: Record<string, string> = { origin: ORIGIN }) {
  return ctx.request('/user/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form({ email, password, next: '/user/analytics' }),
  })
}

function cookieOf(response: Response): string {
  const setCookie = response.headers.get('set-cookie') ?? ''
  return setCookie.split(';')[0]!
}

describe('logins', () => {
  test('the login page renders and escapes what it echoes', async () => {
    const response = await ctx.request('/user/login?next=%2Fuser%22%3E%3Cscript%3E')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    const body = await response.text()
    expect(body).toContain('<form method="post" action="/user/login">')
    expect(body).not.toContain('"><script>')
    expect(body).not.toMatch(/<script>(?!<\/script>)/)
  })

  test('a login sets an HttpOnly SameSite=Lax Secure cookie and stores only its hash', async () => {
    const { user } = await ctx.createOwner('pro')
    const response = await login(user.email)
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/user/analytics')
    const setCookie = response.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^lantern_session=[A-Za-z0-9_-]{43}; /)
    expect(setCookie).toContain('HttpOnly')
    expect(setCookie).toContain('SameSite=Lax')
    expect(setCookie).toContain('Secure')
    const token = cookieOf(response).split('=')[1]!
    const rows = await ctx.database.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).not.toContain(token)
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    // The cookie opens the user area and the management API.
    const home = await ctx.request('/user', { headers: { cookie: cookieOf(response) } })
    expect(home.status).toBe(200)
    expect(await home.text()).toContain(user.email)
    const api = await ctx.request('/user/api/v1/status-pages', { headers: { cookie: cookieOf(response) } })
    expect(api.status).toBe(200)
  })

  test('after login only local paths are followed (no open redirect)', async () => {
    const { user } = await ctx.createOwner()
    for (const next of ['//evil.test/x', '/\\evil.test', 'https://evil.test/', 'javascript:alert(1)', '']) {
      const response = await ctx.request('/user/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        body: form({ email: user.email, password: PASSWORD, next }),
      })
      expect(response.status).toBe(303)
      expect(response.headers.get('location')).toBe('/user')
    }
  })

  test('wrong password and unknown email get the same 401 page', async () => {
    const { user } = await ctx.createOwner()
    const wrong = await login(user.email, 'wrong password!')
    const unknown = await login('nobody@example.com')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(await wrong.text()).toContain('Wrong email or password.')
    expect(wrong.headers.get('set-cookie')).toBeNull()
  })

  test('login attempts are rate limited per email, and the window passes', async () => {
    const { user } = await ctx.createOwner()
    for (let i = 0; i < 10; i++) expect((await login(user.email, 'wrong password!')).status).toBe(401)
    const limited = await login(user.email)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    ctx.clock.advance(15 * 60_000)
    expect((await login(user.email)).status).toBe(303)
  })

  test('a login form posted from another site is refused', async () => {
    const { user } = await ctx.createOwner()
    const response = await login(user.email, PASSWORD, { origin: 'https://evil.test' })
    expect(response.status).toBe(403)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  test('the area redirects to the login page without a session; bogus cookies do not open it', async () => {
    const response = await ctx.request('/user')
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/user/login?next=%2Fuser')
    const bogus = await ctx.request('/user', { headers: { cookie: 'lantern_session=' + 'a'.repeat(43) } })
    expect(bogus.status).toBe(303)
    const api = await ctx.request('/user/api/v1/status-pages', { headers: { cookie: 'lantern_session=<script>' } })
    expect(api.status).toBe(401)
  })

  test('logout ends the session on the server', async () => {
    const { user } = await ctx.createOwner()
    const cookie = cookieOf(await login(user.email))
    const out = await ctx.request('/user/logout', { method: 'POST', headers: { cookie, origin: ORIGIN } })
    expect(out.status).toBe(303)
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await ctx.request('/user/api/v1/status-pages', { headers: { cookie } })).status).toBe(401)
  })

  test('cookie-authenticated writes need this Origin; API keys do not', async () => {
    const { user, key } = await ctx.createOwner()
    const cookie = cookieOf(await login(user.email))
    const body = { slug: `csrf-${crypto.randomUUID().slice(0, 6)}`, name: 'CSRF' }
    const noOrigin = await ctx.request('/user/api/v1/status-pages', { method: 'POST', json: body, headers: { cookie } })
    expect(noOrigin.status).toBe(403)
    const evil = await ctx.request('/user/api/v1/status-pages', { method: 'POST', json: body, headers: { cookie, origin: 'https://evil.test' } })
    expect(evil.status).toBe(403)
    const ok = await ctx.request('/user/api/v1/status-pages', { method: 'POST', json: body, headers: { cookie, origin: ORIGIN } })
    expect(ok.status).toBe(201)
    const viaKey = await ctx.request('/user/api/v1/status-pages', { method: 'POST', key, json: { ...body, slug: body.slug + 'k' } })
    expect(viaKey.status).toBe(201)
    // An invalid API key is 401 even with a valid cookie, exactly as before logins existed.
    const badKey = await ctx.request('/user/api/v1/status-pages', { headers: { cookie, authorization: 'Bearer lnt_nope' } })
    expect(badKey.status).toBe(401)
  })

  test('Origin: null counts as this site only with Sec-Fetch-Site: same-origin', async () => {
    const { user } = await ctx.createOwner()
    const cookie = cookieOf(await login(user.email))
    const crossSite = await ctx.request('/user/logout', { method: 'POST', headers: { cookie, origin: 'null', 'sec-fetch-site': 'cross-site' } })
    expect(crossSite.status).toBe(403)
    expect((await ctx.request('/user', { headers: { cookie } })).status).toBe(200)
    const sameSite = await ctx.request('/user/logout', { method: 'POST', headers: { cookie, origin: 'null', 'sec-fetch-site': 'same-origin' } })
    expect(sameSite.status).toBe(303)
    expect((await ctx.request('/user', { headers: { cookie } })).status).toBe(303)
  })

  test('a password change ends every session and starts a new one for this browser', async () => {
    const { user } = await ctx.createOwner()
    const first = cookieOf(await login(user.email))
    const second = cookieOf(await login(user.email))
    const wrong = await ctx.request('/user/password', {
      method: 'POST',
      headers: { cookie: first, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ current_password: 'nope nope nope', new_password: 'a brand new password' }),
    })
    expect(wrong.status).toBe(400)
    const changed = await ctx.request('/user/password', {
      method: 'POST',
      headers: { cookie: first, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ current_password: PASSWORD, new_password: 'a brand new password' }),
    })
    expect(changed.status).toBe(303)
    const fresh = cookieOf(changed)
    expect((await ctx.request('/user', { headers: { cookie: first } })).status).toBe(303)
    expect((await ctx.request('/user', { headers: { cookie: second } })).status).toBe(303)
    expect((await ctx.request('/user', { headers: { cookie: fresh } })).status).toBe(200)
    expect((await login(user.email)).status).toBe(401)
    expect((await login(user.email, 'a brand new password')).status).toBe(303)
  })

  test('guessing the current password in the change form is limited like the login (10 per 15 minutes, then 429)', async () => {
    const { user } = await ctx.createOwner()
    const cookie = cookieOf(await login(user.email))
    const change = (current: string) =>
      ctx.request('/user/password', {
        method: 'POST',
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ current_password: current, new_password: 'a brand new password' }),
      })
    for (let i = 0; i < 10; i++) expect((await change(`guess number ${i}`)).status).toBe(400)
    const limited = await change(PASSWORD)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.text()).toContain('Too many attempts')
    expect((await login(user.email)).status).toBe(429)
    ctx.clock.advance(15 * 60_000)
    expect((await change(PASSWORD)).status).toBe(303)
  })

  test('the CLI sets a password and ends sessions', async () => {
    const { user } = await ctx.createOwner()
    const cookie = cookieOf(await login(user.email))
    const out: string[] = []
    const code = await runCli(['user', 'set-password', '--email', user.email, '--password', 'set by the admin'], ctx.databaseEnv, {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    })
    expect(code).toBe(0)
    expect((await ctx.request('/user', { headers: { cookie } })).status).toBe(303)
    expect((await login(user.email, 'set by the admin')).status).toBe(303)
  })

  test('sessions expire', async () => {
    const { user } = await ctx.createOwner()
    const cookie = cookieOf(await login(user.email))
    ctx.clock.advance(14 * 24 * 3600_000)
    expect((await ctx.request('/user', { headers: { cookie } })).status).toBe(303)
  })

  test('sign-up is closed by default', async () => {
    expect((await ctx.request('/user/signup')).status).toBe(404)
    const post = await ctx.request('/user/signup', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'new@example.com', password: 'long enough password' }),
    })
    expect(post.status).toBe(404)
  })
})

describe('SIGNUP=open', () => {
  let open: TestContext
  beforeAll(async () => {
    open = await createTestContext({ env: { SIGNUP: 'open' }, realPasswords: true })
  })
  afterAll(() => open.close())

  test('creates an account and logs it in', async () => {
    const page = await open.request('/user/signup')
    expect(page.status).toBe(200)
    const response = await open.request('/user/signup', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'New@Example.com', password: 'long enough password' }),
    })
    expect(response.status).toBe(303)
    const home = await open.request('/user', { headers: { cookie: cookieOf(response) } })
    expect(await home.text()).toContain('new@example.com')
    const again = await open.request('/user/signup', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'new@example.com', password: 'long enough password' }),
    })
    expect(again.status).toBe(400)
  })

  test('sign-ups are rate limited per client address', async () => {
    const attempt = (i: number) =>
      open.request('/user/signup', {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.77' },
        body: form({ email: `spam${i}@example.com`, password: 'long enough password' }),
      })
    for (let i = 0; i < 10; i++) expect((await attempt(i)).status).toBe(303)
    const limited = await attempt(10)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBeTruthy()
  })

  test('a bad SIGNUP value stops the start', async () => {
    const { loadConfig } = await import('../../../src/config.ts')
    expect(() => loadConfig({ SIGNUP: 'maybe' })).toThrow(/SIGNUP/)
  })
})

void json
