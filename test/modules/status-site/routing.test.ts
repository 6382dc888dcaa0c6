import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let owner: { key: string; user: { email: string } }
let acme: { id: number }

const get = (url: string, headers?: HeadersInit) => ctx.request(url, { headers })

beforeAll(async () => {
  ctx = await createTestContext()
  owner = await ctx.createOwner('growth')
  acme = await ctx.createPage(owner.key, { slug: 'acme', name: 'Acme Cloud', custom_domain: 'a.io' })
  await ctx.request(`/user/api/v1/status-pages/${acme.id}/components`, { method: 'POST', key: owner.key, json: { name: 'Checkout API', type: 'api' } })
  await ctx.createPage(owner.key, { slug: 'books', name: 'Bücher', custom_domain: 'status.bücher.de' })
})
afterAll(() => ctx.close())

describe('routing table: which app answers which host', () => {
  test('the status subdomain serves the page, however the host is written', async () => {
    for (const url of ['https://acme.status.test/', 'https://ACME.Status.Test/', 'https://acme.status.test:8443/', 'https://acme.status.test./']) {
      const response = await get(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const body = await response.text()
      expect(body).toContain('<h1>Acme Cloud</h1>')
      expect(body).toContain('Checkout API')
    }
  })

  test('a short custom domain (a.io) reaches the page despite Elysia\'s router quirk', async () => {
    const page = await get('https://a.io/')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Checkout API')
    const status = await get('https://a.io/api/v2/status.json')
    expect(status.status).toBe(200)
    // The page answers on its domain before it is verified; its links keep the default address until then.
    expect((await json(status)).page.url).toBe('https://acme.status.test')
  })

  test('an IDN custom domain matches its punycode form', async () => {
    const response = await get('https://status.bücher.de/')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<h1>Bücher</h1>')
    expect((await get('https://STATUS.xn--bcher-kva.de/robots.txt')).status).toBe(200)
  })

  test('service routes are not reachable on status hosts', async () => {
    // Warm the service host's caches first: its fast lane must not answer for status hosts either.
    expect((await get('/api/embed/markdown?slug=acme')).status).toBe(200)
    expect((await get('/api/embed/markdown?slug=acme')).status).toBe(200)
    for (const path of ['/healthz', '/swagger', '/swagger/json', '/user/api/v1/status-pages', '/api/embed/markdown?slug=acme', '/api/tls/ask?domain=a.io', '/changelog', '/docs/', '/sitemap.xml', '/user/login']) {
      for (const host of ['https://acme.status.test', 'https://a.io']) {
        const response = await get(`${host}${path}`, { authorization: `Bearer ${owner.key}` })
        expect(response.status).toBe(404)
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      }
    }
  })

  test('status-host routes are not reachable on the service host', async () => {
    for (const path of ['/history', '/history.rss', '/api/v2/summary.json', '/_lantern/page.css', '/_lantern/access']) {
      const response = await get(path)
      expect(response.status).toBe(404)
      expect(await json(response)).toEqual({ error: 'not found' })
    }
    // `/` of the service host is its own front page, not a status page.
    const front = await (await get('/')).text()
    expect(front).toContain('<h1>Lantern at lantern.test</h1>')
    // The service host has robots.txt of its own (the site's), not a status page's.
    const robots = await (await get('/robots.txt')).text()
    expect(robots).toContain('Sitemap:')
    expect(robots).not.toBe(await (await get('https://acme.status.test/robots.txt')).text())
    expect((await get('/healthz')).status).toBe(200)
    expect((await get('http://127.0.0.1:3000/healthz')).status).toBe(200)
  })

  test('unknown slugs, unknown domains and odd hosts get a plain 404 page', async () => {
    for (const url of [
      'https://nobody.status.test/',
      'https://status.test/',
      'https://a.b.status.test/',
      'https://www.status.test/',
      'https://unknown-domain.example/',
      'https://xn--bcher-kva.status.test/',
    ]) {
      const response = await get(url)
      expect(response.status).toBe(404)
      expect(response.headers.get('x-robots-tag')).toBe('noindex')
      const body = await response.text()
      expect(body).toContain('There is no status page at this address.')
      expect(body).not.toContain('Acme')
      // Styled: the shared stylesheet it links is served on that same host.
      const css = /<link rel="stylesheet" href="([^"]+)">/.exec(body)![1]!.replaceAll('&#61;', '=')
      const sheet = await get(new URL(css, url).href)
      expect(sheet.status).toBe(200)
      expect(sheet.headers.get('content-type')).toBe('text/css; charset=utf-8')
      expect(await sheet.text()).toContain('.plain')
    }
  })

  test('an unknown path on a page\'s host is a styled "Page not found" that links back to the page', async () => {
    const page = await (await get('https://acme.status.test/')).text()
    const themeHref = /href="(\/_lantern\/theme\.css[^"]*)"/.exec(page)![1]!
    for (const [url, message] of [
      ['https://acme.status.test/nope', 'There is no page at this address.'],
      ['https://acme.status.test/status/../x/y?z=1', 'There is no page at this address.'],
      ['https://a.io/docs/', 'There is no page at this address.'],
      ['https://acme.status.test/incidents/abc', 'There is no such incident.'],
      ['https://acme.status.test/incidents/987654', 'There is no such incident.'],
    ] as const) {
      const response = await get(url)
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe('no-store')
      const body = await response.text()
      expect(body).toContain('<h1>Page not found</h1>')
      expect(body).toContain(message)
      expect(body).not.toContain('There is no status page at this address')
      expect(body).toContain('<a href="/">Back to the Acme Cloud status page</a>')
      // The page's own look: the shared stylesheet and its theme.
      expect(body).toContain('/_lantern/page.css?v')
      expect(body).toContain(themeHref)
    }
    // Other methods on a page's paths are the same 404, never a 500.
    const post = await ctx.request('https://acme.status.test/', { method: 'POST', body: 'x' })
    expect(post.status).toBe(404)
    expect(await post.text()).toContain('<h1>Page not found</h1>')
  })

  test('a custom domain stops working when the plan loses custom domains, and comes back', async () => {
    await ctx.app.services.accounts.setPlan(owner.user.email, 'free')
    expect((await get('https://a.io/')).status).toBe(404)
    expect((await get('https://acme.status.test/')).status).toBe(200)
    await ctx.app.services.accounts.setPlan(owner.user.email, 'growth')
    expect((await get('https://a.io/')).status).toBe(200)
  })

  test('HEAD, ETag and 304 on the page', async () => {
    const first = await get('https://acme.status.test/')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"/)
    expect(first.headers.get('cache-control')).toBe('public, no-cache')
    const again = await get('https://acme.status.test/', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    const head = await ctx.request('https://acme.status.test/', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  test('a change through the API shows on the page at once', async () => {
    const list = await json(await ctx.request(`/user/api/v1/status-pages/${acme.id}/components`, { key: owner.key }))
    const id = list.data[0].id
    await ctx.request(`/user/api/v1/components/${id}`, { method: 'PATCH', key: owner.key, json: { status: 'down' } })
    const body = await (await get('https://acme.status.test/')).text()
    expect(body).toContain('banner--major_outage')
    expect(body).toContain('Major outage')
    await ctx.request(`/user/api/v1/components/${id}`, { method: 'PATCH', key: owner.key, json: { status: 'up' } })
    expect(await (await get('https://acme.status.test/')).text()).toContain('All systems operational')
  })

  test('robots.txt: public pages may be indexed', async () => {
    const response = await get('https://acme.status.test/robots.txt')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await response.text()).toBe('User-agent: *\nAllow: /\n')
    expect(response.headers.get('x-robots-tag')).toBeNull()
    const page = await (await get('https://acme.status.test/')).text()
    expect(page).not.toContain('noindex')
  })

  test('the shared stylesheet and the theme are served from the status host', async () => {
    const page = await (await get('https://acme.status.test/')).text()
    const css = /href="(\/_lantern\/page\.css[^"]*)"/.exec(page)![1]!.replaceAll('&#61;', '=')
    const theme = /href="(\/_lantern\/theme\.css[^"]*)"/.exec(page)![1]!.replaceAll('&#61;', '=')
    const cssResponse = await get(`https://acme.status.test${css}`)
    expect(cssResponse.status).toBe(200)
    expect(cssResponse.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(cssResponse.headers.get('cache-control')).toContain('immutable')
    const themeResponse = await get(`https://acme.status.test${theme}`)
    expect(await themeResponse.text()).toContain('prefers-color-scheme:dark')
    const csp = (await get('https://acme.status.test/')).headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("style-src 'self'")
    expect(csp).not.toContain('unsafe')
    expect(page).not.toContain('<style')
    expect(page).not.toContain('<script')
    expect(page).not.toContain(' style=')
  })
})

