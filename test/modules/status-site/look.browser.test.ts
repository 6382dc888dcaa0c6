/**
 * How the public page looks in real headless Chromium, light and dark: a resolved incident loses
 * the red stripe, a logo in the brand colour stays visible on the branded header, and 320 px
 * needs no sideways scroll. A listening test context with a fixed clock (no wall clock).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { contrastRatio, DEFAULT_PALETTE } from '../../../src/modules/branding/palette.ts'
import { launchBrowser } from '../../helpers/browser.ts'
import { json } from '../../helpers/context.ts'
import { listenTestContext, type ListeningContext } from '../../helpers/listening.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const shots = join(tmpdir(), 'lantern-screenshots')
// A logo drawn in the page's own brand colour (the default primary).
const BRAND_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="${DEFAULT_PALETTE.primary}"/></svg>`

let browser: Browser
let site: ListeningContext

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  site = await listenTestContext({ now: NOW })
  const { ctx } = site
  const { key } = await ctx.createOwner('business')
  const page = await ctx.createPage(key, { slug: 'look', name: 'Look Co' })
  const call = async (path: string, method: string, body: unknown) => {
    const response = await ctx.request(`/user/api/v1${path}`, { method, key, json: body })
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return json(response)
  }
  const component = await call(`/status-pages/${page.id}/components`, 'POST', { name: 'API' })
  const old = await call('/incidents', 'POST', { status_page_id: page.id, component_ids: [component.data.id], title: 'Old trouble', message: 'Looking' })
  await call(`/incidents/${old.data.id}`, 'PATCH', { state: 'resolved', message: 'Fixed' })
  await call('/incidents', 'POST', { status_page_id: page.id, title: 'Open trouble', message: 'Looking' })
  const form = new FormData()
  form.set('file', new File([BRAND_LOGO], 'logo.svg', { type: 'image/svg+xml' }))
  const logo = await ctx.request(`/user/api/v1/status-pages/${page.id}/logo`, { method: 'PUT', key, body: form })
  expect(logo.status).toBeLessThan(300)
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
}, 60_000)

/** `rgb(…)`/`rgba(…)` as #rrggbb; undefined when fully transparent. */
function hex(css: string): string | undefined {
  const parts = /rgba?\(([^)]+)\)/.exec(css)?.[1]?.split(/[ ,/]+/).filter(Boolean).map(Number)
  if (!parts || parts.length < 3 || parts[3] === 0) return undefined
  return `#${parts.slice(0, 3).map((v) => v.toString(16).padStart(2, '0')).join('')}`
}

async function open(scheme: 'light' | 'dark', width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme })
  const page = await context.newPage()
  const response = await page.goto(`${site.statusHost('look')}/`)
  expect(response?.status()).toBe(200)
  await page.waitForFunction(() => [...document.images].every((img) => img.complete && img.naturalWidth > 0))
  return page
}

for (const scheme of ['light', 'dark'] as const) {
  describe(`${scheme} mode`, () => {
    test('a resolved incident has no red stripe; an open one keeps it', async () => {
      const page = await open(scheme, 1280)
      const stripe = (title: string) =>
        page.locator('article.incident', { hasText: title }).first().evaluate((node) => getComputedStyle(node).borderLeftColor)
      const ok = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--st-operational').trim())
      const major = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--st-major_outage').trim())
      expect(hex(await stripe('Open trouble'))).toBe(major)
      expect(hex(await stripe('Old trouble'))).toBe(ok)
      await page.screenshot({ path: join(shots, `look-${scheme}-1280.png`), fullPage: true })
      await page.context().close()
    }, 30_000)

    test('a logo in the brand colour stands out from what is behind it on the header', async () => {
      const page = await open(scheme, 1280)
      const behind = await page.locator('header.site .brand img').evaluate((img) => {
        // The first opaque background from the logo outwards: what the logo is seen against.
        for (let node: Element | null = img; node; node = node.parentElement) {
          const colour = getComputedStyle(node).backgroundColor
          if (!/rgba\([^)]*,\s*0\)|transparent/.test(colour)) return colour
        }
        return 'rgb(255, 255, 255)'
      })
      expect(contrastRatio(DEFAULT_PALETTE.primary, hex(behind)!)).toBeGreaterThanOrEqual(3)
      await page.context().close()
    }, 30_000)

    test('320 px wide: no sideways scroll', async () => {
      const page = await open(scheme, 320)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      await page.screenshot({ path: join(shots, `look-${scheme}-320.png`), fullPage: true })
      await page.context().close()
    }, 30_000)
  })
}
