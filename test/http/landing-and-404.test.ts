/**
 * The service host's front page and its unknown paths: `/` is an HTML landing page; an unknown
 * path is the HTML 404 page for a browser (Accept prefers text/html) and `{"error": "not found"}`
 * for everyone else (no Accept, `*` + `/*`, JSON); HEAD gets the same status and headers, no body.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { prefersHtml } from '../../src/http/errors.ts'
import { createTestContext, type TestContext } from '../helpers/context.ts'

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

let closed: TestContext
let open: TestContext
beforeAll(async () => {
  closed = await createTestContext()
  open = await createTestContext({ env: { SIGNUP: 'open' } })
})
afterAll(async () => {
  await closed.close()
  await open.close()
})

describe('which clients prefer HTML', () => {
  test('browsers do; API clients, no Accept and */* do not', () => {
    expect(prefersHtml(BROWSER)).toBe(true)
    expect(prefersHtml('text/html')).toBe(true)
    expect(prefersHtml('text/*, application/json;q=0.5')).toBe(true)
    expect(prefersHtml(null)).toBe(false)
    expect(prefersHtml('')).toBe(false)
    expect(prefersHtml('*/*')).toBe(false)
    expect(prefersHtml('application/json')).toBe(false)
    expect(prefersHtml('application/json, text/html;q=0.5')).toBe(false)
    expect(prefersHtml('text/html;q=0, application/json')).toBe(false)
    expect(prefersHtml('text/html, application/json')).toBe(false)
    expect(prefersHtml('garbage;;;q=,')).toBe(false)
  })
})

describe('the landing page', () => {
  test('says what this instance is and links to log in, docs, changelog and the API docs', async () => {
    const response = await closed.request('/', { headers: { accept: BROWSER } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    const body = await response.text()
    expect(body).toContain('lantern.test')
    for (const href of ['/user/login', '/docs/', '/changelog', '/swagger']) expect(body).toContain(`href="${href}"`)
    expect(body).not.toContain('href="/user/signup"')
    expect(body).not.toMatch(/<script|style="|<style/)
  })

  test('offers sign-up when SIGNUP=open', async () => {
    expect(await (await open.request('/')).text()).toContain('href="/user/signup"')
  })

  test('is the same page for any Accept, and HEAD has its headers without a body', async () => {
    expect((await closed.request('/', { headers: { accept: 'application/json' } })).headers.get('content-type')).toContain('text/html')
    const head = await closed.request('/', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})

describe('unknown paths on the service host', () => {
  for (const path of ['/nope', '/user/api/v1/nope', '/static/nope.css', '/a/b/c?x=1']) {
    test(`${path}: HTML for a browser, JSON for API clients`, async () => {
      const page = await closed.request(path, { headers: { accept: BROWSER } })
      expect(page.status).toBe(404)
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page.headers.get('cache-control')).toBe('no-store')
      const html = await page.text()
      expect(html).toContain('<h1>Not found</h1>')
      expect(html).toContain('href="/"')
      for (const accept of [undefined, '*/*', 'application/json']) {
        const answer = await closed.request(path, { headers: accept ? { accept } : {} })
        expect(answer.status).toBe(404)
        expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
        expect(await answer.json()).toEqual({ error: 'not found' })
      }
    })
  }

  test('HEAD gets the 404 and its headers, no body', async () => {
    for (const accept of [BROWSER, 'application/json']) {
      const head = await closed.request('/nope', { method: 'HEAD', headers: { accept } })
      expect(head.status).toBe(404)
      expect(head.headers.get('content-type')).toContain(accept === BROWSER ? 'text/html' : 'application/json')
      expect(await head.text()).toBe('')
    }
  })

  test('a known route keeps its own errors: a missing page is JSON even for a browser', async () => {
    const { key } = await closed.createOwner()
    const answer = await closed.request('/user/api/v1/status-pages/999999', { key, headers: { accept: BROWSER } })
    expect(answer.status).toBe(404)
    expect(await answer.json()).toEqual({ error: expect.any(String) })
    expect(answer.headers.get('content-type')).toContain('application/json')
  })
})
