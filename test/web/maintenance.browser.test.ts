/**
 * The maintenance screens in real Chromium, through the browser only (services are read to check
 * what was stored): schedule in the owner's zone (the browser's, picked by when.js, named on the
 * form) and stored in UTC, upcoming and active at a glance on the overview and the public page,
 * edit, end now, cancel; errors with the API's texts; markup; another owner's ids; the Origin rule.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SubscriberFanoutExpander } from '../../src/modules/subscribers/expansion.ts'
import type { BrowserContext, Page } from 'playwright-core'
import { json } from '../helpers/context.ts'
import { checkA11y, checkLayouts, OWNER_PASSWORD, postForm, startWebApp, type WebApp, focusedId } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'
const ZONE = 'America/New_York'

let app: WebApp
let pageId: number
let slug: string
let context: BrowserContext
let page: Page
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 6)}`
const maintenances = () => app.server.ctx.app.services.maintenances
const user = () => app.owner.user

async function publicText(): Promise<string> {
  const anonymous = await app.browser.newContext()
  const view = await anonymous.newPage()
  await view.goto(app.server.statusHost(slug))
  const text = await view.locator('body').innerText()
  await anonymous.close()
  return text
}

async function schedule(title: string, start: string, end: string, message = ''): Promise<void> {
  await page.goto(`${app.base}/user/pages/${pageId}/maintenance`)
  const form = page.locator('#schedule')
  await form.getByLabel('Title').fill(title)
  await form.getByLabel('Message').fill(message)
  await form.getByLabel('Starts').fill(start)
  await form.getByLabel('Ends').fill(end)
  if (title === 'Database upgrade') await form.getByRole('checkbox', { name: 'Database' }).check()
  await form.getByRole('button', { name: 'Schedule' }).click()
}

beforeAll(async () => {
  app = await startWebApp({ now: NOW })
  slug = unique('maint')
  pageId = (await app.server.ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug })).id
  await app.server.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key: app.owner.key, json: { name: 'Database' } })
  // A browser in New York: the form starts on its zone and says so.
  context = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: ZONE })
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

describe('maintenance in the browser', () => {
  test('schedule in the browser zone, see it upcoming on the overview and the public page, edit, cancel', async () => {
    await page.goto(`${app.base}/user/pages/${pageId}`)
    await page.getByRole('link', { name: 'Schedule maintenance' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/maintenance#schedule`)
    expect(await page.locator('#schedule').getByLabel('Time zone').inputValue()).toBe(ZONE)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'maintenance', ['Maintenance: Acme Cloud', 'Schedule maintenance', 'Time zone'])

    await schedule('Database upgrade', '2026-11-24T09:00', '2026-11-24T11:00')
    await page.waitForURL(`${app.base}/user/pages/${pageId}/maintenance`)
    expect(await page.getByRole('status').filter({ hasText: 'Maintenance "Database upgrade" scheduled.' }).isVisible()).toBe(true)
    const [stored] = await maintenances().list(user(), { pageId })
    expect({ title: stored!.title, start: new Date(stored!.startAt).toISOString(), end: new Date(stored!.endAt).toISOString() }).toEqual({
      title: 'Database upgrade',
      start: '2026-11-24T14:00:00.000Z',
      end: '2026-11-24T16:00:00.000Z',
    })
    // The zone chosen is remembered: lists read in it and say so.
    const upcoming = page.locator('#maint-upcoming + ul')
    expect(await upcoming.innerText()).toContain('Database upgrade')
    expect(await upcoming.innerText()).toContain('24 Nov 2026, 09:00 EST')
    expect(await page.getByText(`Times in ${ZONE}.`).first().isVisible()).toBe(true)

    await page.goto(`${app.base}/user/pages/${pageId}`)
    expect(await page.locator('#maint-upcoming + ul').innerText()).toContain('Database upgrade')
    const shown = await publicText()
    expect(shown).toContain('Database upgrade')
    expect(shown).toContain('Scheduled')

    // Edit: the form holds the times in the zone; an end before the start gets the API's text.
    await page.getByRole('link', { name: 'Database upgrade', exact: true }).click()
    await page.waitForURL(`${app.base}/user/maintenance/${stored!.id}`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'maintenance-edit', ['Maintenance: Database upgrade', 'Upcoming'])
    expect(await page.getByLabel('Starts').inputValue()).toBe('2026-11-24T09:00')
    await page.getByLabel('Ends').fill('2026-11-24T08:00')
    await page.getByRole('button', { name: 'Save maintenance' }).click()
    const api = await app.server.ctx.request(`/user/api/v1/maintenances/${stored!.id}`, { method: 'PATCH', key: app.owner.key, json: { end_at: '2026-11-24T13:00:00Z' } })
    expect(api.status).toBe(400)
    expect(((await api.json()) as { error: string }).error).toBe('end_at must be after start_at')
    expect(await page.locator('#f-end_at-error').textContent()).toBe('Ends must be after start at')
    expect(await focusedId(page, 'f-end_at')).toBe('f-end_at')
    await page.getByLabel('Title').fill('Database upgrade, part 1')
    await page.getByLabel('Ends').fill('2026-11-24T12:00')
    await page.getByRole('button', { name: 'Save maintenance' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/maintenance`)
    const edited = await maintenances().get(user(), stored!.id)
    expect({ title: edited.title, end: new Date(edited.endAt).toISOString(), components: edited.components.map((c) => c.name) }).toEqual({
      title: 'Database upgrade, part 1',
      end: '2026-11-24T17:00:00.000Z',
      components: ['Database'],
    })

    // Cancel asks first, then removes it from the app and the public page.
    await page.getByRole('link', { name: 'Cancel Database upgrade, part 1' }).click()
    await page.waitForURL(`${app.base}/user/maintenance/${stored!.id}/cancel`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'maintenance-cancel', ['Cancel "Database upgrade, part 1"?'])
    await page.getByRole('button', { name: 'Cancel maintenance' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/maintenance`)
    expect(await page.getByText('Maintenance "Database upgrade, part 1" cancelled.').isVisible()).toBe(true)
    expect(await maintenances().list(user(), { pageId })).toEqual([])
    expect(await publicText()).not.toContain('Database upgrade')
  })

  test('a window in progress is "Active now" on the overview and the public page; End now moves it to Past', async () => {
    // 06:00–08:00 in New York is 11:00–13:00 UTC; now is 12:00 UTC.
    await schedule('Network work', '2026-11-23T06:00', '2026-11-23T08:00')
    await page.waitForURL(`${app.base}/user/pages/${pageId}/maintenance`)
    await page.goto(`${app.base}/user/pages/${pageId}`)
    expect(await page.locator('#maint-active + ul').innerText()).toContain('Network work')
    expect(await publicText()).toContain('In progress')
    await page.getByRole('link', { name: 'Network work', exact: true }).click()
    await page.getByRole('button', { name: 'End now' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/maintenance`)
    const [ended] = await maintenances().list(user(), { pageId })
    expect(new Date(ended!.endAt).toISOString()).toBe(new Date(NOW).toISOString())
    expect(await page.locator('#maint-past + ul').innerText()).toContain('Network work')
    expect(await page.locator('#maint-active + p').innerText()).toBe('No maintenance in progress.')
    await maintenances().delete(user(), ended!.id)
  })

  test('"Notify subscribers" ticked on scheduling tells the page\'s subscribers (an outbox row); left unticked, none', async () => {
    const services = app.server.ctx.app.services
    // A page of its own: the other tests count the windows of theirs.
    const notifyPage = (await app.server.ctx.createPage(app.owner.key, { name: 'Notify Co', slug: unique('notify') })).id
    const subscriber = await services.subscribers.add(user(), notifyPage, { kind: 'webhook', url: 'https://hooks.example.com/maint', consent: true })
    // What the outbox worker does first: a pending fan-out becomes one row per subscriber.
    const expander = new SubscriberFanoutExpander(app.server.ctx.database.db, services.subscribers, services.outbox)
    const rows = async () => {
      await expander.expand()
      return (await app.server.ctx.database.db.selectFrom('outbox').select('id').where('target', '=', `subscriber:${subscriber.id}`).execute()).length
    }
    const scheduleWith = async (title: string, notify: boolean) => {
      await page.goto(`${app.base}/user/pages/${notifyPage}/maintenance`)
      const form = page.locator('#schedule')
      await form.getByLabel('Title').fill(title)
      await form.getByLabel('Starts').fill('2026-12-01T10:00')
      await form.getByLabel('Ends').fill('2026-12-01T11:00')
      const box = form.getByRole('checkbox', { name: 'Notify subscribers' })
      expect(await box.isChecked()).toBe(false)
      if (notify) await box.check()
      await form.getByRole('button', { name: 'Schedule' }).click()
      await page.waitForURL(`${app.base}/user/pages/${notifyPage}/maintenance`)
      expect(await page.getByText(`Maintenance "${title}" scheduled.`).isVisible()).toBe(true)
    }
    await scheduleWith('Quiet window', false)
    expect(await rows()).toBe(0)
    await scheduleWith('Announced window', true)
    expect(await rows()).toBe(1)
    const announced = (await maintenances().list(user(), { pageId: notifyPage, limit: 200 })).find((w) => w.title === 'Announced window')!
    // The edit form has no box: the API's update takes no notify_subscribers (the choice is made when scheduling).
    await page.goto(`${app.base}/user/maintenance/${announced.id}`)
    expect(await page.getByRole('checkbox', { name: 'Notify subscribers' }).count()).toBe(0)
  })

  test('markup typed in every field stays text; a malformed time is refused with the API text', async () => {
    await schedule(MARKUP, '2026-11-25T09:00', '2026-11-25T10:00', MARKUP)
    await page.waitForURL(`${app.base}/user/pages/${pageId}/maintenance`)
    const [stored] = await maintenances().list(user(), { pageId })
    expect({ title: stored!.title, message: stored!.message }).toEqual({ title: MARKUP, message: MARKUP })
    for (const path of [`/user/pages/${pageId}/maintenance`, `/user/pages/${pageId}`, `/user/maintenance/${stored!.id}`, `/user/maintenance/${stored!.id}/cancel`]) {
      await page.goto(`${app.base}${path}`)
      expect({ path, text: (await page.locator('main').innerText()).includes('<b>bold</b>') }).toEqual({ path, text: true })
      expect({ path, tags: await page.locator('main b, main img').count() }).toEqual({ path, tags: 0 })
    }
    await page.goto(`${app.base}/user/maintenance/${stored!.id}`)
    expect(await page.getByLabel('Title').inputValue()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    expect(await publicText()).toContain('<b>bold</b>')

    // A time that is no datetime (posted without the browser's picker): the API's own text, nothing stored.
    const cookie = await app.cookieOf(context)
    const response = await postForm(app, `/user/pages/${pageId}/maintenance`, { title: 'Bad', start_at: 'tomorrow', end_at: '2026-11-25T10:00', tz: 'UTC' }, { cookie })
    const api = await app.server.ctx.request('/user/api/v1/maintenances', { method: 'POST', key: app.owner.key, json: { status_page_id: pageId, title: 'Bad', start_at: 'tomorrow', end_at: '2026-11-25T10:00:00Z' } })
    expect(response.status).toBe(api.status)
    expect(((await api.json()) as { error: string }).error).toBe('start_at must be an RFC 3339 date-time with offset')
    // Beside the field, with its label.
    expect(await response.text()).toContain('Starts must be an RFC 3339 date-time with offset')
    const badZone = await postForm(app, `/user/pages/${pageId}/maintenance`, { title: 'Bad', start_at: '2026-11-25T09:00', end_at: '2026-11-25T10:00', tz: 'Mars/Olympus' }, { cookie })
    expect(badZone.status).toBe(400)
    expect((await maintenances().list(user(), { pageId })).length).toBe(1)
    await maintenances().delete(user(), stored!.id)
  })

  test("another owner's ids are 404 and nothing changes; a POST without this site's Origin is 403", async () => {
    const other = await app.createOwner()
    const theirPage = await app.server.ctx.createPage(other.key, { name: 'Theirs', slug: unique('theirs') })
    const theirs = (await json(await app.server.ctx.request('/user/api/v1/maintenances', {
      method: 'POST',
      key: other.key,
      json: { status_page_id: theirPage.id, title: 'Theirs', start_at: '2026-11-24T10:00:00Z', end_at: '2026-11-24T11:00:00Z' },
    }))).data
    for (const path of [`/user/pages/${theirPage.id}/maintenance`, `/user/maintenance/${theirs.id}`, `/user/maintenance/${theirs.id}/cancel`, '/user/maintenance/0']) {
      const response = await page.goto(`${app.base}${path}`)
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 })
    }
    const cookie = await app.cookieOf(context)
    const window = { title: 'Hijack', start_at: '2026-11-24T10:00', end_at: '2026-11-24T12:00', tz: 'UTC' }
    const statuses = [
      (await postForm(app, `/user/pages/${theirPage.id}/maintenance`, window, { cookie })).status,
      (await postForm(app, `/user/maintenance/${theirs.id}`, window, { cookie })).status,
      (await postForm(app, `/user/maintenance/${theirs.id}/end`, {}, { cookie })).status,
      (await postForm(app, `/user/maintenance/${theirs.id}/cancel`, {}, { cookie })).status,
    ]
    expect(statuses).toEqual([404, 404, 404, 404])
    expect((await maintenances().get(other.user, theirs.id)).title).toBe('Theirs')
    expect(await maintenances().list(other.user, { pageId: theirPage.id })).toHaveLength(1)

    const mine = await maintenances().create(user(), { status_page_id: pageId, title: 'Mine', start_at: '2026-11-24T10:00:00Z', end_at: '2026-11-24T11:00:00Z' })
    for (const origin of [null, 'https://evil.example']) {
      const refused = [
        (await postForm(app, `/user/pages/${pageId}/maintenance`, window, { cookie, origin })).status,
        (await postForm(app, `/user/maintenance/${mine.id}`, window, { cookie, origin })).status,
        (await postForm(app, `/user/maintenance/${mine.id}/end`, {}, { cookie, origin })).status,
        (await postForm(app, `/user/maintenance/${mine.id}/cancel`, {}, { cookie, origin })).status,
      ]
      expect({ origin, refused }).toEqual({ origin, refused: [403, 403, 403, 403] })
    }
    expect((await maintenances().list(user(), { pageId })).map((m) => m.title)).toEqual(['Mine'])
    expect((await postForm(app, `/user/maintenance/${mine.id}/cancel`, {}, { cookie })).status).toBe(303)
  })
  test('cancelling an occurrence whose series already skips 500 dates says why and keeps it', async () => {
    const otherPage = await app.server.ctx.createPage(app.owner.key, { name: 'Full series', slug: unique('full') })
    const skipped = Array.from({ length: 500 }, (_, i) => new Date(Date.UTC(2031, 0, 1) + i * 86_400_000).toISOString().slice(0, 10))
    const series = await app.server.ctx.app.services.maintenanceSeries.create(user(), { status_page_id: otherPage.id, title: 'Nightly full', time_zone: 'UTC', starts_on: '2026-11-24', start_time: '05:00', duration_minutes: 10, frequency: 'daily', exceptions: skipped })
    const occurrence = (await maintenances().list(user(), { pageId: otherPage.id })).find((m) => m.seriesId === series.id)!
    await page.goto(`${app.base}/user/maintenance/${occurrence.id}/cancel`)
    await page.getByRole('button', { name: 'Cancel maintenance' }).click()
    await page.waitForURL(`${app.base}/user/maintenance/${occurrence.id}`)
    expect(await page.getByText('already skips 500 dates').isVisible()).toBe(true)
    expect((await maintenances().get(user(), occurrence.id)).title).toBe('Nightly full')
  })
})
