/**
 * Recurring maintenance in the web app, in real Chromium: added through the form on the page's
 * maintenance screen (weekly, in New York, with a skipped date), its next occurrences listed, an
 * error from the service shown, markup shown as text, the occurrences shown on the public page as
 * upcoming, and cancelling.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { OWNER_PASSWORD, startWebApp, type WebApp } from '../helpers/webapp.ts'

// Monday 8 March 2027, 12:00 UTC; New York moves to summer time on Sunday the 14th.
const NOW = Date.UTC(2027, 2, 8, 12)
let app: WebApp
let pageId: number
let context: BrowserContext
let page: Page

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  pageId = (await app.server.ctx.createPage(app.owner.key, { name: 'Acme', slug: `series-${crypto.randomUUID().slice(0, 6)}` })).id
  context = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' })
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

test('add weekly maintenance in New York, see its next occurrences across the change, then cancel it', async () => {
  await page.goto(`${app.base}/user/pages/${pageId}/maintenance`)
  const form = page.locator('#recurring')
  const fill = async (values: Record<string, string>) => {
    for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value)
  }
  await fill({ Title: '<b>Weekly</b> patching', 'Time zone': 'America/New_York', 'First date': '2027-03-08', 'Start time': '09:00', 'Duration (minutes)': '1500', 'Weekdays (weekly)': 'mo', 'Skipped dates (optional)': '2027-03-22' })
  await form.getByLabel('Repeats').selectOption('weekly')
  await form.getByRole('button', { name: 'Add recurring maintenance' }).click()
  // 1,500 minutes fit a weekly rule on one day (a daily rule refuses them, below).
  await page.waitForURL(/#recurring$/)
  let text = await page.locator('#recurring').innerText()
  expect(text).toContain('<b>Weekly</b> patching')
  expect(await page.evaluate(() => document.querySelector('#recurring b'))).toBeNull()
  expect(text).toContain('Every week on MO at 09:00 America/New_York, 1500 min, except 2027-03-22')
  // Listed in the remembered zone (UTC here): 14:00 in winter, 13:00 after the change; the 22nd skipped.
  const next = await page.locator('#recurring .next-occurrences li').allInnerTexts()
  expect(next.slice(0, 3).map((line) => line.replace(/\s+/g, ' '))).toEqual(['8 Mar 2027, 14:00 UTC', '15 Mar 2027, 13:00 UTC', '29 Mar 2027, 13:00 UTC'])

  const anonymous = await app.browser.newContext()
  const visitor = await anonymous.newPage()
  await visitor.goto(app.server.statusHost((await app.server.ctx.app.services.pages.get(app.owner.user, pageId)).slug))
  expect(await visitor.locator('body').innerText()).toContain('<b>Weekly</b> patching')
  await anonymous.close()

  const series = (await app.server.ctx.app.services.maintenanceSeries.list(app.owner.user, { pageId }))[0]!
  expect(series.rule).toMatchObject({ timeZone: 'America/New_York', weekdays: ['MO'], exceptions: ['2027-03-22'], frequency: 'weekly' })

  // A daily rule that long is refused with the service's words, nothing added.
  await fill({ Title: 'Too long', 'Time zone': 'UTC', 'First date': '2027-03-08', 'Start time': '09:00', 'Duration (minutes)': '1500', 'Weekdays (weekly)': '', 'Skipped dates (optional)': '' })
  await form.getByLabel('Repeats').selectOption('daily')
  await form.getByRole('button', { name: 'Add recurring maintenance' }).click()
  await expect(page.getByRole('alert').first().innerText()).resolves.toContain('duration_minutes must be at most 1380')
  expect(await app.server.ctx.app.services.maintenanceSeries.list(app.owner.user, { pageId })).toHaveLength(1)

  await page.goto(`${app.base}/user/pages/${pageId}/maintenance`)
  await page.getByRole('button', { name: 'Cancel “<b>Weekly</b> patching”' }).click()
  await page.waitForURL(/#recurring$/)
  text = await page.locator('#recurring').innerText()
  expect(text).not.toContain('patching')
  expect((await app.server.ctx.app.services.maintenanceSeries.list(app.owner.user, { pageId }))[0]!.cancelledAt).not.toBeNull()
})
