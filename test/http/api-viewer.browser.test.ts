/**
 * The API reference at `/swagger` in real headless Chromium with every request off loopback
 * blocked (as on a machine without internet): Swagger UI is served by Lantern itself, lists the
 * operations, and runs under the site's CSP without a single violation, in light and dark.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../helpers/browser.ts'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'

let browser: Browser
let site: ListeningContext

beforeAll(async () => {
  site = await listenTestContext({ now: Date.UTC(2026, 10, 1, 12, 0, 0) })
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
}, 60_000)

for (const scheme of ['light', 'dark'] as const) {
  test(`/swagger lists the operations offline, with no CSP violation (${scheme}, 320 px)`, async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 800 }, colorScheme: scheme })
    const offSite: string[] = []
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url())
      if (url.hostname === 'localhost' || url.hostname === '127.0.0.1') return route.continue()
      offSite.push(url.href)
      return route.abort()
    })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text())
    })
    page.on('pageerror', (error) => problems.push(error.message))
    const response = await page.goto(`${site.base}/swagger`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
    expect(response?.headers()['content-security-policy']).not.toContain('http')
    // Operations of the management API, the embeds and the status hosts are listed as text.
    await page.getByText('/user/api/v1/status-pages/{id}', { exact: true }).first().waitFor({ timeout: 20_000 })
    const text = await page.locator('#swagger-ui').innerText()
    for (const expected of ['Lantern API', '/api/embed/status', '/api/v2/summary.json', '/history.rss', 'Status host']) expect(text).toContain(expected)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(offSite).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
}

test('/swagger has the same CSP as every other page of the service host, and its files come from the program', async () => {
  const policy = async (path: string) => (await site.ctx.request(path)).headers.get('content-security-policy')
  expect(await policy('/swagger')).toBe(await policy('/docs/'))
  const html = await (await site.ctx.request('/swagger')).text()
  expect(html).not.toMatch(/https?:\/\//)
  expect(html).not.toMatch(/<script>|<style|style="/)
  for (const src of html.match(/(?:src|href)="[^"]+"/g) ?? []) expect(src).toMatch(/="\//)
  const script = await site.ctx.request('/static/api-docs/swagger-ui.js')
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  expect(script.headers.get('etag')).toBeTruthy()
  expect((await site.ctx.request('/static/api-docs/nope.js')).status).toBe(404)
})
