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
let pageId: number
const EMAIL = 'dash@example.com'
const PASSWORD = 'correct horse battery'
// The server's clock is pinned late in a UTC day so the test never depends on the hour it runs at.
const NOW = Date.UTC(2026, 10, 22, 23, 30)
const MARKUP_NAME = '<img src=x onerror=alert(1)> & </script><!-- DB'

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-dash-'))
  server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'db.sqlite') }), { clock: new ManualClock(NOW) })
  base = `http://127.0.0.1:${server.port}`
  const { accounts, pages, components } = server.app.services
  const user = await accounts.personalTeamOwner(await accounts.createUser({ email: EMAIL, password: PASSWORD, plan: 'pro' }))
  const page = await pages.create(user, { slug: 'dash', name: 'Dash <Status>' })
  pageId = page.id
  const api = await components.create(user, page.id, { name: 'API' })
  // Markup in a name is text wherever the dashboard writes it (the server's HTML, the script's cells).
  await components.create(user, page.id, { name: MARKUP_NAME })
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

  // The figures and rows the server wrote are the ones the script writes for a range: switching to
  // 7 days and back to 90 gives the same markup.
  const served = { summary: await page.innerHTML('#summary'), rows: await page.innerHTML('#components tbody') }
  await page.click('button[data-range="7d"]')
  await page.waitForFunction(() => document.querySelector('#range-label')?.textContent?.includes('Last 7 days'))
  expect(page.url()).toContain('range=7d')
  expect(await page.getAttribute('button[data-range="7d"]', 'aria-pressed')).toBe('true')
  await page.click('button[data-range="90d"]')
  await page.waitForFunction(() => document.querySelector('#range-label')?.textContent?.includes('Last 90 days'))
  expect({ summary: await page.innerHTML('#summary'), rows: await page.innerHTML('#components tbody') }).toEqual(served)
  expect(await page.locator('#chart-uptime canvas').count()).toBeGreaterThan(0)
  await page.click('button[data-range="7d"]')
  await page.waitForFunction(() => document.querySelector('#range-label')?.textContent?.includes('Last 7 days'))

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

test('the dashboard HTML holds the summary, the components and the report before any script runs; the charts are drawn from it', async () => {
  const login = await fetch(`${base}/user/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: EMAIL, password: PASSWORD }),
  })
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
  expect(cookie).toContain('=')
  const response = await fetch(`${base}/user/analytics/${pageId}`, { headers: { cookie } })
  expect(response.status).toBe(200)
  const html = await response.text()
  // Read the way a browser without scripts would: the figures and rows are there.
  const found = { metrics: [] as string[], cells: [] as string[], label: '', json: '', scripts: 0 }
  let cell = ''
  await new HTMLRewriter()
    .on('#summary .metric .label', { text: (t) => void (t.text && found.metrics.push(t.text)) })
    .on('#components tbody td', { element: (e) => void (cell = '', e.onEndTag(() => void found.cells.push(cell))), text: (t) => void (cell += t.text) })
    .on('#range-label', { text: (t) => void (found.label += t.text) })
    .on('script#first-report', { element: () => void found.scripts++, text: (t) => void (found.json += t.text) })
    .transform(new Response(html))
    .text()
  expect(found.label).toBe('Last 90 days')
  expect(found.metrics).toContain('Outage periods (a component went down)')
  expect(html).toMatch(/<div class="value">1<\/div><div class="label">Outage periods/)
  // Cells hold the entity-decoded text: the name, never markup.
  const decode = (text: string) =>
    text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&')
  expect(found.cells.map(decode)).toContain('API')
  expect(found.cells.map(decode)).toContain(MARKUP_NAME)
  expect(html).not.toContain('<img src=x')
  expect(html).not.toContain('</script><!--')
  // The report is there once, in a JSON element the name cannot end early, and it is the API's.
  expect(found.scripts).toBe(1)
  const api = (await (await fetch(`${base}/api/analytics/status-pages/${pageId}?range=90d`, { headers: { cookie } })).json()) as { data: unknown }
  expect(JSON.parse(found.json)).toEqual(api.data)

  // In Chromium the charts are drawn from it, without asking the API.
  const context = await browser.newContext()
  const [name, value] = cookie.split('=') as [string, string]
  await context.addCookies([{ name, value, url: base }])
  const page = await context.newPage()
  const asked: string[] = []
  page.on('request', (request) => void (request.url().includes('/api/analytics/') && asked.push(request.url())))
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${base}/user/analytics/${pageId}`)
  await page.waitForSelector('#dashboard[data-loaded-range="90d"]')
  for (const chart of ['#chart-uptime', '#chart-views', '#chart-response']) expect(await page.locator(`${chart} canvas`).count()).toBeGreaterThan(0)
  expect(await page.locator('#components tbody td', { hasText: MARKUP_NAME }).count()).toBe(1)
  expect(asked).toEqual([])
  expect(errors).toEqual([])
  await context.close()
}, 60_000)
