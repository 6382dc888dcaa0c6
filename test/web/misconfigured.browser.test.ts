/**
 * The misconfigured monitor case in real Chromium, end to end, and the repair of a false outage:
 * - the form refuses `http://localhost:PORT/` while the instance does not reach private addresses,
 *   naming the address and the setting;
 * - a monitor saved while MONITOR_PRIVATE_TARGETS=1, then run with it off (as after a restart
 *   without it): nothing public changes (page, uptime, badge, status JSON, v2 JSON), no incident
 *   opens, and the owner sees "Misconfigured" with the reason and the fix on the list and the
 *   monitor's page;
 * - a component's false outage corrected on its History screen: the visitor's uptime and this
 *   month's SLA before and after, the correction listed with its reason and author; a span in the
 *   future is refused next to its field; someone else's component is 404, a cross-origin post 403.
 * Axe in light and dark, layouts at 320 and 1280 px. The scheduler runs on the injected clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { switchablePrivateTargets } from '../modules/monitors/fixtures.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const HOUR = 3_600_000

let app: WebApp
let target: ReturnType<typeof Bun.serve>
const deps = switchablePrivateTargets(false)
let scheduler: ReturnType<typeof schedulerFor>
const slug = 'shop-misconf'
let pageId: number

beforeAll(async () => {
  app = await startWebApp({ now: NOW, checkDeps: deps })
  target = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') })
  scheduler = schedulerFor(app.server.ctx)
})
afterAll(async () => {
  await scheduler.stop()
  target.stop(true)
  await app.close()
})

const ctx = () => app.server.ctx
const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx().request(`/user/api/v1${path}`, { key: app.owner.key, ...init })
const run = async (times: number) => {
  for (let i = 0; i < times; i++) {
    ctx().clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
  }
}

async function addComponent(page: Page, name: string): Promise<number> {
  await page.goto(`${app.base}/user/pages/${pageId}/components`)
  const form = page.getByRole('region', { name: 'Add component' })
  await form.getByLabel('Name', { exact: true }).fill(name)
  await form.getByRole('button', { name: 'Add component' }).click()
  await page.waitForURL(/components#c-\d+$/)
  return Number(/#c-(\d+)$/.exec(page.url())![1])
}

/** What visitors and embeds see, read as they read it. */
async function publicView() {
  const visitor = await app.browser.newPage()
  await visitor.goto(app.server.statusHost(slug))
  const text = await visitor.locator('body').innerText()
  const srOnly = (await visitor.locator('.sr-only').allTextContents()).join(' | ')
  await visitor.close()
  const summary = await (await fetch(`${app.server.statusHost(slug)}/api/v2/summary.json`)).json()
  const status = await (await fetch(`${app.base}/api/embed/status?slug=${slug}&upd=7`)).json()
  return {
    banner: /All systems operational|Major outage|Partial outage|Degraded performance/.exec(text)?.[0],
    uptime: [...srOnly.matchAll(/([\d.]+)% uptime over the last 90 days/g)].map((m) => m[1]),
    badge: /aria-label="([^"]+)"/.exec(await (await fetch(`${app.base}/badge/${slug}.svg`)).text())?.[1],
    uptimeBadge: /aria-label="([^"]+)"/.exec(await (await fetch(`${app.base}/badge/${slug}/uptime.svg`)).text())?.[1],
    statusJson: { overall: status.overall, upd: status.upd },
    v2: [summary.status.indicator, ...summary.components.map((c: { name: string; status: string }) => `${c.name}: ${c.status}`)],
  }
}

