/**
 * What the user area says, as the browser receives it: no template escapes (`\u00B7`, `\u2026`)
 * leak into titles or text. Real app, real SQLite, HTTP through `app.handle`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../helpers/context.ts'
import { loginCookie, slug } from '../modules/analytics/helpers.ts'

let ctx: TestContext
let cookie: string
let pageId: number

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 23, 12, 0, 0) })
  const owner = await ctx.createOwner('pro')
  cookie = await loginCookie(ctx, owner.user.email)
  pageId = (await ctx.createPage(owner.key, { slug: slug('txt'), name: 'Acme' })).id
})
afterAll(() => ctx.close())

const page = async (path: string, withCookie = true) => {
  const response = await ctx.request(path, withCookie ? { headers: { cookie } } : {})
  expect(response.status).toBe(200)
  return response.text()
}
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]

test('user-area titles carry a real middle dot, not a \\u escape', async () => {
  expect(titleOf(await page('/user/login', false))).toBe('Log in · Lantern')
  expect(titleOf(await page('/user'))).toBe('Your status pages · Lantern')
  expect(titleOf(await page('/user/password'))).toBe('Change password · Lantern')
  expect(titleOf(await page(`/user/analytics/${pageId}`))).toBe('Analytics: Acme · Lantern')
})

test('the dashboard arrives with its range drawn; "Loading…" (a real ellipsis) is what its script says while another range loads', async () => {
  const html = await page(`/user/analytics/${pageId}`)
  expect(html).toContain('>Last 90 days</p>')
  expect(html).not.toMatch(/\\u[0-9a-f]{4}/i)
  const script = await (await ctx.request('/static/analytics/dashboard.js')).text()
  expect(script).toContain("textContent = 'Loading…'")
  expect(script).not.toMatch(/\\u2026/i)
})

test('no HTML page of the service carries a \\u escape in its text', async () => {
  for (const path of ['/user/login', '/user', '/user/password', `/user/analytics/${pageId}`, '/embed/preview?slug=nope']) {
    const text = await (await ctx.request(path, { headers: { cookie } })).text()
    expect(`${path}: ${/\\u[0-9a-f]{4}/i.exec(text)?.[0] ?? 'clean'}`).toBe(`${path}: clean`)
  }
})

test('every HTML template goes through the one html tag that fixes the escapes', async () => {
  const offenders: string[] = []
  for await (const file of new Bun.Glob('src/**/*.ts').scan('.')) {
    if (file === 'src/lib/html.ts') continue
    if ((await Bun.file(file).text()).includes("from 'ghtml'")) offenders.push(file)
  }
  expect(offenders).toEqual([])
})
