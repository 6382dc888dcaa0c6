import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { createComponent, createToken, loginCookie, ORIGIN, slug } from './helpers.ts'

let ctx: TestContext
let owner: { key: string; email: string; cookie: string }
let other: { key: string; cookie: string }
let pageId: number
let otherPageId: number
let secondPageId: number
const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  const o = await ctx.createOwner('pro')
  owner = { key: o.key, email: o.user.email, cookie: await loginCookie(ctx, o.user.email) }
  const x = await ctx.createOwner('pro')
  other = { key: x.key, cookie: await loginCookie(ctx, x.user.email) }
  pageId = (await ctx.createPage(owner.key, { slug: slug('acc'), name: 'Acme <b>Status</b>' })).id
  secondPageId = (await ctx.createPage(owner.key, { slug: slug('acc2'), name: 'Second' })).id
  otherPageId = (await ctx.createPage(other.key, { slug: slug('oth'), name: 'Other' })).id
  await createComponent(ctx, owner.key, pageId, 'API')
})
afterAll(() => ctx.close())

const api = (id: number, init: Parameters<TestContext['request']>[1] = {}, query = '') =>
  ctx.request(`/api/analytics/status-pages/${id}${query}`, init)

describe('GET /api/analytics/status-pages/:id', () => {
  test('owner by API key and by session cookie', async () => {
    const byKey = await api(pageId, { key: owner.key })
    expect(byKey.status).toBe(200)
    expect((await json(byKey)).data.page.name).toBe('Acme <b>Status</b>')
    expect(byKey.headers.get('cache-control')).toBe('no-store')
    expect((await api(pageId, { headers: { cookie: owner.cookie } })).status).toBe(200)
  })

  test('no credentials 401, another owner 404 (by key and by cookie), unknown page 404', async () => {
    expect((await api(pageId)).status).toBe(401)
    expect((await json(await api(pageId))).error).toBe('unauthorized')
    expect((await api(pageId, { key: other.key })).status).toBe(404)
    expect((await api(pageId, { headers: { cookie: other.cookie } })).status).toBe(404)
    expect((await api(999999, { key: owner.key })).status).toBe(404)
    expect((await api(0, { key: owner.key })).status).toBe(400)
  })

  test('live token 200; token of another page, garbage and empty tokens 403', async () => {
    const live = await createToken(ctx, owner.key, pageId)
    expect((await api(pageId, {}, `?token=${encodeURIComponent(live.token)}`)).status).toBe(200)
    expect((await api(pageId, {}, `?token=${encodeURIComponent(live.token)}&range=7d`)).status).toBe(200)
    // The token of another page opens nothing else, not even another page of the same owner.
    expect((await api(secondPageId, {}, `?token=${encodeURIComponent(live.token)}`)).status).toBe(403)
    expect((await api(otherPageId, {}, `?token=${encodeURIComponent(live.token)}`)).status).toBe(403)
    const tampered = live.token.slice(0, -1) + (live.token.endsWith('A') ? 'B' : 'A')
    expect((await api(pageId, {}, `?token=${encodeURIComponent(tampered)}`)).status).toBe(403)
    expect((await api(pageId, {}, '?token=')).status).toBe(403)
    expect((await api(pageId, {}, '?token=%3Cscript%3E')).status).toBe(403)
    // API calls do not count as openings of the shared view.
    const list = await json(await ctx.request(`/user/analytics/${pageId}/tokens`, { key: owner.key }))
    expect(list.data.find((t: any) => t.id === live.id).usage_count).toBe(0)
  })

  test('expired token: active until the instant of expiry, 403 from it on', async () => {
    const expiresAt = NOW + 3600_000
    const token = await createToken(ctx, owner.key, pageId, { expires_at: new Date(expiresAt).toISOString() })
    const q = `?token=${encodeURIComponent(token.token)}`
    ctx.clock.set(expiresAt - 1)
    expect((await api(pageId, {}, q)).status).toBe(200)
    ctx.clock.set(expiresAt)
    const expired = await api(pageId, {}, q)
    expect(expired.status).toBe(403)
    expect((await json(expired)).error).toBe('this share link has expired')
    const list = await json(await ctx.request(`/user/analytics/${pageId}/tokens`, { key: owner.key }))
    expect(list.data.find((t: any) => t.id === token.id).state).toBe('expired')
    ctx.clock.set(NOW)
  })

  test('revoked token 403', async () => {
    const token = await createToken(ctx, owner.key, pageId)
    const revoke = await ctx.request(`/user/analytics/${pageId}/tokens/${token.id}`, { method: 'DELETE', key: owner.key })
    expect(revoke.status).toBe(200)
    expect((await json(revoke)).data.state).toBe('revoked')
    const response = await api(pageId, {}, `?token=${encodeURIComponent(token.token)}`)
    expect(response.status).toBe(403)
    expect((await json(response)).error).toBe('this share link was revoked')
  })
})

