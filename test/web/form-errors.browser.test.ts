/**
 * Error texts in the web app name fields as people see them: the sentence shows once beside its
 * field (and, labelled, in the "Please fix" summary), without the API's field paths ("target: …",
 * "palette.text …"); the API's own 400 for the same mistakes is one clean sentence. Real Chromium,
 * real server; the monitor and branding forms, where the paths leaked.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { checkA11y, startWebApp, type WebApp } from '../helpers/webapp.ts'

let app: WebApp
let pageId: number

beforeAll(async () => {
  app = await startWebApp({ now: Date.UTC(2026, 10, 23, 12, 0, 0) })
  pageId = (await app.server.ctx.createPage(app.owner.key, { slug: 'errors', name: 'Errors' })).id
})
afterAll(() => app.close())

/** Every error text on the screen: beside fields, and the summary's entries. */
async function errorTexts(page: Page) {
  return {
    beside: (await page.locator('.field-error').allInnerTexts()).filter(Boolean),
    summary: await page.locator('.error-summary li').allInnerTexts(),
  }
}

test('a refused monitor target: the sentence once beside Target, labelled once in the summary, no field path', async () => {
  const page = app.page
  await page.goto(`${app.base}/user/monitors/new?type=http`)
  await page.getByLabel('Name', { exact: true }).fill('local')
  await page.getByLabel('Target', { exact: true }).fill('http://127.0.0.1:8080/')
  await page.getByRole('button', { name: 'Create monitor' }).click()
  await page.waitForLoadState('load')
  const sentence = '127.0.0.1 is a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it)'
  expect(await errorTexts(page)).toEqual({ beside: [sentence], summary: [`Target: ${sentence}`] })
  expect(await page.locator('main').innerText()).not.toMatch(/\btarget:/)
  await checkA11y(page)
  // The API says the same in one sentence.
  const api = await app.server.ctx.request('/user/api/v1/monitors', { method: 'POST', key: app.owner.key, json: { name: 'local', type: 'http', target: 'http://127.0.0.1:8080/' } })
  expect(await api.json()).toEqual({ error: `target: ${sentence}` })
})

test("a schema rule without its own text: one sentence from the rule, never the schema library's wording", async () => {
  const api = (selectors: string[]) => app.server.ctx.request('/user/api/v1/tools/lookups', { method: 'POST', key: app.owner.key, json: { tool: 'dkim', target: 'example.com', selectors } })
  expect(await (await api(['x'.repeat(300)])).json()).toEqual({ error: 'selectors[0] must be at most 253 characters' })
  expect(await (await api([''])).json()).toEqual({ error: 'selectors[0] must not be empty' })
})

test('a branding contrast error reads with the fields as labelled, not palette paths', async () => {
  const page = app.page
  await page.goto(`${app.base}/user/pages/${pageId}/branding`)
  await page.getByLabel('Text', { exact: true }).fill('#fefefe')
  await page.getByLabel('Background', { exact: true }).fill('#ffffff')
  await page.getByRole('button', { name: 'Save branding' }).click()
  await page.waitForLoadState('load')
  const sentence = 'Text on background has a contrast of 1.01:1; at least 4.5:1 is needed to be readable'
  expect(await errorTexts(page)).toEqual({ beside: [sentence], summary: [sentence] })
  expect(await page.locator('main').innerText()).not.toContain('palette.')
  await checkA11y(page)
})
