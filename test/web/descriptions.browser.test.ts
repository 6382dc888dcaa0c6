/**
 * Descriptions in real Chromium, through the browser only (services are read solely to check
 * outcomes): the owner writes a page's description on its settings and a component's on its edit
 * form, in Markdown with markup in it; the public page shows them rendered (bold, a link, code) with
 * the markup as text; a description too long is said beside the field and changes nothing; an
 * emptied box removes it. axe light+dark and 320/1280 layouts of the public page with both.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<img src=x onerror="window.pwned=1">'

let app: WebApp
beforeAll(async () => {
  app = await startWebApp({ now: NOW })
})
afterAll(() => app.close())

const services = () => app.server.ctx.app.services

describe('descriptions in the browser', () => {
  test('written on the settings and the component form, shown rendered in public; too long is refused; emptied is removed', async () => {
    const page = app.page
    const slug = `desc-${crypto.randomUUID().slice(0, 6)}`
    await page.goto(`${app.base}/user`)
    await page.getByLabel('Name', { exact: true }).fill('Acme Described')
    await page.getByLabel('Slug', { exact: true }).fill(slug)
    await page.getByRole('button', { name: 'Create page' }).click()
    await page.waitForURL(/\/user\/pages\/\d+$/)
    const pageId = Number(/\/user\/pages\/(\d+)$/.exec(page.url())![1])
    const component = await services().components.create(app.owner.user, pageId, { name: 'API', type: 'api' })

    // The page's description on its settings.
    await page.goto(`${app.base}/user/pages/${pageId}/settings`)
    await page.getByLabel('Description', { exact: true }).fill(`Status of **Acme**. [Write to us](https://example.com/help) ${MARKUP}`)
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/settings`)
    expect(await page.getByRole('status').filter({ hasText: 'Settings saved.' }).isVisible()).toBe(true)
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(`Status of **Acme**. [Write to us](https://example.com/help) ${MARKUP}`)

    // The component's on its edit form; too long first: said beside the field, nothing saved.
    await page.goto(`${app.base}/user/pages/${pageId}/components/${component.id}`)
    await page.getByLabel('Description', { exact: true }).fill('x'.repeat(501))
    await page.getByRole('button', { name: 'Save component' }).click()
    expect(await page.getByText(/description.*500/i).first().isVisible()).toBe(true)
    expect((await services().components.get(app.owner.user, component.id)).description).toBe('')
    await page.getByLabel('Description', { exact: true }).fill('REST at `api.example.com`')
    await page.getByRole('button', { name: 'Save component' }).click()
    await page.waitForURL(new RegExp(`/user/pages/${pageId}/components#c-${component.id}$`))
    expect((await services().components.get(app.owner.user, component.id)).description).toBe('REST at `api.example.com`')

    // The visitor sees both rendered, the markup as text and never run.
    await page.goto(app.server.statusHost(slug))
    const intro = page.locator('.page-description')
    expect(await intro.locator('strong').textContent()).toBe('Acme')
    expect(await intro.getByRole('link', { name: 'Write to us' }).getAttribute('href')).toBe('https://example.com/help')
    expect(await intro.textContent()).toContain(MARKUP)
    expect(await page.locator('.page-description img').count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
    expect(await page.locator('.component__description code').textContent()).toBe('api.example.com')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'descriptions-public', ['Acme Described', 'Acme', 'API', 'api.example.com'])

    // Emptied boxes remove them.
    await page.goto(`${app.base}/user/pages/${pageId}/settings`)
    await page.getByLabel('Description', { exact: true }).fill('')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/settings`)
    await page.goto(`${app.base}/user/pages/${pageId}/components/${component.id}`)
    await page.getByLabel('Description', { exact: true }).fill('')
    await page.getByRole('button', { name: 'Save component' }).click()
    await page.waitForURL(new RegExp(`/user/pages/${pageId}/components#c-${component.id}$`))
    expect((await services().pages.get(app.owner.user, pageId)).description).toBe('')
    expect((await services().components.get(app.owner.user, component.id)).description).toBe('')
    await page.goto(app.server.statusHost(slug))
    expect(await page.getByRole('heading', { name: 'Acme Described' }).isVisible()).toBe(true)
    expect(await page.locator('.page-description, .component__description').count()).toBe(0)
  })
})