describe('share token routes', () => {
  const tokens = (id: number) => `/user/analytics/${id}/tokens`

  test('list never shows secrets; fields are complete', async () => {
    const created = await createToken(ctx, owner.key, pageId, { label: '<img src=x onerror=alert(1)>', read_only: false })
    expect(created.token).toMatch(/^lsh_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/)
    expect(created.url).toBe(`https://lantern.test/analytics/${pageId}?token=${created.token}`)
    const response = await ctx.request(tokens(pageId), { key: owner.key })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain(created.token.slice(17))
    const row = JSON.parse(text).data.find((t: any) => t.id === created.id)
    expect(row).toEqual({
      id: created.id,
      page_id: pageId,
      label: '<img src=x onerror=alert(1)>',
      read_only: false,
      created_at: new Date(NOW).toISOString(),
      expires_at: null,
      revoked_at: null,
      usage_count: 0,
      last_used_at: null,
      state: 'active',
    })
    const stored = await ctx.database.db.selectFrom('analytics_share_tokens').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(stored.secret_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(created.token).not.toContain(stored.secret_hash)
  })

  test('no credentials 401; another owner 404 on list, create and revoke', async () => {
    const token = await createToken(ctx, owner.key, pageId)
    expect((await ctx.request(tokens(pageId))).status).toBe(401)
    expect((await ctx.request(tokens(pageId), { method: 'POST', json: {} })).status).toBe(401)
    expect((await ctx.request(`${tokens(pageId)}/${token.id}`, { method: 'DELETE' })).status).toBe(401)
    expect((await ctx.request(tokens(pageId), { key: other.key })).status).toBe(404)
    expect((await ctx.request(tokens(pageId), { method: 'POST', key: other.key, json: {} })).status).toBe(404)
    expect((await ctx.request(`${tokens(pageId)}/${token.id}`, { method: 'DELETE', key: other.key })).status).toBe(404)
    // A token of one page addressed through another page of the same owner is not found either.
    expect((await ctx.request(`${tokens(secondPageId)}/${token.id}`, { method: 'DELETE', key: owner.key })).status).toBe(404)
    expect((await ctx.request(`${tokens(pageId)}/99999`, { method: 'DELETE', key: owner.key })).status).toBe(404)
    // Still active after all those attempts.
    const list = await json(await ctx.request(tokens(pageId), { key: owner.key }))
    expect(list.data.find((t: any) => t.id === token.id).state).toBe('active')
  })

  test('session cookie works with this Origin only for writes', async () => {
    expect((await ctx.request(tokens(pageId), { headers: { cookie: owner.cookie } })).status).toBe(200)
    expect((await ctx.request(tokens(pageId), { method: 'POST', json: {}, headers: { cookie: owner.cookie } })).status).toBe(403)
    expect((await ctx.request(tokens(pageId), { method: 'POST', json: {}, headers: { cookie: owner.cookie, origin: 'https://evil.test' } })).status).toBe(403)
    const ok = await ctx.request(tokens(pageId), { method: 'POST', json: { label: 'From the dashboard' }, headers: { cookie: owner.cookie, origin: ORIGIN } })
    expect(ok.status).toBe(201)
  })

  test('validation: expiry in the past or malformed, label too long or empty, wrong types', async () => {
    for (const [body, message] of [
      [{ expires_at: new Date(NOW).toISOString() }, 'expires_at must be in the future'],
      [{ expires_at: 'tomorrow' }, 'expires_at must be an RFC 3339'],
      [{ label: 'x'.repeat(101) }, 'label must be a string of at most 100 characters'],
      [{ label: '   ' }, 'label must be 1 to 100'],
      [{ read_only: 'yes' }, 'read_only'],
    ] as const) {
      const response = await ctx.request(tokens(pageId), { method: 'POST', key: owner.key, json: body })
      expect(response.status).toBe(400)
      expect((await json(response)).error).toContain(message)
    }
  })

  test('the free plan cannot create share tokens', async () => {
    const free = await ctx.createOwner('free')
    const page = await ctx.createPage(free.key, { slug: slug('free'), name: 'Free' })
    const response = await ctx.request(tokens(page.id), { method: 'POST', key: free.key, json: {} })
    expect(response.status).toBe(403)
    expect((await json(response)).error).toBe('Analytics share tokens require Pro plan or higher')
    expect((await ctx.request(tokens(page.id), { key: free.key })).status).toBe(200)
  })
})

describe('shared view /analytics/:id', () => {
  const view = (id: number, token: string) => ctx.request(`/analytics/${id}?token=${encodeURIComponent(token)}`)

  test('a live token opens the read-only dashboard, counts one use per opening, sends no referrer', async () => {
    const token = await createToken(ctx, owner.key, pageId)
    const response = await view(pageId, token.token)
    expect(response.status).toBe(200)
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    const body = await response.text()
    expect(body).toContain('Analytics: Acme &#60;b&#62;Status&#60;/b&#62;')
    expect(body).not.toContain('<b>Status</b>')
    expect(body).not.toContain('id="tokens"')
    expect(body).not.toContain('id="range-form"') // read-only links have no range picker
    expect(body).not.toMatch(/<script>[^<]/) // no inline scripts
    await view(pageId, token.token)
    ctx.clock.set(NOW + 60_000)
    await view(pageId, token.token)
    const list = await json(await ctx.request(`/user/analytics/${pageId}/tokens`, { key: owner.key }))
    const row = list.data.find((t: any) => t.id === token.id)
    expect(row.usage_count).toBe(3)
    expect(row.last_used_at).toBe(new Date(NOW + 60_000).toISOString())
    ctx.clock.set(NOW)
  })

  test('a token that is not read-only gets the range picker', async () => {
    const token = await createToken(ctx, owner.key, pageId, { read_only: false })
    expect(await (await view(pageId, token.token)).text()).toContain('id="range-form"')
  })

  test('revoked, expired, wrong, missing and other-page tokens get the access-revoked page (403, noindex)', async () => {
    const revoked = await createToken(ctx, owner.key, pageId)
    await ctx.request(`/user/analytics/${pageId}/tokens/${revoked.id}`, { method: 'DELETE', key: owner.key })
    const expiring = await createToken(ctx, owner.key, pageId, { expires_at: new Date(NOW + 1000).toISOString() })
    const otherPage = await createToken(ctx, other.key, otherPageId)
    const cases = [
      () => view(pageId, revoked.token),
      async () => {
        ctx.clock.set(NOW + 1000)
        const r = await view(pageId, expiring.token)
        ctx.clock.set(NOW)
        return r
      },
      () => view(pageId, 'lsh_wrong'),
      () => ctx.request(`/analytics/${pageId}`),
      () => view(pageId, otherPage.token),
      () => view(otherPageId, revoked.token),
    ]
    for (const attempt of cases) {
      const response = await attempt()
      expect(response.status).toBe(403)
      expect(response.headers.get('x-robots-tag')).toContain('noindex')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      const body = await response.text()
      expect(body).toContain('<meta name="robots" content="noindex, nofollow">')
      expect(body).toContain('This analytics link was revoked or has expired.')
    }
    const list = await json(await ctx.request(`/user/analytics/${pageId}/tokens`, { key: owner.key }))
    expect(list.data.find((t: any) => t.id === revoked.id).usage_count).toBe(0)
  })
})

describe('dashboard pages', () => {
  test('/user/analytics redirects to the first active page, or explains how to create one', async () => {
    const response = await ctx.request('/user/analytics', { headers: { cookie: owner.cookie } })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/user/analytics/${pageId}`)
    const lonely = await ctx.createOwner()
    const none = await ctx.request('/user/analytics', { headers: { cookie: await loginCookie(ctx, lonely.user.email) } })
    expect(none.status).toBe(200)
    expect(await none.text()).toContain('POST /user/api/v1/status-pages')
    expect((await ctx.request('/user/analytics')).status).toBe(303)
  })

  test('/user/analytics/:id: owner sees the dashboard, others 404, anonymous goes to login', async () => {
    const response = await ctx.request(`/user/analytics/${pageId}`, { headers: { cookie: owner.cookie } })
    expect(response.status).toBe(200)
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    const body = await response.text()
    expect(body).toContain('data-range="90d"')
    expect(body).toContain('id="tokens"')
    expect(body).toContain('<script src="/static/analytics/uplot.js" defer></script>')
    expect((await ctx.request(`/user/analytics/${pageId}?range=7d`, { headers: { cookie: owner.cookie } })).status).toBe(200)
    expect(await (await ctx.request(`/user/analytics/${pageId}?range=7d`, { headers: { cookie: owner.cookie } })).text()).toContain('data-range="7d"')
    expect((await ctx.request(`/user/analytics/${pageId}`, { headers: { cookie: other.cookie } })).status).toBe(404)
    const anonymous = await ctx.request(`/user/analytics/${pageId}`)
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get('location')).toBe(`/user/login?next=%2Fuser%2Fanalytics%2F${pageId}`)
  })

  test('legacy /user/analytics/statuspage redirects to the JSON of the first active page', async () => {
    for (const init of [{ key: owner.key }, { headers: { cookie: owner.cookie } }]) {
      const response = await ctx.request('/user/analytics/statuspage', init)
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(`/api/analytics/status-pages/${pageId}`)
    }
    expect((await ctx.request('/user/analytics/statuspage')).status).toBe(401)
    const lonely = await ctx.createOwner()
    expect((await ctx.request('/user/analytics/statuspage', { key: lonely.key })).status).toBe(404)
  })

  test('static assets are served from our origin', async () => {
    for (const path of ['/static/analytics/uplot.js', '/static/analytics/uplot.css', '/static/analytics/dashboard.js', '/static/user/user.css']) {
      const response = await ctx.request(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('etag')).toBeTruthy()
      expect((await response.text()).length).toBeGreaterThan(100)
    }
    expect((await ctx.request('/static/analytics/../../package.json')).status).toBe(404)
    expect((await ctx.request('/static/analytics/nope.js')).status).toBe(404)
  })

  test('the OpenAPI document lists the analytics routes (the dashboards and login are pages for people, not in it)', async () => {
    const doc = await json(await ctx.request('/swagger/json'))
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/analytics/status-pages/{id}', '/user/analytics/{id}/tokens', '/user/analytics/{id}/tokens/{token_id}']))
    for (const page of ['/user/login', '/user/analytics/{id}', '/analytics/{id}']) expect(Object.keys(doc.paths)).not.toContain(page)
  })
})

describe('a share token is no credential for owner routes', () => {
  test('tokens, dashboard and legacy routes ignore a live token', async () => {
    const live = await createToken(ctx, owner.key, pageId)
    const q = `?token=${encodeURIComponent(live.token)}`
    expect((await ctx.request(`/user/analytics/${pageId}/tokens${q}`)).status).toBe(401)
    expect((await ctx.request(`/user/analytics/${pageId}/tokens`, { headers: { authorization: `Bearer ${live.token}` } })).status).toBe(401)
    expect((await ctx.request(`/user/analytics/${pageId}/tokens${q}`, { method: 'POST', json: {} })).status).toBe(401)
    expect((await ctx.request(`/user/analytics/${pageId}/tokens/${live.id}${q}`, { method: 'DELETE' })).status).toBe(401)
    expect((await ctx.request(`/user/analytics/${pageId}${q}`)).status).toBe(303)
    expect((await ctx.request(`/user/analytics/statuspage${q}`)).status).toBe(401)
    // And an owner's session is no share token: the shared view wants the token.
    expect((await ctx.request(`/analytics/${pageId}`, { headers: { cookie: owner.cookie } })).status).toBe(403)
    // The token still works where it belongs, and was not revoked by any of this.
    expect((await ctx.request(`/analytics/${pageId}${q}`)).status).toBe(200)
  })
})

describe('plan', () => {
  test('share tokens made on a plan with them stop opening anything after a downgrade to free, and work again after an upgrade', async () => {
    const o = await ctx.createOwner('pro')
    const page = (await ctx.createPage(o.key, { slug: slug('down'), name: 'Downgraded' })).id
    const live = await createToken(ctx, o.key, page)
    const query = `?token=${encodeURIComponent(live.token)}`
    expect((await api(page, {}, query)).status).toBe(200)
    expect((await ctx.request(`/analytics/${page}${query}`)).status).toBe(200)
    await ctx.app.services.accounts.setPlan(o.user.email, 'free')
    const refused = await api(page, {}, query)
    expect(refused.status).toBe(403)
    expect((await json(refused)).error).toBe('Analytics share tokens require Pro plan or higher')
    expect((await ctx.request(`/analytics/${page}${query}`)).status).toBe(403)
    // The owner still sees their own analytics.
    expect((await api(page, { key: o.key })).status).toBe(200)
    await ctx.app.services.accounts.setPlan(o.user.email, 'pro')
    expect((await api(page, {}, query)).status).toBe(200)
  })
})
