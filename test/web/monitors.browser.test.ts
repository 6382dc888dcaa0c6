/**
 * The monitors screens in real Chromium, through the browser only (services are read solely to
 * check outcomes, the scheduler is driven by the injected clock): create an HTTP monitor against a
 * local Bun.serve target, see it up, stop the target and see the component go down on the public
 * page and the badge turn red; the detail's graph, bars, availability and log as text; form errors
 * (a condition's position, a plan limit's 403); a push monitor's URL shown once and replaced; pause,
 * resume, delete; axe light+dark, 320/1280 layouts; markup stays text; another owner's id → 404;
 * cross-origin POST → 403.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { STATUS_COLOURS } from '../../src/modules/status-pipeline/colours.ts'
import type { Page } from 'playwright-core'
import { unguardedForms, watchErrors } from '../helpers/browser.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
let target: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  // Loopback targets are refused unless the instance allows private targets.
  app = await startWebApp({ now: NOW, env: { MONITOR_PRIVATE_TARGETS: '1' } })
  target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
})
afterAll(async () => {
  target.stop(true)
  await app.close()
})

const services = () => app.server.ctx.app.services
const monitorIdOf = (page: Page) => Number(/\/user\/monitors\/(\d+)/.exec(page.url())![1])

async function setUpPage(page: Page, slug: string): Promise<number> {
  await page.goto(`${app.base}/user`)
  await page.getByLabel('Name', { exact: true }).fill('Watched')
  await page.getByLabel('Slug', { exact: true }).fill(slug)
  await page.getByRole('button', { name: 'Create page' }).click()
  await page.waitForURL(/\/user\/pages\/\d+$/)
  const pageId = Number(/\/user\/pages\/(\d+)$/.exec(page.url())![1])
  await page.goto(`${app.base}/user/pages/${pageId}/components`)
  const form = page.getByRole('region', { name: 'Add component' })
  await form.getByLabel('Name', { exact: true }).fill('API')
  await form.getByRole('button', { name: 'Add component' }).click()
  await page.waitForURL(/components#c-\d+$/)
  return pageId
}

/** The add form of a type, reached by the links an owner follows. */
async function openForm(page: Page, typeLabel: string, checkChooser = false) {
  await page.goto(`${app.base}/user/monitors`)
  await page.getByRole('link', { name: 'Add monitor' }).click()
  await page.waitForURL(`${app.base}/user/monitors/new`)
  if (checkChooser) await checkA11y(page)
  await page.getByRole('link', { name: typeLabel, exact: true }).click()
  await page.waitForURL(/\/user\/monitors\/new\?type=/)
}

