/**
 * Live monitor screens and dependencies in real Chromium: a monitor made with the form depends on
 * a router; the list and the monitor's screen change when the router goes down (the router Down,
 * the app Unreachable because the router is down) and when it comes back, without a reload (the
 * page keeps a marker set before). The poll answers 304 while nothing changed. Axe in light and
 * dark, layouts at 320 and 1280 px. The scheduler runs on the injected clock, the targets are real.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { checkA11y, checkLayouts, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'

const NOW = Date.UTC(2026, 11, 6, 9, 0, 0)

function startSite() {
  const serve = (port: number) => Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response('ok') })
  let server: ReturnType<typeof serve> | undefined = serve(0)
  const port = server.port!
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => {
      server?.stop(true)
      server = undefined
    },
    start: () => {
      server ??= serve(port)
    },
  }
}

let app: WebApp
let scheduler: ReturnType<typeof schedulerFor>
const router = startSite()
const backend = startSite()
let routerId = 0
let appId = 0

const ctx = () => app.server.ctx
const run = async (times: number) => {
  for (let i = 0; i < times; i++) {
    ctx().clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
  }
}
/** Set before a change; still there after it: the page was not loaded again. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 42))
const marked = (page: Page) => page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker)
const row = (page: Page, id: number) => page.locator(`#m-${id}`)

beforeAll(async () => {
  app = await startWebApp({ now: NOW, env: { MONITOR_PRIVATE_TARGETS: '1' } })
  scheduler = schedulerFor(app.server.ctx)
  const made = await ctx().request('/user/api/v1/monitors', { key: app.owner.key, method: 'POST', json: { name: 'Router', type: 'http', target: router.url, interval_seconds: 60, retries: 0 } })
  routerId = (await made.json()).data.id
})
afterAll(async () => {
  await scheduler.stop()
  router.stop()
  backend.stop()
  await app.close()
})

describe('dependencies and live screens', () => {
  test('the form offers the other monitors as parents; the new monitor depends on the one ticked', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/new?type=http`)
    await page.getByLabel('Name', { exact: true }).fill('Shop backend')
    await page.getByLabel('Target').fill(backend.url)
    await page.getByLabel('Interval (seconds)').fill('60')
    const parents = page.getByRole('group', { name: 'Depends on' })
    await parents.getByLabel('Router').check()
    await page.getByText('Timing and confirmation').click()
    await page.getByLabel('Retries inside a run').fill('0')
    await page.getByRole('button', { name: 'Create monitor' }).click()
    await page.waitForURL(/\/user\/monitors\/\d+$/)
    appId = Number(/(\d+)$/.exec(page.url())![1])
    expect(await page.locator('.mon-facts').innerText()).toContain('Depends on\nRouter (pending)')
    const api = await (await ctx().request(`/user/api/v1/monitors/${appId}`, { key: app.owner.key })).json()
    expect(api.data.parents).toEqual([routerId])
    // The edit form shows the tick; untick it and the monitor depends on nothing; tick it again.
    await page.goto(`${app.base}/user/monitors/${appId}/edit`)
    const box = page.getByRole('group', { name: 'Depends on' }).getByLabel('Router')
    expect(await box.isChecked()).toBe(true)
    await box.uncheck()
    await page.getByRole('button', { name: 'Save monitor' }).click()
    await page.waitForURL(`${app.base}/user/monitors/${appId}`)
    expect(await page.locator('.mon-facts').innerText()).toContain('Depends on\nnothing')
    await page.goto(`${app.base}/user/monitors/${appId}/edit`)
    await page.getByRole('group', { name: 'Depends on' }).getByLabel('Router').check()
    await page.getByRole('button', { name: 'Save monitor' }).click()
    await page.waitForURL(`${app.base}/user/monitors/${appId}`)
    await run(1)
  })

  test('the list changes when the router goes down, without a reload; the poll is a 304 while nothing changes', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors`)
    expect(await row(page, routerId).locator('.mon-state').innerText()).toBe('Up')
    expect(await row(page, appId).locator('.mon-state').innerText()).toBe('Up')
    await mark(page)
    // Unchanged: the browser's tag is the server's.
    const etag = (await page.locator('[data-live-url]').getAttribute('data-live-etag'))!
    const cookie = await app.cookieOf(app.context)
    const unchanged = await fetch(`${app.base}/user/monitors/live`, { headers: { cookie, 'if-none-match': etag } })
    expect(unchanged.status).toBe(304)
    router.stop()
    backend.stop()
    await run(2)
    await page.waitForFunction((id) => document.querySelector(`#m-${id} .mon-state`)?.textContent === 'Down', routerId, { timeout: 15_000 })
    await page.waitForFunction((id) => document.querySelector(`#m-${id} .mon-state`)?.textContent === 'Unreachable', appId, { timeout: 15_000 })
    expect(await row(page, appId).innerText()).toContain('"Router" is down')
    expect(await marked(page)).toBe(42)
    const changed = await fetch(`${app.base}/user/monitors/live`, { headers: { cookie, 'if-none-match': etag } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    // Someone else's monitor is not found, and a poll without a session goes to the login.
    const stranger = await app.createOwner()
    const theirs = await app.loginAs(stranger)
    expect((await fetch(`${app.base}/user/monitors/${appId}/live`, { headers: { cookie: await app.cookieOf(theirs.context) } })).status).toBe(404)
    await theirs.context.close()
    expect((await fetch(`${app.base}/user/monitors/live`, { redirect: 'manual' })).status).toBe(303)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'monitors-unreachable', ['Router', 'Shop backend', 'Unreachable'])
  })

  test("the monitor's screen says why it is unreachable and follows the recovery without a reload", async () => {
    const page = app.page
    await page.goto(`${app.base}/user/monitors/${appId}`)
    expect(await page.getByRole('heading', { name: 'State: Unreachable' }).count()).toBe(1)
    const note = page.locator('.mon-dependency')
    expect(await note.innerText()).toStartWith('Unreachable because Router is down.')
    expect(await note.getByRole('link', { name: 'Router' }).getAttribute('href')).toBe(`/user/monitors/${routerId}`)
    await checkA11y(page)
    await mark(page)
    router.start()
    backend.start()
    // Two good runs bring the router up; the backend's first run after that stands on its own.
    await run(3)
    const states = await Promise.all([routerId, appId].map(async (id) => (await (await ctx().request(`/user/api/v1/monitors/${id}`, { key: app.owner.key })).json()).data.state))
    expect(states).toEqual(['up', 'up'])
    await page.getByRole('heading', { name: 'State: Up' }).waitFor({ timeout: 15_000 })
    expect(await page.locator('.mon-dependency').count()).toBe(0)
    expect(await page.locator('.mon-facts').innerText()).toContain('Router (up)')
    expect(await marked(page)).toBe(42)
  })
})
