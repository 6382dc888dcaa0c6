/**
 * The SLA screens in real Chromium, through the browser only (the API and the database are used
 * solely to seed history and check what changed): set a target, read the report, download the
 * PDF, the monthly mail setting; field errors with the API's texts; markup stays text; another
 * owner's ids; the Origin rule; axe in light and dark; 320 and 1280 px layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { pdfText } from '../modules/sla/helpers.ts'

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
let pageId: number
let componentId: number
let markupId: number

async function api(path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await app.server.ctx.request(`/user/api/v1${path}`, { method: init.method ?? 'GET', key: app.owner.key, json: init.json })
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: any }).data
}

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  pageId = (await app.server.ctx.createPage(app.owner.key, { slug: `sla-${crypto.randomUUID().slice(0, 6)}`, name: 'Acme SLA' })).id
  componentId = (await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: 'Checkout API' } })).id
  markupId = (await api(`/status-pages/${pageId}/components`, { method: 'POST', json: { name: MARKUP } })).id
  await api(`/components/${componentId}/history`, {
    method: 'POST',
    json: [
      { status: 'up', at: '2026-10-20T00:00:00Z' },
      { status: 'down', at: '2026-11-10T10:00:00Z' },
      { status: 'up', at: '2026-11-10T10:43:12Z' },
    ],
  })
  await api(`/components/${markupId}/history`, { method: 'POST', json: [{ status: 'up', at: '2026-10-20T00:00:00Z' }] })
})
afterAll(() => app.close())

describe('SLA screens in the browser', () => {
  test('set a target, read November, download the PDF, turn the monthly mail on', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}`)
    await page.getByRole('navigation', { name: /Sections of/ }).getByRole('link', { name: 'SLA' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/sla`)
    await checkA11y(page)
    // At 1280 px "Set target" is in view (it sits in the Target column, near the start of the row).
    await page.setViewportSize({ width: 1280, height: 800 })
    const setTarget = page.getByRole('link', { name: 'Set target of Checkout API' })
    const box = (await setTarget.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(1280)

    await page.getByRole('link', { name: 'Set target of Checkout API' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/components/${componentId}/sla`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'sla-target', ['SLA target: Checkout API', 'Shortest outage counted'])
    // A wrong value first: the API schema's own text, next to the field.
    await page.getByLabel('Target (%)').fill('100')
    await page.getByRole('button', { name: 'Save target' }).click()
    expect(await page.locator('#f-target_percent-error').textContent()).toBe('Target (%) must be a number from 50 to 99.9999')
    expect(await page.locator('#f-target_percent').getAttribute('aria-invalid')).toBe('true')
    await checkA11y(page)
    await page.getByLabel('Target (%)').fill('99.9')
    await page.getByRole('button', { name: 'Save target' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/sla`)
    expect(await page.getByText('SLA target of Checkout API saved.').isVisible()).toBe(true)
    expect((await api(`/status-pages/${pageId}/sla/targets`)).find((t: any) => t.component_id === componentId).target).toMatchObject({
      target_percent: 99.9,
      period: 'month',
      breach_alerts: true,
      policy: { degraded_counts_as: 'up', exclude_maintenance: true, min_outage_seconds: 0 },
    })

    await page.getByLabel('From (UTC day)').fill('2026-11-01')
    await page.getByLabel('To (UTC day, inclusive)').fill('2026-11-30')
    await page.getByRole('button', { name: 'Show report' }).click()
    await page.waitForURL(/from=2026-11-01&to=2026-11-30/)
    const row = page.getByRole('row', { name: /Checkout API/ }).first()
    expect(await row.textContent()).toContain('99.9000 %')
    expect(await row.textContent()).toContain('0:43:12')
    expect(await row.textContent()).toContain('100.00 %')
    expect(await page.getByRole('img', { name: /Checkout API, days: 29 up, 1 degraded or briefly down/ }).count()).toBe(1)
    // Markup in a component name stays text.
    expect(await page.getByRole('row', { name: /<b>bold<\/b>/ }).count()).toBeGreaterThan(0)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'sla-report', ['SLA: Acme SLA', '1 Nov 2026 to 30 Nov 2026', 'Accounting policy', 'Excluded maintenance'])

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'PDF' }).click()])
    const text = pdfText(new Uint8Array(await Bun.file((await download.path())!).arrayBuffer()))
    expect(text).toMatch(/Checkout API\s+99\.9000 %\s+99\.9000 %\s+yes\s+0:43:12/)

    expect(await page.getByText('Mail is off on this instance').isVisible()).toBe(true)
    await page.getByLabel(/Mail me the previous month/).check()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/sla`)
    expect(await page.getByText('The monthly report mail is on.').isVisible()).toBe(true)
    expect(await api(`/status-pages/${pageId}/sla/settings`)).toEqual({ monthly_report: true })
  })

  test('show an error budget on the public page: the visitor sees what is left this month', async () => {
    const page = app.page
    const slug = (await api(`/status-pages/${pageId}`)).slug
    await page.goto(`${app.base}/user/pages/${pageId}/components/${markupId}/sla`)
    await page.getByLabel('Target (%)').fill('99.9')
    await page.getByLabel('Show the error budget on the public page').check()
    await page.getByRole('button', { name: 'Save target' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/sla`)
    expect((await api(`/status-pages/${pageId}/sla/targets`)).find((t: any) => t.component_id === markupId).target).toMatchObject({ target_percent: 99.9, public_budget: true })

    // December has just begun (1 Dec, 12:00): 31 days at 99.9 % allow 44 min 38 s, none used.
    const visitor = await app.browser.newPage()
    await visitor.goto(app.server.statusHost(slug))
    const line = visitor.locator('.budget')
    expect(await line.count()).toBe(1)
    expect((await line.textContent())?.trim()).toBe('44 min 38 s of 44 min 38 s error budget left this month (target 99.9%)')
    expect(await visitor.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
    await checkLayouts(visitor, app.shots, 'public-budget', ['44 min 38 s of 44 min 38 s error budget left this month'])
    await visitor.close()
  })

  test('a bad range shows the error next to the field with a 400', async () => {
    const response = await app.page.goto(`${app.base}/user/pages/${pageId}/sla?from=2026-11-30&to=2026-11-01`)
    expect(response?.status()).toBe(400)
    expect(await app.page.locator('.field-error, .form-error').first().textContent()).toContain('To (UTC day, inclusive) must not be before from')
  })

  test("another owner's page and component are 404 and change nothing; a cross-site post is 403", async () => {
    const other = await app.createOwner()
    const { context, page } = await app.loginAs(other)
    try {
      for (const path of [`/user/pages/${pageId}/sla`, `/user/pages/${pageId}/components/${componentId}/sla`]) {
        expect((await page.goto(`${app.base}${path}`))?.status()).toBe(404)
      }
      const cookie = await app.cookieOf(context)
      expect((await postForm(app, `/user/pages/${pageId}/components/${componentId}/sla`, { target_percent: '50' }, { cookie })).status).toBe(404)
      expect((await postForm(app, `/user/pages/${pageId}/components/${componentId}/sla/remove`, {}, { cookie })).status).toBe(404)
      expect((await postForm(app, `/user/pages/${pageId}/sla/settings`, {}, { cookie })).status).toBe(404)
    } finally {
      await context.close()
    }
    const own = await app.cookieOf(app.context)
    expect((await postForm(app, `/user/pages/${pageId}/components/${componentId}/sla/remove`, {}, { cookie: own, origin: 'https://evil.example' })).status).toBe(403)
    expect((await postForm(app, `/user/pages/${pageId}/sla/settings`, {}, { cookie: own, origin: null })).status).toBe(403)
    expect((await api(`/status-pages/${pageId}/sla/targets`)).find((t: any) => t.component_id === componentId).target.target_percent).toBe(99.9)
    expect(await api(`/status-pages/${pageId}/sla/settings`)).toEqual({ monthly_report: true })
  })
})