describe('blocked pages', () => {
  test('every address of a blocked page answers 503 "Temporarily Unavailable" and reveals nothing', async () => {
    await ctx.app.services.pages.setBlocked('acme', true)
    for (const url of ['https://acme.status.test/', 'https://a.io/', 'https://acme.status.test/history', 'https://acme.status.test/_lantern/theme.css']) {
      const response = await get(url)
      expect(response.status).toBe(503)
      expect(response.headers.get('x-robots-tag')).toBe('noindex')
      const body = await response.text()
      expect(body).toContain('Temporarily Unavailable')
      expect(body).toContain('<meta name="robots" content="noindex">')
      expect(body).not.toContain('Acme')
      expect(body).not.toContain('Checkout')
    }
    // "On every path": unknown paths, odd incident ids and other methods too.
    for (const [method, url] of [
      ['GET', 'https://acme.status.test/nope'],
      ['GET', 'https://a.io/no/such/path'],
      ['GET', 'https://acme.status.test/incidents/abc'],
      ['GET', 'https://acme.status.test/incidents/987654'],
      ['GET', 'https://acme.status.test/_lantern/logo'],
      ['POST', 'https://acme.status.test/'],
      ['DELETE', 'https://acme.status.test/history'],
    ] as const) {
      const response = await ctx.request(url, { method })
      expect(`${method} ${url} ${response.status}`).toBe(`${method} ${url} 503`)
      expect(response.headers.get('retry-after')).toBe('3600')
      const body = await response.text()
      expect(body).toContain('Temporarily Unavailable')
      expect(body).not.toContain('Acme')
    }
    const api = await get('https://acme.status.test/api/v2/summary.json')
    expect(api.status).toBe(503)
    expect(await api.text()).not.toContain('Checkout')
    const robots = await get('https://acme.status.test/robots.txt')
    expect(await robots.text()).toBe('User-agent: *\nDisallow: /\n')
    expect(robots.headers.get('x-robots-tag')).toBe('noindex')
    await ctx.app.services.pages.setBlocked('acme', false)
    expect((await get('https://acme.status.test/')).status).toBe(200)
  })
})
