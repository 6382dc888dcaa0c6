/**
 * The account's API: creating API keys (session cookie only, name by schema) and the sessions
 * routes (list, end one, end all others) that the account screen uses too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { summarizeUserAgent } from '../../../src/modules/accounts/user-agent.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
const ORIGIN = 'https://lantern.test'
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 23, 12) })
})
afterAll(() => ctx.close())

async function login(email: string, userAgent = CHROME_LINUX): Promise<string> {
  const response = await ctx.request('/user/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'user-agent': userAgent },
    body: new URLSearchParams({ email, password: 'correct horse battery' }),
  })
  expect(response.status).toBe(303)
  return response.headers.get('set-cookie')!.split(';')[0]!
}

const withCookie = (cookie: string, origin: string | null = ORIGIN): Record<string, string> => ({ cookie, ...(origin ? { origin } : {}) })

describe('POST /user/api/v1/api-keys', () => {
  test('with the session cookie: 201, the whole key once, the key works; the list never shows it', async () => {
    const { user } = await ctx.createOwner('free')
    const cookie = await login(user.email)
    const response = await ctx.request('/user/api/v1/api-keys', { method: 'POST', headers: withCookie(cookie), json: { name: 'deploy script' } })
    expect(response.status).toBe(201)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const { data } = await json(response)
    expect(data.key).toMatch(/^lnt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/)
    expect(data.key.startsWith(data.prefix)).toBe(true)
    expect(data).toMatchObject({ name: 'deploy script', state: 'active', last_used_at: null })
    expect((await ctx.request('/user/api/v1/status-pages', { key: data.key })).status).toBe(200)
    const list = await ctx.request('/user/api/v1/api-keys', { headers: { cookie } })
    const text = await list.text()
    expect(text).toContain('deploy script')
    expect(text).not.toContain(data.key.slice(data.prefix.length))
  })

  test('an API key cannot create keys (403), nothing is created', async () => {
    const { user, key } = await ctx.createOwner('free')
    const response = await ctx.request('/user/api/v1/api-keys', { method: 'POST', key, json: { name: 'minted' } })
    expect(response.status).toBe(403)
    expect((await json(response)).error).toContain('API keys cannot create API keys')
    expect((await ctx.app.services.accounts.listApiKeys(user.id)).map((k) => k.name)).toEqual(['test'])
  })

  test('a cookie POST from another site or without Origin is 403; no key is created', async () => {
    const { user } = await ctx.createOwner('free')
    const cookie = await login(user.email)
    for (const origin of ['https://evil.test', null]) {
      const response = await ctx.request('/user/api/v1/api-keys', { method: 'POST', headers: withCookie(cookie, origin), json: { name: 'csrf' } })
      expect(response.status).toBe(403)
    }
    expect(await ctx.app.services.accounts.listApiKeys(user.id)).toHaveLength(1)
  })

  test('a missing, blank or over-long name is 400 with the schema\'s text; nothing is created', async () => {
    const { user } = await ctx.createOwner('free')
    const cookie = await login(user.email)
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 7 }]) {
      const response = await ctx.request('/user/api/v1/api-keys', { method: 'POST', headers: withCookie(cookie), json: body })
      expect(response.status).toBe(400)
    }
    const response = await ctx.request('/user/api/v1/api-keys', { method: 'POST', headers: withCookie(cookie), json: { name: '   ' } })
    expect((await json(response)).error).toContain('name must be 1 to 100 characters')
    expect(await ctx.app.services.accounts.listApiKeys(user.id)).toHaveLength(1)
  })

  test('without credentials: 401', async () => {
    expect((await ctx.request('/user/api/v1/api-keys', { method: 'POST', json: { name: 'x' } })).status).toBe(401)
  })
})

describe('sessions', () => {
  test('list: row ids (never the token or its hash), newest first, browser summary, this one marked', async () => {
    const { user } = await ctx.createOwner('free')
    const first = await login(user.email, FIREFOX_WINDOWS)
    ctx.clock.advance(60_000)
    const second = await login(user.email, CHROME_LINUX)
    const response = await ctx.request('/user/api/v1/sessions', { headers: { cookie: first } })
    expect(response.status).toBe(200)
    const body = await response.text()
    const rows = await ctx.database.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute()
    for (const row of rows) expect(body).not.toContain(row.token_hash)
    expect(body).not.toContain(first.split('=')[1]!)
    expect(body).not.toContain(second.split('=')[1]!)
    const { data, meta } = JSON.parse(body)
    expect(meta.count).toBe(2)
    expect(data.map((s: { client: string }) => s.client)).toEqual(['Chrome on Linux', 'Firefox on Windows'])
    expect(data.map((s: { current: boolean }) => s.current)).toEqual([false, true])
    expect(data.map((s: { id: number }) => s.id).sort()).toEqual(rows.map((row) => row.id).sort())
    expect(data[1].created_at).toBe('2026-11-23T12:00:00.000Z')
  })

  test('end one: that browser is logged out; another owner\'s session id is 404 and ends nothing', async () => {
    const { user } = await ctx.createOwner('free')
    const { user: other, key: otherKey } = await ctx.createOwner('free')
    const mine = await login(user.email)
    const theirs = await login(other.email)
    const theirId = (await ctx.app.services.accounts.listSessions(other.id))[0]!.id
    const refused = await ctx.request(`/user/api/v1/sessions/${theirId}`, { method: 'DELETE', headers: withCookie(mine) })
    expect(refused.status).toBe(404)
    expect((await ctx.request('/user/api/v1/sessions', { headers: { cookie: theirs } })).status).toBe(200)
    // The owner ends it with a key (no cookie needed), then the browser's next request is 401.
    const ended = await ctx.request(`/user/api/v1/sessions/${theirId}`, { method: 'DELETE', key: otherKey })
    expect(ended.status).toBe(200)
    expect((await ctx.request('/user/api/v1/sessions', { headers: { cookie: theirs } })).status).toBe(401)
    expect((await ctx.request(`/user/api/v1/sessions/${theirId}`, { method: 'DELETE', key: otherKey })).status).toBe(404)
    expect((await ctx.request('/user/api/v1/sessions/abc', { method: 'DELETE', key: otherKey })).status).toBe(400)
  })

  test('end all others keeps this browser\'s session; cross-site is 403 and ends nothing', async () => {
    const { user } = await ctx.createOwner('free')
    const a = await login(user.email)
    const b = await login(user.email)
    const c = await login(user.email)
    expect((await ctx.request('/user/api/v1/sessions', { method: 'DELETE', headers: withCookie(a, 'https://evil.test') })).status).toBe(403)
    expect(await ctx.app.services.accounts.listSessions(user.id)).toHaveLength(3)
    const response = await ctx.request('/user/api/v1/sessions', { method: 'DELETE', headers: withCookie(a) })
    expect(await json(response)).toEqual({ data: { ended: 2 } })
    expect((await ctx.request('/user/api/v1/sessions', { headers: { cookie: a } })).status).toBe(200)
    for (const gone of [b, c]) expect((await ctx.request('/user/api/v1/sessions', { headers: { cookie: gone } })).status).toBe(401)
  })

  test('last seen is written at most once a minute', async () => {
    const { user } = await ctx.createOwner('free')
    const cookie = await login(user.email)
    const seen = async () => (await ctx.app.services.accounts.listSessions(user.id))[0]!.lastSeenAt
    const start = ctx.clock.now()
    ctx.clock.advance(30_000)
    await ctx.request('/user/api/v1/sessions', { headers: { cookie } })
    expect(await seen()).toBe(start)
    ctx.clock.advance(40_000)
    await ctx.request('/user/api/v1/sessions', { headers: { cookie } })
    expect(await seen()).toBe(start + 70_000)
  })
})

test('browser summaries: short, never the raw header', () => {
  expect(summarizeUserAgent(CHROME_LINUX)).toBe('Chrome on Linux')
  expect(summarizeUserAgent(FIREFOX_WINDOWS)).toBe('Firefox on Windows')
  expect(summarizeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iOS')
  expect(summarizeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36')).toBe('Headless Chrome on Linux')
  expect(summarizeUserAgent('curl/8.5.0')).toBe('curl')
  expect(summarizeUserAgent('<script>x</script>')).toBe('Unknown browser')
  expect(summarizeUserAgent(undefined)).toBeNull()
})