describe('a misconfigured monitor in the browser', () => {
  test('refused on the form; once saved, its refused runs change nothing public and the owner sees why and how to fix it', async () => {
    const page = app.page
    await page.goto(`${app.base}/user`)
    await page.getByLabel('Name', { exact: true }).fill('Shop')
    await page.getByLabel('Slug', { exact: true }).fill(slug)
    await page.getByRole('button', { name: 'Create page' }).click()
    await page.waitForURL(/\/user\/pages\/\d+$/)
    pageId = Number(/\/user\/pages\/(\d+)$/.exec(page.url())![1])
    const website = await addComponent(page, 'Website')
    expect((await api(`/status-pages/${pageId}/auto-incidents`, { method: 'PATCH', json: { auto_incidents: true, auto_incident_notify: true, component_ids: [website] } })).status).toBe(200)
    ctx().clock.advance(HOUR)
    const before = await publicView()
    expect(before.banner).toBe('All systems operational')
    expect(before.uptime).toEqual(['100'])

    // The form resolves the name and refuses it as it refuses 127.0.0.1.
    const fill = async () => {
      await page.goto(`${app.base}/user/monitors/new?type=http`)
      await page.getByLabel('Name', { exact: true }).fill('Shop front')
      await page.getByLabel('Target', { exact: true }).fill(`http://localhost:${target.port}/`)
      await page.getByLabel('Component', { exact: true }).selectOption({ label: 'Shop: Website' })
      await page.getByText('Timing and confirmation').click()
      await page.getByLabel('Retries inside a run').fill('0')
      await page.getByRole('button', { name: 'Create monitor' }).click()
    }
    await fill()
    expect(await page.locator('#f-target-error').innerText()).toContain('localhost resolves to 127.0.0.1, a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it)')
    expect((await app.server.ctx.app.services.monitors.list(app.owner.user)).length).toBe(0)
    await checkA11y(page)

    // Saved while the instance allowed private targets, run after a restart without it.
    deps.setAllowPrivate(true)
    await fill()
    await page.waitForURL(/\/user\/monitors\/\d+$/)
    const id = Number(/\/user\/monitors\/(\d+)$/.exec(page.url())![1])
    deps.setAllowPrivate(false)
    await run(4)

    await page.goto(`${app.base}/user/monitors`)
    expect(await page.locator(`#m-${id} td[data-label="State"]`).innerText()).toBe('Misconfigured')
    const why = await page.locator(`#m-${id}-why`).innerText()
    expect(why).toContain('Not checked: this instance refuses its runs.')
    expect(why).toContain('Reason: localhost resolves to 127.0.0.1, a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it).')
    expect(why).toContain('Fix: monitor an address reachable from the internet, or let this instance reach loopback and private addresses with MONITOR_PRIVATE_TARGETS=1 (then restart it).')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'monitors-misconfigured', ['Misconfigured', 'Not checked: this instance refuses its runs.'])

    await page.goto(`${app.base}/user/monitors/${id}`)
    expect(await page.getByRole('heading', { name: 'State: Misconfigured' }).isVisible()).toBe(true)
    expect(await page.locator('.mon-misconfigured').first().innerText()).toContain('Fix: monitor an address reachable from the internet')
    expect(await page.getByRole('table', { name: 'Recent results, newest first' }).innerText()).toContain('misconfigured')
    expect(await page.getByRole('link', { name: "Correct the component's history" }).getAttribute('href')).toBe(`/user/pages/${pageId}/components/${website}/history`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'monitor-misconfigured', ['State: Misconfigured', 'Reason: localhost resolves to 127.0.0.1'])

    // Nothing public changed, no incident opened; the component kept its status.
    expect(await publicView()).toEqual(before)
    expect((await (await api(`/incidents?status_page_id=${pageId}`)).json()).data).toEqual([])
    expect((await app.server.ctx.app.services.components.get(app.owner.user, website)).status).toBe('up')
  })
})

