/**
 * The whole owner story in one run of real headless Chromium, the way a newcomer meets Lantern: a
 * real listening server (startServer, as `bun run start` runs it) on a FRESH database with no users
 * prints its first-run setup line; the link in it creates the first account; then a page, three
 * components in two groups, a reorder, an incident from a template with two updates and a resolve,
 * maintenance, branding seen on the public page, a private page whose gate a fresh context passes,
 * and an API key created and revoked. Only the browser is used (the revoked key is tried once with
 * fetch, as a script would); each step asserts what the user SEES, in the app and on the public page.
 * The clock is a ManualClock at a fixed instant.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { loadConfig } from '../../src/config.ts'
import { startServer, type RunningServer } from '../../src/main.ts'
import { launchBrowser } from '../helpers/browser.ts'
import { ManualClock } from '../helpers/clock.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const EMAIL = 'newcomer@example.com'
const PASSWORD = 'correct horse battery'
const SLUG = 'acme'

let dir: string
let server: RunningServer
let browser: Browser
let base: string
let statusHost: string

/** A port that was free a moment ago: BASE_URL must name it before the server starts (Origin rule). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port!
  probe.stop(true)
  return port
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-story-'))
  for (let attempt = 0; ; attempt++) {
    const port = freePort()
    // A newcomer's settings: BASE_URL and STATUS_DOMAIN left to their defaults (localhost:<port>).
    const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: join(dir, `lantern-${attempt}.sqlite`) })
    try {
      server = await startServer(config, { clock: new ManualClock(NOW), log: () => {} })
      base = `http://localhost:${port}`
      break
    } catch (error) {
      // Another process took the port in between: try another one.
      if (attempt >= 3) throw error
    }
  }
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** What a visitor (a fresh context: no session, no gate cookie) sees on the public status page. */
async function publicText(): Promise<string> {
  const visitor = await browser.newContext()
  try {
    const page = await visitor.newPage()
    await page.goto(`${statusHost}/`)
    return await page.locator('body').innerText()
  } finally {
    await visitor.close()
  }
}

const flash = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })
const idFrom = (page: Page, pattern: RegExp) => Number(pattern.exec(page.url())![1])

