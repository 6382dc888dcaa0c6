import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { testZone } from '../../helpers/dns-zone.ts'

const BASE = 'https://lantern.test'
const SCRIPT = `${BASE}/static/embed/v1/status.js`

let ctx: TestContext
let owner: { key: string; user: { email: string } }
const dns = testZone()

beforeAll(async () => {
  ctx = await createTestContext({ dns })
  owner = await ctx.createOwner('growth')
})
afterAll(() => ctx.close())

const snippets = (query: string, headers?: HeadersInit) => ctx.request(`/api/embed/markdown${query}`, { headers })

describe('GET /api/embed/markdown', () => {
  test('answers the six snippets for a page on its status subdomain', async () => {
    await ctx.createPage(owner.key, { slug: 'acme', name: 'Acme' })
    const response = await snippets('?slug=acme')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const body = await json(response)
    const U = 'https://acme.status.test'
    const B = `${BASE}/badge/acme.svg`
    expect(body).toEqual({
      status_page_url: U,
      badge_markdown: `[![Status](${B})](${U})`,
      badge_html: `<a href="${U}"><img src="${B}" alt="Status"></a>`,
      widget_script: `<script src="${SCRIPT}" data-slug="acme" data-theme="auto"></script>`,
      widget_html: `<div><script src="${SCRIPT}" data-slug="acme" data-theme="auto" data-show-incidents="1" data-rtm="60" data-upd="7"></script></div>`,
      minimal_md: `**Status:** → [${U}](${U})`,
    })
    expect(Object.keys(body)).toHaveLength(6)
  })

  test('a conditional request with the ETag answers 304 without a body', async () => {
    const first = await snippets('?slug=acme')
    const etag = first.headers.get('etag')!
    const again = await snippets('?slug=acme', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect((await snippets('?slug=acme', { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304)
    expect((await snippets('?slug=acme', { 'if-none-match': '"stale"' })).status).toBe(200)
  })

  test('HEAD answers the headers of GET without a body', async () => {
    const response = await ctx.request('/api/embed/markdown?slug=acme', { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toBeTruthy()
    expect(await response.text()).toBe('')
  })

  test('the slug matches case-insensitively and the stored slug is what comes back', async () => {
    const body = await json(await snippets('?slug=ACmE'))
    expect(body.status_page_url).toBe('https://acme.status.test')
    expect(body.widget_script).toContain('data-slug="acme"')
  })

  test('missing or empty slug is 400 "missing slug"', async () => {
    for (const query of ['', '?slug=', '?other=1', '?slug']) {
      const response = await snippets(query)
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(await json(response)).toEqual({ error: 'missing slug' })
    }
  })

  test('a repeated slug parameter is refused instead of guessed', async () => {
    const response = await snippets('?slug=acme&slug=other')
    expect(response.status).toBe(400)
    expect(await json(response)).toEqual({ error: 'slug must be given only once' })
  })

  test('unknown, absurd and hostile slugs are 404 "not found" and never echoed', async () => {
    const hostile = [
      'nope',
      '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '"><img src=x onerror=alert(1)>',
      encodeURIComponent('ac\u0000me'),
      encodeURIComponent('\u212Acme'), // Kelvin sign: lower-cases to "k" in Unicode, must not match
      encodeURIComponent('ácme'),
      encodeURIComponent('acme\u200b'),
      encodeURIComponent('🔥'),
      'a'.repeat(50_000),
      '%ZZ',
    ]
    for (const slug of hostile) {
      const response = await snippets(`?slug=${slug}`)
      expect(response.status).toBe(404)
      const text = await response.text()
      expect(text).toBe('{"error":"not found"}')
    }
  })

  test('a blocked page is 404, and unblocking brings it back at once', async () => {
    await ctx.createPage(owner.key, { slug: 'blocky', name: 'Blocky' })
    expect((await snippets('?slug=blocky')).status).toBe(200)
    await ctx.app.services.pages.setBlocked('blocky', true)
    expect(await json(await snippets('?slug=blocky'))).toEqual({ error: 'not found' })
    await ctx.app.services.pages.setBlocked('blocky', false)
    expect((await snippets('?slug=blocky')).status).toBe(200)
  })

  test('a plan without the feature is 403 after the existence check; an upgrade opens it at once', async () => {
    const pro = await ctx.createOwner('pro')
    await ctx.createPage(pro.key, { slug: 'pro-page', name: 'Pro' })
    const response = await snippets('?slug=pro-page')
    expect(response.status).toBe(403)
    expect(await json(response)).toEqual({ error: 'Markdown API requires Growth plan or higher' })
    expect(response.headers.get('cache-control')).toBe('no-store')

    await ctx.app.services.accounts.setPlan(pro.user.email, 'business')
    expect((await snippets('?slug=pro-page')).status).toBe(200)
    await ctx.app.services.accounts.setPlan(pro.user.email, 'free')
    expect((await snippets('?slug=pro-page')).status).toBe(403)
    await ctx.app.services.accounts.setPlan(pro.user.email, 'oss_hero')
    expect((await snippets('?slug=pro-page')).status).toBe(200)
    // The 404 check comes first even on a plan without the feature.
    expect((await snippets('?slug=no-such-pro-page')).status).toBe(404)
  })

  test('a custom domain is linked once verified, and at once; changed, it waits for its own verification; cleared, the default address', async () => {
    const page = await ctx.createPage(owner.key, { slug: 'shop', name: 'Shop' })
    const before = await json(await snippets('?slug=shop'))
    expect(before.status_page_url).toBe('https://shop.status.test')

    const patch = (custom_domain: string | null) =>
      ctx.request(`/user/api/v1/status-pages/${page.id}`, { method: 'PATCH', key: owner.key, json: { custom_domain } })
    const check = () => ctx.request(`/user/api/v1/status-pages/${page.id}/custom-domain/check`, { method: 'POST', key: owner.key })

    // Saved but not resolving here yet: every link keeps the address that works.
    expect((await patch('Status.Shop.Example')).status).toBe(200)
    let body = await json(await snippets('?slug=shop'))
    expect(body.status_page_url).toBe('https://shop.status.test')
    expect((await json(await check())).data.custom_domain_status.state).toBe('pending')
    expect((await json(await snippets('?slug=shop'))).status_page_url).toBe('https://shop.status.test')

    // The CNAME is in place: verified, and the cached snippets follow at once.
    dns.cnames.set('status.shop.example', ['shop.status.test'])
    expect((await json(await check())).data.custom_domain_status.state).toBe('verified')
    body = await json(await snippets('?slug=shop'))
    expect(body.status_page_url).toBe('https://status.shop.example')
    expect(body.badge_markdown).toBe('[![Status](https://lantern.test/badge/shop.svg)](https://status.shop.example)')
    expect(body.minimal_md).toBe('**Status:** → [https://status.shop.example](https://status.shop.example)')

    // Another domain starts over as pending: the links go back to the default address, not to the new one.
    expect((await patch('bücher.example')).status).toBe(200)
    expect((await json(await snippets('?slug=shop'))).status_page_url).toBe('https://shop.status.test')
    dns.cnames.set('xn--bcher-kva.example', ['shop.status.test'])
    await check()
    expect((await json(await snippets('?slug=shop'))).status_page_url).toBe('https://xn--bcher-kva.example')

    expect((await patch(null)).status).toBe(200)
    body = await json(await snippets('?slug=shop'))
    expect(body.status_page_url).toBe('https://shop.status.test')
  })

  test('a slug change moves the snippets at once', async () => {
    const page = await ctx.createPage(owner.key, { slug: 'old-name', name: 'Renamed' })
    expect((await snippets('?slug=old-name')).status).toBe(200)
    await ctx.request(`/user/api/v1/status-pages/${page.id}`, { method: 'PATCH', key: owner.key, json: { slug: 'new-name' } })
    expect((await snippets('?slug=old-name')).status).toBe(404)
    const body = await json(await snippets('?slug=new-name'))
    expect(body.status_page_url).toBe('https://new-name.status.test')
  })

  test('a private page is not announced; making it public again shows the snippets at once', async () => {
    const page = await ctx.createPage(owner.key, { slug: 'secretive', name: 'Secret' })
    expect((await snippets('?slug=secretive')).status).toBe(200)
    const setVisibility = (visibility: string) =>
      ctx.request(`/user/api/v1/status-pages/${page.id}`, { method: 'PATCH', key: owner.key, json: { visibility } })
    await setVisibility('private')
    expect((await snippets('?slug=secretive')).status).toBe(404)
    await setVisibility('public')
    expect((await snippets('?slug=secretive')).status).toBe(200)
  })

  test('deleting a page removes its snippets at once', async () => {
    const page = await ctx.createPage(owner.key, { slug: 'doomed', name: 'Doomed' })
    expect((await snippets('?slug=doomed')).status).toBe(200)
    const response = await ctx.request(`/user/api/v1/status-pages/${page.id}`, { method: 'DELETE', key: owner.key })
    expect(response.status).toBe(200)
    expect((await snippets('?slug=doomed')).status).toBe(404)
  })

  test('markup in the page name never reaches the snippets', async () => {
    await ctx.createPage(owner.key, { slug: 'markup', name: '<script>alert(1)</script>"\'&' })
    const text = await (await snippets('?slug=markup')).text()
    expect(text).not.toContain('<script>alert')
    expect(text).not.toContain('alert(1)')
  })

  test('attribute values are HTML-escaped', async () => {
    const { buildSnippets } = await import('../../../src/modules/embed/snippets.ts')
    const s = buildSnippets(
      { slug: 'x', customDomain: null, customDomainState: null, plan: 'enterprise' },
      { baseUrl: 'https://a.test/"><b>', scheme: 'https', statusDomain: 'status.test' },
    )
    expect(s.badge_html).toContain('src="https://a.test/&quot;&gt;&lt;b&gt;/badge/x.svg"')
    expect(s.widget_script).toContain('src="https://a.test/&quot;&gt;&lt;b&gt;/static/embed/v1/status.js"')
  })

  test('uses the scheme of BASE_URL for status page addresses', async () => {
    const plain = await createTestContext({ env: { BASE_URL: 'http://localhost:3000', STATUS_DOMAIN: 'localhost:3000' } })
    try {
      const o = await plain.createOwner()
      await plain.createPage(o.key, { slug: 'dev', name: 'Dev' })
      const body = await json(await plain.request('/api/embed/markdown?slug=dev'))
      expect(body.status_page_url).toBe('http://dev.localhost:3000')
      expect(body.badge_markdown).toBe('[![Status](http://localhost:3000/badge/dev.svg)](http://dev.localhost:3000)')
    } finally {
      await plain.close()
    }
  })

  test('the answer is served from the cache until it expires (about 5 minutes)', async () => {
    await ctx.createPage(owner.key, { slug: 'cached', name: 'Cached' })
    expect((await snippets('?slug=cached')).status).toBe(200)
    // A write behind the services' back (as another process would do) is not seen while cached...
    await ctx.database.db.updateTable('status_pages').set({ custom_domain: 'sneaky.example', custom_domain_state: 'verified' }).where('slug', '=', 'cached').execute()
    expect((await json(await snippets('?slug=cached'))).status_page_url).toBe('https://cached.status.test')
    // ...until the entry expires.
    ctx.clock.advance(5 * 60_000)
    expect((await json(await snippets('?slug=cached'))).status_page_url).toBe('https://sneaky.example')
  })
})
