/**
 * Vendor status in the browser: from a component's screen the owner follows a provider's status
 * page (a local Statuspage-v2 server), sees what was read, and visitors see the provider's status
 * and open incidents on the public page; then the owner stops following.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { testDeps } from '../modules/monitors/fixtures.ts'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0)

let app: WebApp
let vendor: ReturnType<typeof Bun.serve>
let pageId: number
let slug: string
let componentId: number

beforeAll(async () => {
  vendor = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      Response.json({
        page: { id: 'p', name: 'Acme Cloud' },
        status: { indicator: 'major' },
        components: [{ id: 'c1', name: 'Object storage', status: 'major_outage' }],
        incidents: [{ name: 'Uploads <failing>', status: 'identified', impact: 'major', shortlink: 'https://stspg.io/up' }],
      }),
  })
  app = await startWebApp({ now: NOW, checkDeps: testDeps({ allowPrivate: true, names: { 'status.acme.example': ['127.0.0.1'] } }) })
  slug = `vendor-${crypto.randomUUID().slice(0, 6)}`
  pageId = (await app.server.ctx.createPage(app.owner.key, { slug, name: 'Shop' })).id
  const created = await app.server.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key: app.owner.key, json: { name: 'Storage' } })
  componentId = ((await created.json()) as { data: { id: number } }).data.id
})
afterAll(async () => {
  await app?.close()
  vendor?.stop(true)
})

describe('vendor status in the browser', () => {
  test('follow a provider, see it on the public page, stop following', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}/components/${componentId}`)
    await page.getByRole('link', { name: "Follow a provider's status page" }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/components/${componentId}/vendor-feed`)
    await checkA11y(page)
    // A wrong address first: the error next to the field.
    await page.getByLabel('Status page address').fill('ftp://status.acme.example')
    await page.getByRole('button', { name: 'Follow and read now' }).click()
    expect(await page.locator('#f-url-error').textContent()).toBe('Status page address must be a full http:// or https:// address')
    await page.getByLabel('Status page address').fill(`http://status.acme.example:${vendor.port}`)
    await page.getByLabel("Provider's component").fill('object storage')
    await page.getByRole('button', { name: 'Follow and read now' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/components/${componentId}/vendor-feed`)
    expect(await page.getByText('Storage follows Acme Cloud.').isVisible()).toBe(true)
    expect(await page.getByRole('heading', { name: 'Feed: Acme Cloud' }).isVisible()).toBe(true)
    expect(await page.getByText('Uploads <failing> (identified)').isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'vendor-feed', ['Vendor status: Storage', 'Feed: Acme Cloud'])

    const visitor = await app.browser.newPage()
    await visitor.goto(app.server.statusHost(slug))
    expect(await visitor.locator('.component .status').first().textContent()).toBe('Major outage')
    expect(await visitor.getByText('Status reported by Acme Cloud.').isVisible()).toBe(true)
    const link = visitor.getByRole('link', { name: 'Uploads <failing>' })
    expect(await link.getAttribute('href')).toBe('https://stspg.io/up')
    expect(await link.getAttribute('rel')).toBe('nofollow noopener')
    await checkLayouts(visitor, app.shots, 'vendor-public', ['Status reported by Acme Cloud.'])
    await visitor.close()

    await page.getByRole('button', { name: 'Stop following Acme Cloud' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/components/${componentId}`)
    expect(await page.getByText('Storage no longer follows a vendor status page.').isVisible()).toBe(true)
  })
})
