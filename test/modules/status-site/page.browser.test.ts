/**
 * The public status page in real headless Chromium, served by a listening server: light and dark
 * mode, 320 px wide, per-day details on hover and focus, the private gate end to end, an SVG
 * favicon that cannot run its script, and an axe-core accessibility scan.
 * Status hosts are `<slug>.localhost:<port>`: Chromium resolves every `*.localhost` to loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { loadConfig } from '../../../src/config.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { startServer, type RunningServer } from '../../../src/main.ts'
import { launchBrowser, seriousAxeViolations as axeViolations } from '../../helpers/browser.ts'

let browser: Browser
let server: RunningServer
let dir: string
const shots = join(tmpdir(), 'lantern-screenshots')
const DAY = 86_400_000
// Late in a UTC day on purpose: an outage seeded relative to the wall clock used to cross midnight
// from 21:00 UTC on and split over two days. The server's clock is pinned; nothing reads the wall clock.
const NOW = Date.UTC(2026, 10, 22, 23, 30)
const TODAY = Date.UTC(2026, 10, 22)

const host = (slug: string) => `http://${slug}.localhost:${server.port}`

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-pages-e2e-'))
  mkdirSync(shots, { recursive: true })
  server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'db.sqlite') }), { clock: new ManualClock(NOW) })
  const { accounts, pages, components, pageAccess } = server.app.services
  const owner = await accounts.personalTeamOwner(await accounts.createUser({ email: 'e2e@example.com', password: 'correct horse battery', plan: 'business' }))
  const acme = await pages.create(owner, { slug: 'acme', name: 'Acme Cloud' })
  const now = NOW
  const names: Array<[string, string | null, 'site' | 'api' | 'dns']> = [
    ['Website', null, 'site'],
    ['Public API', 'Platform', 'api'],
    ['Webhooks', 'Platform', 'api'],
    ['DNS', 'Infrastructure', 'dns'],
  ]
  for (const [name, group, type] of names) {
    const c = await components.create(owner, acme.id, { name, group, type })
    await components.importHistory(owner, c.id, [
      { status: 'up', at: new Date(now - 120 * DAY).toISOString() },
      // 10:00 to 13:00 UTC five days ago: inside one UTC day whatever the hour of NOW.
      { status: 'down', at: new Date(TODAY - 5 * DAY + 10 * 3_600_000).toISOString() },
      { status: 'up', at: new Date(TODAY - 5 * DAY + 13 * 3_600_000).toISOString() },
    ])
  }
  const api = (await components.list(owner, acme.id)).find((c) => c.name === 'Public API')!
  await components.update(owner, api.id, { status: 'degraded' })
  const { incidents, maintenances } = server.app.services
  await incidents.create(owner, { status_page_id: acme.id, component_ids: [api.id], title: 'Elevated API error rates', message: 'We are investigating errors on the public API.' })
  await maintenances.create(owner, {
    status_page_id: acme.id,
    title: 'Database upgrade',
    message: 'Writes may be slow for a few minutes.',
    start_at: new Date(now + DAY).toISOString(),
    end_at: new Date(now + DAY + 3_600_000).toISOString(),
  })
  const secret = await pages.create(owner, { slug: 'secret', name: 'Secret Co', visibility: 'private' })
  await components.create(owner, secret.id, { name: 'Hidden Database' })
  await pageAccess.setPassword(secret.id, 'open sesame')
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** Console errors per page: a CSP violation (the page sends a strict CSP) shows up here. */
const consoleErrors = new WeakMap<Page, string[]>()

async function open(options: { colorScheme: 'light' | 'dark'; width?: number; url?: string }): Promise<Page> {
  const context = await browser.newContext({ colorScheme: options.colorScheme, viewport: { width: options.width ?? 1200, height: 900 } })
  const page = await context.newPage()
  const errors: string[] = []
  consoleErrors.set(page, errors)
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  const response = await page.goto(options.url ?? `${host('acme')}/`)
  expect(response?.status()).toBe(options.url ? expect.any(Number) as never : 200)
  return page
}


const luminance = (rgb: string) => {
  const [r, g, b] = rgb.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number]
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
}