describe('correcting a false outage in the browser', () => {
  test('the History screen corrects a span; uptime and this month\'s SLA before and after; the correction is listed', async () => {
    const page = app.page
    const apiComponent = await addComponent(page, 'API')
    const setStatus = async (label: string) => {
      await page.goto(`${app.base}/user/pages/${pageId}/components`)
      await page.getByLabel('Status of API').selectOption({ label })
      await page.getByRole('button', { name: 'Set status of API' }).click()
      await page.waitForURL(/components#c-\d+$/)
    }
    // A false two-hour outage, an hour ago.
    ctx().clock.advance(HOUR)
    const downAt = ctx().clock.now()
    await setStatus('Down')
    ctx().clock.advance(2 * HOUR)
    const upAt = ctx().clock.now()
    await setStatus('Operational')
    ctx().clock.advance(HOUR)

    const sla = async () => (await (await api(`/status-pages/${pageId}/sla?period=month`)).json()).data.components.find((c: { id: number }) => c.id === apiComponent)
    const before = await publicView()
    expect(before.uptime[1]).not.toBe('100')
    expect((await sla()).downtime_seconds).toBe(7200)

    await page.goto(`${app.base}/user/pages/${pageId}/components`)
    await page.getByRole('link', { name: 'History of API' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/components/${apiComponent}/history`)
    expect(await page.getByRole('table', { name: 'Recent status changes, newest first' }).innerText()).toContain('Down')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'component-history', ['History of API', 'Correct the history', 'Reason'])

    const local = (ms: number) => new Date(ms).toISOString().slice(0, 16)
    const correctForm = async (from: number, to: number, reason: string) => {
      await page.getByLabel('Time zone').selectOption('UTC')
      await page.getByLabel('From', { exact: true }).fill(local(from))
      await page.getByLabel('To', { exact: true }).fill(local(to))
      await page.getByLabel('Status it really had').selectOption({ label: 'Operational' })
      await page.getByLabel('Reason').fill(reason)
      await page.getByRole('button', { name: 'Correct history' }).click()
    }
    // A span reaching into the future is refused next to its field, and nothing changes.
    await correctForm(downAt, ctx().clock.now() + 2 * HOUR, 'too far')
    expect(await page.locator('#f-to-error').innerText()).toContain('To must not be in the future')
    expect(await page.getByText('No corrections.').isVisible()).toBe(true)
    await checkA11y(page)

    await correctForm(downAt, upAt, 'The monitor was <b>misconfigured</b>; the API was up.')
    await page.waitForURL(/\/history#corrections-heading$/)
    expect(await page.getByRole('status').innerText()).toContain('History corrected: operational from')
    const listed = await page.locator('.comp-corrections').innerText()
    expect(listed).toContain('Reason: The monitor was <b>misconfigured</b>; the API was up.')
    expect(listed).toContain(`By ${app.owner.email}`)
    expect(listed).toContain('It replaced: Operational from')
    expect(listed).toContain('Down from')
    expect(await page.evaluate(() => document.querySelector('.comp-corrections b'))).toBeNull()
    await checkA11y(page)

    const after = await publicView()
    expect(after.uptime).toEqual(['100', '100'])
    expect(after.banner).toBe('All systems operational')
    expect(await sla()).toMatchObject({ downtime_seconds: 0, actual_percent: 100, outages: { count: 0 } })
    // The current status was not touched.
    expect((await app.server.ctx.app.services.components.get(app.owner.user, apiComponent)).status).toBe('up')
  })

  test("someone else's component is 404 and unchanged; a cross-origin post is 403", async () => {
    const mine = (await app.server.ctx.app.services.components.list(app.owner.user, pageId))[0]!
    const fields = { tz: 'UTC', from: '2026-11-23T12:00', to: '2026-11-23T12:30', status: 'down', reason: 'taken over' }
    const other = await app.createOwner()
    const { context } = await app.loginAs(other)
    const cookie = await app.cookieOf(context)
    const path = `/user/pages/${pageId}/components/${mine.id}/history`
    expect((await fetch(`${app.base}${path}`, { headers: { cookie } })).status).toBe(404)
    expect((await postForm(app, path, fields, { cookie })).status).toBe(404)
    await context.close()
    const own = await app.cookieOf(app.context)
    expect((await postForm(app, path, fields, { cookie: own, origin: 'https://evil.example' })).status).toBe(403)
    expect(await app.server.ctx.app.services.components.corrections(app.owner.user, mine.id)).toEqual([])
  })
})
