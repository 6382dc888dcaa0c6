import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { loadConfig } from '../../../src/config.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { startServer, type RunningServer } from '../../../src/main.ts'
import { launchBrowser, seriousAxeViolations as axeViolations } from '../../helpers/browser.ts'

// Real headless Chromium against the listening server: log in, open the dashboard, switch the
// range, create a share link, open it in a fresh browser context, revoke it, reload: access revoked.
let browser: Browser
let server: RunningServer
let dir: string
let base: string
const EMAIL = 'dash@example.com'
const PASSWORD = 'correct horse battery'
// The server's clock is pinned late in a UTC day so the test never depends on the hour it runs at.
const NOW = Date.UTC(2026, 10, 22, 23, 30)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-dash-'))
  server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'db.sqlite') }), { clock: new ManualClock(NOW) })
  base = `http://127.0.0.1:${server.port}`
  const { accounts, pages, components } = server.app.services
  const user = await accounts.personalTeamOwner(await accounts.createUser({ email: EMAIL, password: PASSWORD, plan: 'pro' }))
  const page = await pages.create(user, { slug: 'dash', name: 'Dash <Status>' })
  const api = await components.create(user, page.id, { name: 'API' })
  const day = 86_400_000
  const today = Date.UTC(2026, 10, 22)
  await components.importHistory(user, api.id, [
    { status: 'up', at: new Date(today - 40 * day).toISOString() },
    // 10:00 to 11:00 UTC three days before NOW: inside one day and inside the 7-day range.
    { status: 'down', at: new Date(today - 3 * day + 10 * 3_600_000).toISOString() },
    { status: 'up', at: new Date(today - 3 * day + 11 * 3_600_000).toISOString() },
  ])
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
}, 60_000)

test('owner logs in, switches range, shares, revokes; the shared view then shows access revoked', async () => {
  const owner = await browser.newContext()
  const page = await owner.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))

  await page.goto(`${base}/user/analytics`)
  expect(new URL(page.url()).pathname).toBe('/user/login')
  expect(await axeViolations(page)).toEqual([])
  await page.fill('input[name=email]', EMAIL)
  await page.fill('input[name=password]', PASSWORD)
  await page.click('button[type=submit]')
  await page.waitForURL(/\/user\/analytics\/\d+/)
  await expect(page.locator('h1').textContent()).resolves.toBe('Analytics: Dash <Status>')
  await page.waitForSelector('#summary .metric')
  expect(await page.textContent('#range-label')).toContain('Last 90 days')
  expect(await page.locator('#chart-uptime canvas').count()).toBeGreaterThan(0)
  const outages = await page.locator('#summary .metric', { hasText: 'Outage periods' }).locator('.value').textContent()
  expect(outages).toBe('1')
  expect(await axeViolations(page)).toEqual([])
  // The dashboard is one of the page's screens: its breadcrumbs and sub-navigation, Analytics current.
  expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toContain('Dash <Status>')
  const sections = page.getByRole('navigation', { name: 'Sections of Dash <Status>' })
  expect(await sections.getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBe('page')
  expect(await sections.getByRole('link', { name: 'Components' }).getAttribute('href')).toMatch(/^\/user\/pages\/\d+\/components$/)
  // At 1280 px the components table fits its card (nothing hidden in a sideways scroll), and its
  // scroller is a named region reachable by the keyboard where it does scroll (320 px).
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.waitForSelector('#components tbody tr')
  expect(await page.locator('#components').evaluate((table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth)).toBe(true)
  expect(await page.getByRole('region', { name: 'Components' }).getAttribute('tabindex')).toBe('0')
  await page.setViewportSize({ width: 320, height: 800 })
  expect(await axeViolations(page)).toEqual([])
  await page.setViewportSize({ width: 1280, height: 800 })

  await page.click('button[data-range="7d"]')
  await page.waitForFunction(() => document.querySelector('#range-label')?.textContent?.includes('Last 7 days'))
  expect(page.url()).toContain('range=7d')
  expect(await page.getAttribute('button[data-range="7d"]', 'aria-pressed')).toBe('true')

  await page.fill('#token-form input[name=label]', 'For the board')
  await page.click('#token-form button[type=submit]')
  await page.waitForSelector('#token-secret:not([hidden])')
  const shareUrl = await page.inputValue('#token-url')
  expect(shareUrl).toMatch(/\/analytics\/\d+\?token=lsh_/)
  await page.waitForSelector('#token-list tbody tr[data-state="active"]')

  // A stakeholder opens the link in a fresh browser (no cookies).
  const stakeholder = await browser.newContext()
  const shared = await stakeholder.newPage()
  const u = new URL(shareUrl)
  const sharedResponse = await shared.goto(`${base}${u.pathname}${u.search}`)
  expect(sharedResponse?.status()).toBe(200)
  expect(sharedResponse?.headers()['referrer-policy']).toBe('no-referrer')
  await shared.waitForSelector('#summary .metric')
  expect(await shared.locator('#tokens').count()).toBe(0)
  expect(await shared.locator('#range-form').count()).toBe(0)
  expect(await shared.textContent('h1')).toBe('Analytics: Dash <Status>')

  // The owner sees the opening counted, then revokes the link.
  await page.reload()
  await page.waitForSelector('#token-list tbody tr[data-state="active"]')
  expect(await page.locator('#token-list tbody tr td').nth(5).textContent()).toBe('1')
  await page.click('#token-list button[data-revoke]')
  await page.waitForSelector('#token-list tbody tr[data-state="revoked"]')

  const reloaded = await shared.reload()
  expect(reloaded?.status()).toBe(403)
  expect(await shared.textContent('h1')).toBe('Access revoked')
  expect(await shared.textContent('main')).toContain('This analytics link was revoked or has expired.')
  expect(await shared.getAttribute('meta[name=robots]', 'content')).toContain('noindex')
  expect(await axeViolations(shared)).toEqual([])
  // Logging out from the dashboard (a no-referrer page: the form posts `Origin: null`) works.
  await page.click('nav button[type=submit]')
  await page.waitForURL(/\/user\/login/)
  await page.goto(`${base}/user`)
  expect(new URL(page.url()).pathname).toBe('/user/login')
  expect(errors).toEqual([])
  await owner.close()
  await stakeholder.close()
}, 60_000)
