/**
 * The front page and the HTML 404 page in real headless Chromium, light and dark, at 320 and
 * 1280 px: readable text, no sideways scrolling, no CSP violation, no serious axe-core finding.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { launchBrowser, seriousAxeViolations } from '../helpers/browser.ts'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'

let browser: Browser
let site: ListeningContext

beforeAll(async () => {
  site = await listenTestContext({ now: Date.UTC(2026, 10, 1, 12, 0, 0), env: { SIGNUP: 'open' } })
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
}, 60_000)

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [320, 1280]) {
    test(`front page and 404 page (${scheme}, ${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme })
      const page = await context.newPage()
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error' && !/404/.test(message.text())) problems.push(message.text())
      })
      await page.goto(`${site.base}/`)
      expect(await page.locator('h1').innerText()).toBe(`Lantern at ${new URL(site.base).host}`)
      await page.getByRole('link', { name: 'Log in' }).waitFor()
      await page.getByRole('link', { name: 'Sign up' }).waitFor()
      await page.getByRole('link', { name: 'API reference' }).first().waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      expect(await seriousAxeViolations(page)).toEqual([])

      const missing = await page.goto(`${site.base}/no/such/page`)
      expect(missing?.status()).toBe(404)
      expect(await page.locator('h1').innerText()).toBe('Not found')
      await page.getByRole('link', { name: 'front page' }).click()
      await page.waitForURL(`${site.base}/`)
      expect(await seriousAxeViolations(page)).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    }, 60_000)
  }
}