test('a newcomer runs a status page through an outage from the browser alone', async () => {
  // 1. The server says where to start: the line `bun run start` prints on an empty database.
  expect(server.setupLine).toBeDefined()
  const link = /(http:\/\/\S+\/user\/setup\?token=\S+)/.exec(server.setupLine!)?.[1]
  expect(link).toStartWith(`${base}/user/setup?token=`)

  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' })
  const page = await context.newPage()

  // 2. First account from the link; it lands logged in on the (empty) page list.
  await page.goto(link!)
  expect(await page.locator('h1').innerText()).toContain('Set up Lantern')
  await page.getByLabel('Email').fill(EMAIL)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL(`${base}/user`)
  expect(await flash(page, 'Welcome to Lantern').isVisible()).toBe(true)
  expect(await page.getByText(EMAIL).first().isVisible()).toBe(true)
  expect(await page.getByText('Your status pages').first().isVisible()).toBe(true)

  // 3. A page.
  await page.getByLabel('Name', { exact: true }).fill('Acme Cloud')
  await page.getByLabel('Slug', { exact: true }).fill(SLUG)
  await page.getByRole('button', { name: 'Create page' }).click()
  await page.waitForURL(/\/user\/pages\/\d+$/)
  const pageId = idFrom(page, /\/user\/pages\/(\d+)$/)
  expect(await flash(page, 'Page "Acme Cloud" created.').isVisible()).toBe(true)
  expect(await page.locator('h1').innerText()).toBe('Acme Cloud')
  // The public address, as the overview shows it.
  statusHost = (await page.locator('dt:text-is("Address") + dd a').getAttribute('href'))!.replace(/\/$/, '')
  expect(statusHost).toBe(`http://${SLUG}.localhost:${new URL(base).port}`)

  // 4. Three components in two groups, then Database moved above API.
  await page.getByRole('link', { name: 'Components', exact: true }).click()
  await page.waitForURL(`${base}/user/pages/${pageId}/components`)
  expect(await page.getByText('No components yet.').isVisible()).toBe(true)
  for (const [name, group] of [['Website', 'Frontend'], ['API', 'Backend'], ['Database', 'Backend']] as const) {
    const form = page.getByRole('region', { name: 'Add component' })
    await form.getByLabel('Name', { exact: true }).fill(name)
    await form.getByLabel('Group', { exact: true }).fill(group)
    await form.getByRole('button', { name: 'Add component' }).click()
    await flash(page, `Component "${name}" added.`).waitFor()
  }
  expect(await page.locator('.comp-name').allInnerTexts()).toEqual(['Website', 'API', 'Database'])
  await page.getByRole('button', { name: 'Move up Database' }).click()
  await page.getByText('"Database" moved up.').waitFor()
  expect(await page.locator('.comp-name').allInnerTexts()).toEqual(['Website', 'Database', 'API'])
  const shown = await publicText()
  expect(['Frontend', 'Website', 'Backend', 'Database', 'API'].map((text) => shown.indexOf(text)).every((at, i, all) => at >= 0 && (i === 0 || at > all[i - 1]!))).toBe(true)
  expect(shown).toContain('All systems operational')

  // 5. A template, then an incident opened from it on the page's overview.
  await page.getByRole('link', { name: 'Templates', exact: true }).click()
  await page.waitForURL(`${base}/user/templates`)
  await page.getByLabel('Name', { exact: true }).fill('Outage')
  await page.getByLabel('Incident title').fill('{{component}} outage')
  await page.getByLabel('First message').fill('We are investigating problems with {{component}}.')
  await page.getByRole('button', { name: 'Create template' }).click()
  await flash(page, 'Template "Outage" created.').waitFor()
  await page.getByRole('link', { name: 'Pages', exact: true }).click()
  await page.getByRole('link', { name: 'Acme Cloud', exact: true }).first().click()
  await page.waitForURL(`${base}/user/pages/${pageId}`)
  await page.getByLabel('Template').selectOption({ label: 'Outage' })
  await page.getByRole('checkbox', { name: 'API' }).check()
  await page.getByLabel('Status of API').selectOption('down')
  await page.getByRole('button', { name: 'Open incident' }).click()
  await page.waitForURL(/\/user\/incidents\/\d+$/)
  const incidentId = idFrom(page, /\/user\/incidents\/(\d+)$/)
  expect(await page.locator('h1').innerText()).toBe('API outage')
  expect(await flash(page, 'Incident "API outage" opened.').isVisible()).toBe(true)
  let seen = await publicText()
  expect(seen).toContain('API outage')
  expect(seen).toContain('We are investigating problems with API.')

  // 6. Two updates.
  for (const [message, state, label] of [
    ['The cause is a bad deploy.', 'identified', 'Identified'],
    ['A fix is out; watching.', 'monitoring', 'Monitoring'],
  ] as const) {
    await page.getByLabel('Message', { exact: true }).fill(message)
    await page.getByLabel('State').selectOption(state)
    await page.getByRole('button', { name: 'Post update' }).click()
    await flash(page, 'Update posted.').waitFor()
    expect(await page.locator('main').innerText()).toContain(message)
    seen = await publicText()
    expect(seen).toContain(message)
    expect(seen).toContain(label)
  }

  // 7. Resolved: the app says so, the public page is operational again.
  await page.getByRole('button', { name: 'Resolve' }).click()
  await page.waitForURL(`${base}/user/incidents/${incidentId}`)
  expect(await flash(page, 'Incident "API outage" resolved.').isVisible()).toBe(true)
  expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0)
  seen = await publicText()
  expect(seen).toContain('Resolved')
  expect(seen).not.toContain('Active incidents')
  expect(seen).toContain('All systems operational')

  // 8. Maintenance tomorrow morning (the browser's zone is UTC).
  await page.goto(`${base}/user/pages/${pageId}`)
  await page.getByRole('link', { name: 'Schedule maintenance' }).click()
  const schedule = page.locator('#schedule')
  await schedule.getByLabel('Title').fill('Database upgrade')
  await schedule.getByLabel('Starts').fill('2026-11-24T09:00')
  await schedule.getByLabel('Ends').fill('2026-11-24T11:00')
  await schedule.getByRole('button', { name: 'Schedule' }).click()
  await flash(page, 'Maintenance "Database upgrade" scheduled.').waitFor()
  expect(await page.locator('#maint-upcoming + ul').innerText()).toContain('24 Nov 2026, 09:00 UTC')
  seen = await publicText()
  expect(seen).toContain('Database upgrade')
  expect(seen).toContain('Scheduled')

  // 9. Branding: a primary colour, seen by a visitor on the public page's header.
  await page.goto(`${base}/user/pages/${pageId}`)
  await page.getByRole('link', { name: 'Branding', exact: true }).click()
  await page.waitForURL(`${base}/user/pages/${pageId}/branding`)
  await page.getByLabel('Primary', { exact: true }).fill('#8a1c7c')
  await page.getByRole('button', { name: 'Save branding' }).click()
  await flash(page, 'Branding saved.').waitFor()
  const visitor = await browser.newContext()
  const branded = await visitor.newPage()
  await branded.goto(`${statusHost}/`)
  expect(await branded.locator('header.site').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(138, 28, 124)')
  expect(await branded.locator('header.site').innerText()).toContain('Acme Cloud')
  await visitor.close()

  // 10. Private with a gate password; a fresh context meets the gate and passes it.
  await page.getByRole('link', { name: 'Access', exact: true }).click()
  await page.waitForURL(`${base}/user/pages/${pageId}/access`)
  await page.getByLabel('Who can read the page').selectOption('private')
  await page.getByRole('button', { name: 'Save visibility' }).click()
  await flash(page, 'The page is now private.').waitFor()
  await page.getByLabel('Password', { exact: true }).fill('open sesame 42')
  await page.getByRole('button', { name: 'Set password' }).click()
  await page.getByRole('button', { name: 'Change password' }).waitFor()
  const stranger = await browser.newContext()
  const gate = await stranger.newPage()
  await gate.goto(`${statusHost}/`)
  expect(await gate.locator('body').innerText()).not.toContain('Database upgrade')
  await gate.getByLabel('Password').fill('wrong password')
  await gate.getByRole('button', { name: 'View status' }).click()
  expect(await gate.locator('body').innerText()).not.toContain('Database upgrade')
  await gate.getByLabel('Password').fill('open sesame 42')
  await gate.getByRole('button', { name: 'View status' }).click()
  await gate.waitForSelector('header.site h1')
  expect(await gate.locator('header.site h1').innerText()).toContain('Acme Cloud')
  expect(await gate.locator('body').innerText()).toContain('Database upgrade')
  await stranger.close()

  // 11. An API key: created and shown once, used by a script, revoked; then the script gets 401.
  await page.getByRole('link', { name: 'API keys', exact: true }).click()
  await page.waitForURL(`${base}/user/api-keys`)
  await page.getByLabel('Name', { exact: true }).fill('deploy script')
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = await page.getByRole('textbox', { name: 'API key deploy script' }).inputValue()
  expect(await page.getByText('shown this once').first().isVisible()).toBe(true)
  const script = () => fetch(`${base}/user/api/v1/status-pages`, { headers: { authorization: `Bearer ${key}` } })
  const before = await script()
  expect(before.status).toBe(200)
  expect(((await before.json()) as { data: Array<{ slug: string }> }).data.map((p) => p.slug)).toEqual([SLUG])
  await page.goto(`${base}/user/api-keys`)
  await page.getByRole('link', { name: 'Revoke deploy script' }).click()
  await page.getByRole('button', { name: 'Revoke key' }).click()
  await page.waitForURL(`${base}/user/api-keys`)
  expect(await flash(page, 'Key "deploy script" revoked').isVisible()).toBe(true)
  expect((await script()).status).toBe(401)

  await context.close()
}, 120_000)