describe('public status page in Chromium', () => {
  test('light mode: banner, components with type badges and uptime bars are visible', async () => {
    const page = await open({ colorScheme: 'light' })
    await page.screenshot({ path: join(shots, 'page-light.png'), fullPage: true })
    await expect(page.locator('.banner').textContent()).resolves.toBe('Degraded performance')
    expect(await page.locator('.banner').isVisible()).toBe(true)
    expect(await page.locator('h1').textContent()).toBe('Acme Cloud')
    const rows = page.locator('li.component')
    expect(await rows.count()).toBe(4)
    expect(await rows.nth(0).locator('.component__name').textContent()).toBe('Website')
    expect(await page.locator('li.component', { hasText: 'Public API' }).locator('.status').textContent()).toBe('Degraded performance')
    expect(await page.locator('li.component', { hasText: 'DNS' }).locator('.type').textContent()).toBe('DNS')
    expect(await page.getByRole('heading', { name: 'Platform' }).isVisible()).toBe(true)
    const bars = page.locator('ol.bars').first().locator('li')
    expect(await bars.count()).toBe(90)
    const box = (await bars.last().boundingBox())!
    expect(box.width).toBeGreaterThan(3)
    expect(box.height).toBeGreaterThan(20)
    expect(await page.locator('ol.bars li.major').count()).toBe(4)
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(luminance(bg)).toBeGreaterThan(0.9)
    expect(await page.locator('.uptime__legend .pct').first().textContent()).toMatch(/^\d+(\.\d+)?% uptime/)
    expect(await page.getByRole('heading', { name: 'Active incidents' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Elevated API error rates' }).first().isVisible()).toBe(true)
    expect(await page.getByText('We are investigating errors on the public API.').first().isVisible()).toBe(true)
    expect(await page.getByText('Database upgrade').isVisible()).toBe(true)
    expect(await page.locator('footer').textContent()).toMatch(/^Updated \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC/)
    // Styles load under the page's own strict CSP (no inline styles or scripts to refuse).
    expect(consoleErrors.get(page)).toEqual([])
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.banner')!).borderRadius)).toBe('8px')
    await page.context().close()
  })

  test('dark mode follows prefers-color-scheme with readable colours', async () => {
    const page = await open({ colorScheme: 'dark' })
    await page.screenshot({ path: join(shots, 'page-dark.png'), fullPage: true })
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    const fg = await page.evaluate(() => getComputedStyle(document.body).color)
    expect(luminance(bg)).toBeLessThan(0.15)
    expect(luminance(fg)).toBeGreaterThan(0.8)
    expect(await page.locator('.banner').isVisible()).toBe(true)
    expect(await page.locator('li.component').count()).toBe(4)
    expect(await axeViolations(page)).toEqual([])
    await page.context().close()
  })

  test('at 320 px: no sideways scrolling, 30 days of bars, everything readable', async () => {
    const page = await open({ colorScheme: 'light', width: 320 })
    await page.screenshot({ path: join(shots, 'page-320.png'), fullPage: true })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(overflow).toBeLessThanOrEqual(320)
    const visibleBars = await page.locator('ol.bars').first().locator('li:visible').count()
    expect(visibleBars).toBe(30)
    expect(await page.locator('.uptime__legend .days-30').first().isVisible()).toBe(true)
    expect(await page.locator('.banner').isVisible()).toBe(true)
    expect(await page.getByText('Webhooks').isVisible()).toBe(true)
    await page.context().close()
  })

  test('per-day details show on hover and on keyboard focus', async () => {
    const page = await open({ colorScheme: 'light' })
    const tip = page.locator('ol.bars').first().locator('li').last().locator('.tip')
    expect((await tip.boundingBox())!.width).toBeLessThanOrEqual(1)
    await page.locator('ol.bars').first().locator('li').last().hover()
    expect((await tip.boundingBox())!.width).toBeGreaterThan(40)
    expect(await tip.textContent()).toMatch(/: 100% uptime$/)
    await page.mouse.move(0, 0)
    // Tab reaches the day with the outage; its details appear.
    const outage = page.locator('ol.bars').first().locator('li.major')
    await outage.focus()
    const outageTip = outage.locator('.tip')
    expect((await outageTip.boundingBox())!.width).toBeGreaterThan(40)
    expect(await outageTip.textContent()).toMatch(/uptime, down 3 h$/)
    await page.screenshot({ path: join(shots, 'page-focus.png') })
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/down 3 h/)
    await page.context().close()
  })

  test('axe-core finds no serious violations on the page (light) and the history', async () => {
    const page = await open({ colorScheme: 'light' })
    expect(await axeViolations(page)).toEqual([])
    await page.goto(`${host('acme')}/history`)
    expect(await axeViolations(page)).toEqual([])
    await page.context().close()
  })
})

describe('private page gate in Chromium', () => {
  test('wrong password, right password, then the page; the cookie is HttpOnly and host-only', async () => {
    const context = await browser.newContext({ colorScheme: 'light' })
    const page = await context.newPage()
    const first = await page.goto(`${host('secret')}/`)
    expect(first?.status()).toBe(401)
    expect(await page.locator('h1').textContent()).toBe('Secret Co')
    expect(await page.content()).not.toContain('Hidden Database')
    expect(await axeViolations(page)).toEqual([])
    await page.getByLabel('Password').fill('not it')
    await page.getByRole('button', { name: 'View status' }).click()
    await page.waitForLoadState()
    expect(await page.getByRole('alert').textContent()).toBe('Wrong password.')
    await page.screenshot({ path: join(shots, 'gate-wrong.png') })
    await page.getByLabel('Password').fill('open sesame')
    await page.getByRole('button', { name: 'View status' }).click()
    await page.waitForURL(`${host('secret')}/`)
    expect(await page.getByText('Hidden Database').isVisible()).toBe(true)
    const cookies = await context.cookies()
    expect(cookies).toHaveLength(1)
    expect(cookies[0]).toMatchObject({ name: 'lantern_access', domain: 'secret.localhost', httpOnly: true, sameSite: 'Lax' })
    expect(cookies[0]!.expires - Date.now() / 1000).toBeGreaterThan(3500)
    await page.reload()
    expect(await page.getByText('Hidden Database').isVisible()).toBe(true)
    // The other page's host gets no cookie and no access.
    const other = await page.goto(`${host('acme')}/`)
    expect(other?.status()).toBe(200)
    await context.close()
  })
})

test('an uploaded SVG favicon with a script cannot run it, even opened directly', async () => {
  const { accounts, pages } = server.app.services
  const owner = await accounts.personalTeamOwner(await accounts.findUserByEmail('e2e@example.com'))
  const acme = (await pages.list(owner)).find((p) => p.slug === 'acme')!
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="document.title=\'pwned\'"><script>document.title="pwned";alert(1)</script><circle r="5"/></svg>'
  await server.app.branding.setImage(owner, acme.id, 'favicon', new TextEncoder().encode(svg))
  const context = await browser.newContext()
  const page = await context.newPage()
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  await page.goto(`${host('acme')}/`)
  const href = await page.locator('link[rel="icon"]').getAttribute('href')
  expect(href).toMatch(/^\/_lantern\/favicon\?v=/)
  await page.goto(`${host('acme')}${href}`)
  await page.waitForTimeout(200)
  expect(dialogs).toEqual([])
  expect(await page.title()).not.toBe('pwned')
  await context.close()
})

test('the live widget shows a private page only with its embed token (data-auth-token)', async () => {
  const { accounts, pages, pageAccess } = server.app.services
  const owner = await accounts.personalTeamOwner(await accounts.findUserByEmail('e2e@example.com'))
  const secret = (await pages.list(owner)).find((p) => p.slug === 'secret')!
  const token = await pageAccess.rotateEmbedToken(secret.id)
  const script = `http://127.0.0.1:${server.port}/static/embed/v1/status.js`
  const site = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const withToken = new URL(request.url).pathname === '/with'
      const tag = `<script src="${script}" data-slug="secret" data-theme="light"${withToken ? ` data-auth-token="${token}"` : ''}></script>`
      return new Response(`<!doctype html><html><head><title>intranet</title></head><body><p>Intranet</p>${tag}</body></html>`, {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      })
    },
  })
  try {
    const page = await browser.newPage()
    const shadowText = () => page.evaluate(() => document.querySelector('.lantern-status')?.shadowRoot?.textContent ?? '')
    await page.goto(`http://127.0.0.1:${site.port}/with`)
    await page.waitForFunction(() => /Operational|Degraded|Outage|Down|Maintenance/.test(document.querySelector('.lantern-status')?.shadowRoot?.textContent ?? ''))
    expect(await shadowText()).toContain('Operational')
    await page.goto(`http://127.0.0.1:${site.port}/without`)
    await page.waitForFunction(() => /unavailable/i.test(document.querySelector('.lantern-status')?.shadowRoot?.textContent ?? ''))
    expect(await shadowText()).not.toContain('Operational')
    await page.close()
  } finally {
    site.stop(true)
  }
})
