/**
 * Partial outage and incident impact in real Chromium, through the browser only (the services are
 * used to seed components and to check what was stored): a component set to Partial outage on the
 * Components screen, an incident opened with a chosen impact and a component in partial outage, the
 * impact changed back to derived on the Edit form, and what the public page shows at each step.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { json } from '../helpers/context.ts'
import { checkA11y, checkLayouts, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let app: WebApp
let pageId: number
let slug: string
let apiComponent: number
let webComponent: number

const services = () => app.server.ctx.app.services
const user = () => app.owner.user

async function addComponent(name: string): Promise<number> {
  const response = await app.server.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key: app.owner.key, json: { name } })
  return (await json(response)).data.id as number
}

/** The public page (or one of its paths) as a visitor sees it. */
async function publicPage(path = '/'): Promise<{ text: string; banner: string | null }> {
  const context = await app.browser.newContext()
  const page = await context.newPage()
  await page.goto(`${app.server.statusHost(slug)}${path === '/' ? '' : path}`)
  const text = await page.locator('body').innerText()
  const banner = await page.locator('.banner').first().getAttribute('class').catch(() => null)
  await context.close()
  return { text, banner }
}

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  slug = `impact-${crypto.randomUUID().slice(0, 6)}`
  pageId = (await app.server.ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug })).id
  apiComponent = await addComponent('API')
  webComponent = await addComponent('Website')
})
afterAll(() => app.close())

describe('partial outage and impact in the browser', () => {
  test('the Components screen sets a partial outage; the public page shows it in orange words', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}/components`)
    await page.getByLabel('Status of API', { exact: true }).selectOption({ label: 'Partial outage' })
    await page.getByRole('button', { name: 'Set status of API' }).click()
    await page.waitForURL(/\/components/)
    expect((await services().components.get(user(), apiComponent)).status).toBe('partial')
    expect(await page.locator('.comp-state-partial').innerText()).toBe('Partial outage')
    await checkA11y(page)
    const shown = await publicPage()
    expect(shown.banner).toContain('banner--partial_outage')
    expect(shown.text).toContain('Partial outage')
  }, 120_000)

  test('an incident opened with a chosen impact and a status beside a component; Edit hands the impact back to the components', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}/incidents`)
    const form = page.locator('form.report-form')
    await form.getByLabel('Title', { exact: true }).fill('Website errors')
    await form.getByLabel('Status of Website').selectOption({ label: 'Partial outage' })
    await form.getByLabel('Impact').selectOption({ label: 'Critical' })
    await form.getByRole('button', { name: 'Open incident' }).click()
    await page.waitForURL(/\/user\/incidents\/\d+$/)
    const incidentId = Number(/\/user\/incidents\/(\d+)$/.exec(page.url())![1])
    const stored = await services().incidents.get(user(), incidentId)
    expect(stored.components.map((c) => c.id)).toEqual([webComponent])
    expect(stored).toMatchObject({ impact: 'critical', impactChosen: 'critical' })
    expect((await services().components.get(user(), webComponent)).status).toBe('partial')
    expect(await page.locator('#impact').innerText()).toBe('Impact: Critical (chosen)')
    await checkLayouts(page, app.shots, 'incident-impact', ['Website errors', 'Impact: Critical'])
    expect((await publicPage(`/incidents/${incidentId}`)).text).toContain('Impact: Critical.')

    // Back to derived: the Website is in partial outage, so the impact is major.
    const edit = page.locator('form[action$="/edit"]')
    expect(await edit.getByLabel('Impact').inputValue()).toBe('critical')
    await edit.getByLabel('Impact').selectOption({ label: 'From the components' })
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect(await services().incidents.get(user(), incidentId)).toMatchObject({ impact: 'major', impactChosen: null })
    expect(await page.locator('#impact').innerText()).toBe('Impact: Major (from the components)')
    expect((await publicPage(`/incidents/${incidentId}`)).text).toContain('Impact: Major.')

    // The update form sets the Website down: the derived impact follows.
    await page.getByLabel('Status of Website').selectOption({ label: 'Down' })
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${incidentId}`)
    expect(await page.locator('#impact').innerText()).toBe('Impact: Critical (from the components)')
  }, 180_000)

  test('a made-up impact posted to the form is refused beside the field, and nothing changes', async () => {
    const page = app.page
    const [incident] = await services().incidents.list(user(), { pageId })
    await page.goto(`${app.base}/user/incidents/${incident!.id}`)
    await page.locator('form[action$="/edit"] select[name="impact"]').evaluate((select: HTMLSelectElement) => {
      select.add(new Option('Huge', 'huge', true, true))
    })
    await page.locator('form[action$="/edit"]').getByRole('button', { name: 'Save changes' }).click()
    await page.waitForLoadState()
    expect(await page.locator('main').innerText()).toContain('Impact must be none, minor, major, critical or null')
    expect((await services().incidents.get(user(), incident!.id)).impactChosen).toBeNull()
  }, 60_000)
})
