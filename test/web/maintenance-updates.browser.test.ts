/**
 * Maintenance updates in real Chromium: on a window's screen, post an update (Markdown, a status),
 * see it in the timeline newest first and on the public page with markup as text; an empty update
 * is refused with the API's text and stores nothing.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { checkA11y, OWNER_PASSWORD, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<img src=x onerror="window.pwned=1">'

let app: WebApp
let context: BrowserContext
let page: Page
let slug: string
let windowId: number

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  slug = `mupd-${crypto.randomUUID().slice(0, 6)}`
  const pageId = (await app.server.ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug })).id
  const created = await app.server.ctx.request('/user/api/v1/maintenances', {
    method: 'POST',
    key: app.owner.key,
    json: { status_page_id: pageId, title: 'Database upgrade', start_at: '2026-11-23T11:00:00Z', end_at: '2026-11-23T14:00:00Z' },
  })
  windowId = ((await created.json()) as { data: { id: number } }).data.id
  context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  page = await context.newPage()
  await page.goto(`${app.base}/user/login`)
  await page.getByLabel('Email').fill(app.owner.email)
  await page.getByLabel('Password').fill(OWNER_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(`${app.base}/user`)
})
afterAll(async () => {
  await context.close()
  await app.close()
})

test('post updates on the window screen; the timeline and the public page show them newest first', async () => {
  await page.goto(`${app.base}/user/maintenance/${windowId}`)
  expect(await page.getByText('No updates yet.').isVisible()).toBe(true)
  // The status starts on the window's phase.
  expect(await page.getByLabel('Status').inputValue()).toBe('in_progress')

  // Empty: the API's text, nothing stored.
  await page.getByRole('button', { name: 'Post update' }).click()
  expect(await page.locator('#f-update_message-error').textContent()).toMatch(/message/i)
  const services = app.server.ctx.app.services
  expect((await services.maintenances.get(app.owner.user, windowId)).updates).toEqual([])

  await page.getByRole('textbox', { name: 'Update' }).fill('Replicas **upgraded**.')
  await page.getByRole('button', { name: 'Post update' }).click()
  await page.waitForURL(`${app.base}/user/maintenance/${windowId}#timeline-heading`)
  app.server.ctx.clock.set(NOW + 60_000)
  await page.getByRole('textbox', { name: 'Update' }).fill(`Verifying now ${MARKUP}`)
  await page.getByLabel('Status').selectOption('verifying')
  await page.getByRole('button', { name: 'Post update' }).click()
  await page.waitForURL(`${app.base}/user/maintenance/${windowId}#timeline-heading`)
  const timeline = page.locator('ol.timeline > li')
  expect(await timeline.count()).toBe(2)
  expect(await timeline.nth(0).innerText()).toContain('Verifying')
  expect(await timeline.nth(0).innerText()).toContain(MARKUP)
  expect(await timeline.nth(1).innerText()).toContain('In progress')
  await checkA11y(page)

  const visitor = await app.browser.newContext()
  const view = await visitor.newPage()
  await view.goto(app.server.statusHost(slug))
  const items = view.locator('article.maintenance ol.timeline > li')
  expect(await items.count()).toBe(2)
  expect(await items.nth(0).innerText()).toContain(`Verifying now ${MARKUP}`)
  expect(await items.nth(1).locator('strong').innerText()).toBe('upgraded')
  expect(await view.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
  await visitor.close()
})
