/**
 * The Auto incidents section of a page in real Chromium: turn the settings and components on
 * through the browser, the plan's refusal next to the form, the downgrade shown per component,
 * markup stays text, another owner's page is 404, and a POST without this site's Origin is 403.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
let pageId: number
const componentIds: number[] = []
const services = () => app.server.ctx.app.services

beforeAll(async () => {
  app = await startWebApp({ now: NOW, plan: 'growth' })
  const { ctx } = app.server
  pageId = (await ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug: `auto-${crypto.randomUUID().slice(0, 6)}` })).id
  for (const name of ['API', 'Web', 'Database', 'Queue', 'Search', MARKUP, 'Mail']) {
    const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key: app.owner.key, json: { name } })
    componentIds.push(((await response.json()) as { data: { id: number } }).data.id)
  }
  await ctx.request('/user/api/v1/monitors', {
    method: 'POST',
    key: app.owner.key,
    json: { name: 'API check', type: 'http', target: 'https://api.example.com/health', interval_seconds: 60, component_id: componentIds[0] },
  })
})
afterAll(async () => {
  await app.close()
})

describe('automatic incidents in the browser', () => {
  test('turn them on for six components, see the plan refuse a seventh after a downgrade, and which ones pause', async () => {
    const { page } = app
    await page.goto(`${app.base}/user/pages/${pageId}`)
    await page.getByRole('navigation', { name: 'Sections of Acme Cloud' }).getByRole('link', { name: 'Auto incidents' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/auto-incidents`)
    expect(await page.getByText('Mail is off on this server').isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'auto-incidents', ['Automatic incidents: Acme Cloud', 'Auto Incident Notify', 'Components with automatic incidents'])

    // Markup in a component name stays text.
    expect(await page.locator(`label[for="f-component-${componentIds[5]}"]`).innerText()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()

    await page.getByRole('checkbox', { name: 'Auto Incidents' }).check()
    await page.getByRole('checkbox', { name: 'Auto Incident Notify' }).check()
    await page.getByRole('checkbox', { name: 'Auto Resolve' }).check()
    for (const id of componentIds.slice(0, 6)) await page.locator(`#f-component-${id}`).check()
    await page.getByRole('button', { name: 'Save automatic incidents' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/auto-incidents`)
    expect(await page.getByRole('status').filter({ hasText: 'Automatic incidents saved.' }).isVisible()).toBe(true)
    let stored = await services().autoIncidentSettings.get(app.owner.user, pageId)
    expect({ on: stored.autoIncidents, notify: stored.notify, resolve: stored.autoResolve, used: stored.used }).toEqual({ on: true, notify: true, resolve: true, used: 6 })
    expect(await page.locator(`#f-component-${componentIds[0]}-state`).innerText()).toBe('Working')
    expect(await page.locator(`#f-component-${componentIds[1]}-state`).innerText()).toBe('On, but no monitor watches it yet')

    // Down to Pro (5): the newest of the six pauses, and the screen says so.
    await services().accounts.setPlan(app.owner.email, 'pro')
    await page.reload()
    expect(await page.locator(`#f-component-${componentIds[5]}-state`).innerText()).toContain('Paused: beyond your plan’s limit')
    expect(await page.locator(`#f-component-${componentIds[4]}-state`).innerText()).toBe('On, but no monitor watches it yet')
    expect(await page.getByText('only the 5 oldest work').isVisible()).toBe(true)

    // A seventh: refused with the limit and the count, nothing changes.
    await page.locator(`#f-component-${componentIds[6]}`).check()
    await page.getByRole('button', { name: 'Save automatic incidents' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'allows automatic incidents on 5 components and you have 6' })
    await alert.waitFor()
    expect(await page.locator(`#f-component-${componentIds[6]}`).isChecked()).toBe(true)
    await checkA11y(page)
    stored = await services().autoIncidentSettings.get(app.owner.user, pageId)
    expect(stored.used).toBe(6)
    expect(stored.components.find((c) => c.id === componentIds[6])!.enabled).toBe(false)
  })

  test("another owner's page is 404 and nothing changes; a POST without this site's Origin is 403", async () => {
    const other = await app.createOwner('enterprise')
    const theirs = (await app.server.ctx.createPage(other.key, { name: 'Theirs', slug: `theirs-${crypto.randomUUID().slice(0, 6)}` })).id
    const cookie = await app.cookieOf(app.context)
    expect((await fetch(`${app.base}/user/pages/${theirs}/auto-incidents`, { headers: { cookie } })).status).toBe(404)
    expect((await postForm(app, `/user/pages/${theirs}/auto-incidents`, { auto_incidents: 'on' }, { cookie })).status).toBe(404)
    expect((await services().autoIncidentSettings.get(other.user, theirs)).autoIncidents).toBe(false)

    for (const origin of [null, 'https://evil.example']) {
      const response = await postForm(app, `/user/pages/${pageId}/auto-incidents`, { auto_incident_notify: '' }, { cookie, origin })
      expect(response.status).toBe(403)
    }
    expect((await services().autoIncidentSettings.get(app.owner.user, pageId)).notify).toBe(true)

    // The form's own validation: a bad id is a 400 next to the components.
    const bad = await postForm(app, `/user/pages/${pageId}/auto-incidents`, { auto_incidents: 'on', component_ids: 'abc' }, { cookie })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Components must contain positive integer ids')
  })

  test('an automatic incident says so until a person posts an update in the web app; then it is theirs', async () => {
    const { page } = app
    const opened = await services().incidents.openAutomatic({
      pageId,
      componentId: componentIds[0]!,
      title: 'API is experiencing issues',
      message: 'We are investigating.',
      notifySubscribers: false,
    })
    await page.goto(`${app.base}/user/pages/${pageId}/incidents`)
    expect(await page.locator('.incident-row', { hasText: 'API is experiencing issues' }).getByText('Automatic', { exact: true }).isVisible()).toBe(true)
    await page.getByRole('link', { name: 'API is experiencing issues' }).click()
    await page.waitForURL(`${app.base}/user/incidents/${opened!.id}`)
    expect(await page.getByText('Post an update to take it over').isVisible()).toBe(true)
    await checkA11y(page)
    await page.getByLabel('Message', { exact: true }).fill('We see it too; a fix is coming.')
    await page.getByRole('button', { name: 'Post update' }).click()
    await page.getByText('now yours').waitFor()
    expect(await page.getByText('Automatic', { exact: true }).count()).toBe(0)
    const after = await services().incidents.get(app.owner.user, opened!.id)
    expect(after.automatic?.acknowledgedAt).toBe(NOW)
  })
})
