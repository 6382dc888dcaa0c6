/**
 * Page and component descriptions over real HTTP: the owner writes them in Markdown through the API
 * (too long, control characters or a lone surrogate is a 400 that changes nothing; an empty string
 * removes one); the public page shows them rendered by the safe Markdown subset (markup stays text),
 * the Statuspage-style JSON gives a component's as written (null for none).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number
let componentId: number
const HOST = 'https://described.status.test'

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'described', name: 'Described', description: 'Status of **Acme**. [Write to us](mailto:help@example.com).' })).id
  const made = await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'API', type: 'api', description: 'REST at `api.example.com`' } })
  expect(made.status).toBe(201)
  componentId = (await json(made)).data.id
})
afterAll(() => ctx.close())

const patchPage = (body: Record<string, unknown>) => ctx.request(`/user/api/v1/status-pages/${pageId}`, { method: 'PATCH', key, json: body })
const patchComponent = (body: Record<string, unknown>) => ctx.request(`/user/api/v1/components/${componentId}`, { method: 'PATCH', key, json: body })
const publicPage = async () => (await ctx.request(`${HOST}/`)).text()

describe('the owner writes descriptions', () => {
  test('they come back as written, trimmed', async () => {
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${pageId}`, { key }))).data.description).toBe('Status of **Acme**. [Write to us](mailto:help@example.com).')
    expect((await json(await ctx.request(`/user/api/v1/components/${componentId}`, { key }))).data.description).toBe('REST at `api.example.com`')
    const page = await ctx.createPage(key, { slug: 'plain', name: 'Plain' })
    expect(page.description).toBe('')
  })

  test('too long, control characters or a lone surrogate are a 400 that changes nothing', async () => {
    for (const body of [{ description: 'x'.repeat(2001) }, { description: 'bell\u0007' }, { description: 'half \ud800' }, { description: 42 }]) {
      const response = await patchPage(body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(/description/)
    }
    for (const body of [{ description: 'x'.repeat(501) }, { description: 'nul\u0000' }]) {
      const response = await patchComponent(body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(/description/)
    }
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${pageId}`, { key }))).data.description).toBe('Status of **Acme**. [Write to us](mailto:help@example.com).')
    expect((await json(await ctx.request(`/user/api/v1/components/${componentId}`, { key }))).data.description).toBe('REST at `api.example.com`')
  })

  test("someone else's page or component is a 404", async () => {
    const stranger = (await ctx.createOwner('pro')).key
    expect((await ctx.request(`/user/api/v1/status-pages/${pageId}`, { method: 'PATCH', key: stranger, json: { description: 'mine' } })).status).toBe(404)
    expect((await ctx.request(`/user/api/v1/components/${componentId}`, { method: 'PATCH', key: stranger, json: { description: 'mine' } })).status).toBe(404)
  })
})

describe('visitors read them', () => {
  test('the public page renders the safe Markdown under the names', async () => {
    const html = await publicPage()
    expect(html).toContain('<div class="page-description message"><p>Status of <strong>Acme</strong>. <a href="mailto:help@example.com" rel="nofollow noopener">Write to us</a>.</p>')
    expect(html).toContain('<div class="component__description message"><p>REST at <code>api.example.com</code></p>')
  })

  test('markup in a description stays text; a javascript: link is no link', async () => {
    expect((await patchPage({ description: '<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>' })).status).toBe(200)
    expect((await patchComponent({ description: '"><svg onload=alert(1)>' })).status).toBe(200)
    const html = await publicPage()
    expect(html).not.toContain('<script>alert(1)')
    expect(html).not.toContain('<img src=x')
    expect(html).not.toContain('<svg onload')
    expect(html).not.toContain('href="javascript:')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  test('the Statuspage-style JSON gives a component\'s description as written, null once removed', async () => {
    const summary = await json(await ctx.request(`${HOST}/api/v2/components.json`))
    expect(summary.components.find((c: { name: string }) => c.name === 'API').description).toBe('"><svg onload=alert(1)>')
    expect((await patchComponent({ description: '  ' })).status).toBe(200)
    expect((await patchPage({ description: '' })).status).toBe(200)
    const after = await json(await ctx.request(`${HOST}/api/v2/components.json`))
    expect(after.components.find((c: { name: string }) => c.name === 'API').description).toBeNull()
    const html = await publicPage()
    expect(html).not.toContain('page-description')
    expect(html).not.toContain('component__description')
  })
})
