import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
  const growth = await ctx.createOwner('growth')
  await ctx.createPage(growth.key, { slug: 'preview', name: '<script>alert("name")</script> & Co' })
  const free = await ctx.createOwner('free')
  await ctx.createPage(free.key, { slug: 'preview-free', name: 'Free' })
  const pro = await ctx.createOwner('pro')
  await ctx.createPage(pro.key, { slug: 'preview-private', name: 'Private', visibility: 'private' })
})
afterAll(() => ctx.close())

describe('GET /embed/preview', () => {
  test('an HTML page with every snippet as code and live, the page name escaped', async () => {
    const response = await ctx.request('/embed/preview?slug=Preview')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const page = await response.text()
    expect(page).toStartWith('<!doctype html>')
    expect(page).not.toContain('<script>alert("name")</script>')
    expect(page).toContain('&#60;script&#62;alert(&#34;name&#34;)&#60;/script&#62; &#38; Co')
    expect(page).not.toContain('\\u')
    const snippets = await (await ctx.request('/api/embed/markdown?slug=preview')).json()
    for (const [id, code] of Object.entries(snippets as Record<string, string>)) {
      // The code block shows the snippet as text (escaped once)...
      const shown = new RegExp(`<code id="${id}">([^<]*)</code>`).exec(page)?.[1] ?? ''
      expect(shown.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))).toBe(code)
      expect(page).toContain(`data-copy="${id}"`)
    }
    // ...and the HTML snippets are live.
    expect(page).toContain(`<div class="live" data-snippet="widget_html">${(snippets as any).widget_html}</div>`)
    expect(page).toContain('/badge/preview/uptime.svg?days&#61;30')
  })

  test('missing slug 400, unknown or private page 404, free plan 403', async () => {
    const cases: Array<[string, number, string]> = [
      ['', 400, 'missing slug'],
      ['?slug=', 400, 'missing slug'],
      ['?slug=a&slug=b', 400, 'slug must be given only once'],
      ['?slug=nope', 404, 'not found'],
      ['?slug=preview-private', 404, 'not found'],
      ['?slug=%3Cb%3E', 404, 'not found'],
      ['?slug=preview-free', 403, 'Embeds require Pro plan or higher'],
    ]
    for (const [query, status, message] of cases) {
      const response = await ctx.request(`/embed/preview${query}`)
      expect(response.status).toBe(status)
      expect(await response.text()).toContain(`<p>${message}</p>`)
    }
  })
})
