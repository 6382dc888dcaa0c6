/**
 * `GET /api/tls/ask` (Caddy on-demand TLS, status-pages module): a certificate only for a custom
 * domain of a page that may be served now (its plan allows custom domains, it is not blocked).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let owner: { key: string; user: { email: string } }

const ask = (query: string) => ctx.request(`/api/tls/ask${query}`)

beforeAll(async () => {
  ctx = await createTestContext()
  owner = await ctx.createOwner('growth')
  await ctx.createPage(owner.key, { slug: 'acme', name: 'Acme Cloud', custom_domain: 'a.io' })
  await ctx.createPage(owner.key, { slug: 'books', name: 'Bücher', custom_domain: 'status.bücher.de' })
})
afterAll(() => ctx.close())

describe('GET /api/tls/ask (Caddy on-demand TLS)', () => {
  test('200 only for a custom domain of a page that is not blocked', async () => {
    expect((await ask('?domain=a.io')).status).toBe(200)
    expect((await ask('?domain=A.IO.')).status).toBe(200)
    expect((await ask('?domain=status.b%C3%BCcher.de')).status).toBe(200)
    for (const query of ['', '?domain=', '?domain=acme.status.test', '?domain=lantern.test', '?domain=other.io', '?domain=127.0.0.1', '?domain=%3Cscript%3E', `?domain=${'x'.repeat(400)}`]) {
      const response = await ask(query)
      expect([400, 404]).toContain(response.status)
    }
  })

  test('404 while the plan has no custom domains, 200 again when it has', async () => {
    await ctx.app.services.accounts.setPlan(owner.user.email, 'free')
    expect((await ask('?domain=a.io')).status).toBe(404)
    await ctx.app.services.accounts.setPlan(owner.user.email, 'growth')
    expect((await ask('?domain=a.io')).status).toBe(200)
  })

  test('404 while the page is blocked, 200 again when unblocked', async () => {
    await ctx.app.services.pages.setBlocked('acme', true)
    expect((await ask('?domain=a.io')).status).toBe(404)
    await ctx.app.services.pages.setBlocked('acme', false)
    expect((await ask('?domain=a.io')).status).toBe(200)
  })
})