describe('monitors in the browser', () => {
  test('an HTTP monitor made in the web app follows its target; the component goes down on the public page and the badge turns red', async () => {
    const page = app.page
    const slug = 'watched-web'
    const pageId = await setUpPage(page, slug)

    await openForm(page, 'HTTP(S)', true)
    // The form's <select name="method"> shadows form.method: the double-submit guard must still run.
    const errors = watchErrors(page)
    expect(await unguardedForms(page)).toEqual([])
    expect(errors.take()).toEqual([])
    await page.reload()
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'monitor-form', ['New HTTP(S) monitor', 'Target', 'HTTP(S) options'])
    await page.getByLabel('Name', { exact: true }).fill('API health')
    await page.getByLabel('Target', { exact: true }).fill(`http://127.0.0.1:${target.port}/health`)
    await page.getByLabel('Interval (seconds)').fill('30')
    await page.getByLabel('Component', { exact: true }).selectOption({ label: 'Watched: API' })
    await page.getByText('Timing and confirmation').click()
    await page.getByLabel('Retries inside a run').fill('0')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.waitForURL(/\/user\/monitors\/\d+$/)
    const id = monitorIdOf(page)
    expect(await page.getByRole('status').filter({ hasText: 'Monitor "API health" created' }).isVisible()).toBe(true)
    expect(await page.getByRole('heading', { name: 'State: Pending' }).isVisible()).toBe(true)

    const scheduler = schedulerFor(app.server.ctx)
    const runOnce = async () => {
      app.server.ctx.clock.advance(30_000)
      await scheduler.tick()
      await scheduler.settle()
    }
    await runOnce()
    await page.reload()
    expect(await page.getByRole('heading', { name: 'State: Up' }).isVisible()).toBe(true)
    await page.goto(`${app.base}/user/monitors`)
    const row = page.locator(`#m-${id}`)
    expect(await row.innerText()).toContain('Up')
    expect(await row.innerText()).toContain('passed')

    target.stop(true)
    await runOnce()
    await runOnce()
    await page.goto(`${app.base}/user/monitors/${id}`)
    expect(await page.getByRole('heading', { name: 'State: Down' }).isVisible()).toBe(true)
    // The detail's pictures carry their figures as text.
    expect(await page.getByText(/Response time over the last 1 check: min \d+ ms, median \d+ ms, max \d+ ms/).first().isVisible()).toBe(true)
    expect(await page.getByText('% over 90 days').first().isVisible()).toBe(true)
    expect(await page.getByRole('table', { name: 'Availability' }).innerText()).toContain('7 days')
    const log = await page.locator('.mon-log').innerText()
    expect(log.indexOf('Down')).toBeLessThan(log.indexOf('Up'))
    expect(await page.getByRole('table', { name: 'Recent results, newest first' }).innerText()).toContain('failed')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'monitor-detail', ['State: Down', 'Response time', 'Downtime log', 'Recent results'])

    // The public page and the badge follow the component.
    const visitor = await app.browser.newPage()
    await visitor.goto(app.server.statusHost(slug))
    expect(await visitor.getByText('Major outage').first().isVisible()).toBe(true)
    await visitor.close()
    expect((await services().components.get(app.owner.user, (await services().components.list(app.owner.user, pageId))[0]!.id)).status).toBe('down')
    const badge = await (await fetch(`${app.base}/badge/${slug}.svg`)).text()
    expect(badge).toContain(STATUS_COLOURS.major_outage.light)

    // The page's section lists it.
    await page.goto(`${app.base}/user/pages/${pageId}`)
    await page.getByRole('navigation', { name: 'Sections of Watched' }).getByRole('link', { name: 'Monitors' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/monitors`)
    expect(await page.locator(`#m-${id}`).innerText()).toContain('Down')
    await checkA11y(page)
  })

  test('form errors next to the field: a condition with its position, a bad target, a plan limit (403)', async () => {
    const page = app.page
    await openForm(page, 'JSON conditions')
    await page.getByLabel('Name', { exact: true }).fill('json')
    await page.getByLabel('Target', { exact: true }).fill('https://example.com/health')
    await page.getByLabel('Conditions').fill('[STATUS] == 200\n[BODY].status = "ok"')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    const conditionError = await page.locator('#f-conditions-error').innerText()
    expect(conditionError).toMatch(/Condition 2: .*column \d+/)
    expect(await page.getByLabel('Conditions').inputValue()).toContain('[BODY].status = "ok"')
    await checkA11y(page)

    await openForm(page, 'TCP port')
    await page.getByLabel('Name', { exact: true }).fill('tcp')
    await page.getByLabel('Target', { exact: true }).fill('no port here')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    expect(await page.locator('#f-target-error').isVisible()).toBe(true)

    const free = await app.createOwner('free')
    const { context, page: freePage } = await app.loginAs(free)
    await freePage.goto(`${app.base}/user/monitors/new?type=http`)
    await freePage.getByLabel('Name', { exact: true }).fill('too often')
    await freePage.getByLabel('Target', { exact: true }).fill('https://example.com/')
    await freePage.getByLabel('Interval (seconds)').fill('60')
    const response = freePage.waitForResponse((r) => r.url().endsWith('/user/monitors') && r.request().method() === 'POST')
    await freePage.getByRole('button', { name: 'Create monitor' }).click()
    expect((await response).status()).toBe(403)
    expect(await freePage.locator('#f-interval_seconds-error').innerText()).toContain("below the Free plan's minimum of 300 s")
    expect(await services().monitors.list(free.user)).toEqual([])
    await context.close()
  })

  test('a push monitor shows its URL once; a new one replaces it; the URL works', async () => {
    const page = app.page
    await openForm(page, 'Push (heartbeat)')
    await page.getByLabel('Name', { exact: true }).fill('nightly backup')
    await page.getByLabel('Interval (seconds)').fill('3600')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    const first = await page.locator('code.secret').innerText()
    expect(first).toStartWith(`${app.base}/api/push/`)
    expect((await fetch(`${first}?status=up&msg=ok`)).status).toBe(200)
    await checkA11y(page)
    const id = (await services().monitors.list(app.owner.user)).find((m) => m.definition.name === 'nightly backup')!.id
    await page.goto(`${app.base}/user/monitors/${id}`)
    expect(await page.locator('code.secret').count()).toBe(0)
    await page.getByRole('button', { name: 'New push URL' }).click()
    const second = await page.locator('code.secret').innerText()
    expect(second).not.toBe(first)
    expect((await fetch(first)).status).toBe(404)
    expect((await fetch(second)).status).toBe(200)
  })

  test('edit, pause and resume from the list, delete with confirmation; markup stays text', async () => {
    const page = app.page
    await openForm(page, 'TCP port')
    await page.getByLabel('Name', { exact: true }).fill('db')
    await page.getByLabel('Target', { exact: true }).fill('127.0.0.1:5432')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.waitForURL(/\/user\/monitors\/\d+$/)
    const id = monitorIdOf(page)
    await page.getByRole('link', { name: 'Edit' }).click()
    await page.getByLabel('Name', { exact: true }).fill(MARKUP)
    await page.getByRole('button', { name: 'Save monitor' }).click()
    await page.waitForURL(`${app.base}/user/monitors/${id}`)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()

    await page.goto(`${app.base}/user/monitors`)
    expect(await page.locator(`#m-${id}`).innerText()).toContain(MARKUP)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'monitors-list', ['Monitors', 'Add monitor', 'Last check'])
    await page.locator(`#m-${id}`).getByRole('button', { name: 'Pause' }).click()
    await page.waitForURL(`${app.base}/user/monitors#m-${id}`)
    expect(await page.locator(`#m-${id}`).innerText()).toContain('Paused')
    expect((await services().monitors.get(app.owner.user, id)).enabled).toBe(false)
    await page.locator(`#m-${id}`).getByRole('button', { name: 'Resume' }).click()
    await page.waitForURL(`${app.base}/user/monitors#m-${id}`)
    expect(await page.locator(`#m-${id}`).innerText()).toContain('Pending')

    await page.goto(`${app.base}/user/monitors/${id}`)
    await page.getByRole('link', { name: 'Delete' }).click()
    await checkA11y(page)
    await page.getByRole('button', { name: 'Delete monitor' }).click()
    await page.waitForURL(`${app.base}/user/monitors`)
    expect(await page.getByRole('status').innerText()).toContain('deleted')
    expect((await services().monitors.list(app.owner.user)).some((m) => m.id === id)).toBe(false)
  })

  test("another owner's monitor is 404 and stays as it was; a cross-origin POST is 403", async () => {
    const mine = (await services().monitors.create(app.owner.user, { name: 'kept', type: 'http', target: 'https://example.com/' })).monitor
    const other = await app.createOwner()
    const { context } = await app.loginAs(other)
    const cookie = await app.cookieOf(context)
    for (const path of ['', '/edit', '/delete']) {
      expect((await fetch(`${app.base}/user/monitors/${mine.id}${path}`, { headers: { cookie } })).status).toBe(404)
    }
    for (const path of ['', '/pause', '/delete', '/push-token']) {
      expect((await postForm(app, `/user/monitors/${mine.id}${path}`, { type: 'http', name: 'taken' }, { cookie })).status).toBe(404)
    }
    await context.close()

    const own = await app.cookieOf(app.context)
    for (const origin of [null, 'https://evil.example']) {
      expect((await postForm(app, `/user/monitors/${mine.id}/pause`, {}, { cookie: own, origin })).status).toBe(403)
      expect((await postForm(app, `/user/monitors/${mine.id}/delete`, {}, { cookie: own, origin })).status).toBe(403)
      expect((await postForm(app, '/user/monitors', { type: 'http', name: 'x', target: 'https://example.com/' }, { cookie: own, origin })).status).toBe(403)
    }
    // Bad paging is a 400 page; a garbled Referer on pause changes nothing but the state.
    for (const before of ['abc', '1e999', '0']) {
      expect((await fetch(`${app.base}/user/monitors/${mine.id}?before=${before}`, { headers: { cookie: own } })).status).toBe(400)
    }
    const garbled = await fetch(`${app.base}/user/monitors/${mine.id}/resume`, { method: 'POST', redirect: 'manual', headers: { cookie: own, origin: app.base, referer: 'http://[' } })
    expect(garbled.status).toBe(303)
    expect(garbled.headers.get('location')).toBe(`/user/monitors#m-${mine.id}`)
    const after = await services().monitors.get(app.owner.user, mine.id)
    expect({ name: after.definition.name, enabled: after.enabled }).toEqual({ name: 'kept', enabled: true })
    expect((await services().monitors.list(app.owner.user)).filter((m) => m.definition.name === 'x')).toEqual([])
  })
})
