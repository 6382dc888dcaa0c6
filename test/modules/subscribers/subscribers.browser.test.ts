/**
 * Page subscribers in real Chromium with a real SMTP server: a visitor subscribes on the public
 * page, opens the link from the received mail and confirms, gets an incident mail and unsubscribes
 * from its link in one click. The owner's Subscribers screen: add (consent), field errors, markup
 * stays text, import, remove; another owner's ids → 404; a cross-site form → 403; axe; layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../../helpers/webapp.ts'
import { emit, linkIn } from './helpers.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let smtp: SmtpHarness
let app: WebApp
let pageId: number
const slug = 'subs'

beforeAll(async () => {
  smtp = await startSmtp()
  app = await startWebApp({ now: NOW, plan: 'pro', env: smtp.env })
  const response = await app.server.ctx.request('/user/api/v1/status-pages', { method: 'POST', key: app.owner.key, json: { slug, name: 'Subs Cloud' } })
  pageId = ((await response.json()) as { data: { id: number } }).data.id
  for (const name of ['API', 'Website']) await app.server.ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key: app.owner.key, json: { name } })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

const services = () => app.server.ctx.app.services
const rowOf = (email: string) => app.server.ctx.database.db.selectFrom('subscribers').selectAll().where('email', '=', email).executeTakeFirst()

describe('a visitor', () => {
  test('subscribes on the page, confirms from the mail, and unsubscribes in one click', async () => {
    // A visitor: a fresh context, not logged in anywhere.
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
    const visitor = await context.newPage()
    try {
      await visitor.goto(`${app.server.statusHost(slug)}/`)
      await visitor.getByRole('link', { name: 'Subscribe to updates' }).click()
      await visitor.waitForURL(`${app.server.statusHost(slug)}/subscribe`)
      await checkA11y(visitor)
      await checkLayouts(visitor, app.shots, 'subscribe-form', ['Get status updates', 'Email address'])
      await visitor.getByLabel('Email address').fill('visitor@example.com')
      await visitor.getByLabel('API').check()
      await visitor.getByRole('button', { name: 'Subscribe' }).click()
      await visitor.getByRole('heading', { name: 'Check your inbox' }).waitFor()

      await services().outboxWorker.drain()
      const confirmation = await smtp.waitFor((m) => m.to === 'visitor@example.com')
      await visitor.goto(linkIn(confirmation.text, '/subscribe/confirm'))
      await checkA11y(visitor)
      await visitor.getByRole('button', { name: 'Confirm subscription' }).click()
      await visitor.getByRole('heading', { name: 'You are subscribed' }).waitFor()
      expect((await rowOf('visitor@example.com'))!.confirmed_at).toBe(NOW)

      const incident = await services().incidents.create(app.owner.user, { status_page_id: pageId, title: 'API errors', message: 'Investigating.' })
      await emit(app.server.ctx, { kind: 'incident.opened', pageId, incidentId: incident.id, notifySubscribers: true, at: NOW })
      await services().outboxWorker.drain()
      const update = await smtp.waitFor((m) => m.to === 'visitor@example.com' && m.subject.includes('API errors'))
      expect(update.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')

      // The manage page from the mail: accessible, shows the choice made at subscription.
      await visitor.goto(linkIn(update.text, '/subscribe/manage'))
      await checkA11y(visitor)
      expect(await visitor.getByLabel('API').isChecked()).toBe(true)

      // One click on the unsubscribe link's page.
      await visitor.goto(linkIn(update.text, '/unsubscribe'))
      await visitor.getByRole('button', { name: 'Unsubscribe' }).click()
      await visitor.getByRole('heading', { name: 'Unsubscribed' }).waitFor()
      expect((await rowOf('visitor@example.com'))!.unsubscribed_at).toBe(NOW)
    } finally {
      await context.close()
    }
  })
})

describe('a visitor from a shared incident link', () => {
  test('finds "Subscribe to updates" on the incident page and on the history, and lands on the form', async () => {
    const incident = await services().incidents.create(app.owner.user, { status_page_id: pageId, title: 'Shared outage', message: 'Investigating.' })
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
    const visitor = await context.newPage()
    try {
      const host = app.server.statusHost(slug)
      await visitor.goto(`${host}/history`)
      expect(await visitor.getByRole('link', { name: 'Subscribe to updates' }).isVisible()).toBe(true)
      await visitor.goto(`${host}/incidents/${incident.id}`)
      await checkA11y(visitor)
      await checkLayouts(visitor, app.shots, 'incident-page', ['Shared outage', 'Subscribe to updates'])
      await visitor.getByRole('link', { name: 'Subscribe to updates' }).click()
      await visitor.waitForURL(`${host}/subscribe`)
      // On the form itself the link says it is the current page.
      expect(await visitor.getByRole('link', { name: 'Subscribe to updates' }).getAttribute('aria-current')).toBe('page')
      await visitor.getByRole('heading', { name: 'Get status updates' }).waitFor()
    } finally {
      await context.close()
    }
  })
})

describe('the owner', () => {
  test('adds, imports and removes subscribers on the Subscribers screen; errors next to fields; markup stays text', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}`)
    await page.getByRole('link', { name: 'Subscribers' }).click()
    await page.waitForURL(`${app.base}/user/pages/${pageId}/subscribers`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'subscribers', ['Subscribers: Subs Cloud', 'Add a subscriber', 'Import from CSV'])

    // No consent tick: the schema's own text next to the field, nothing added.
    await page.getByLabel('Email address').fill('added@example.com')
    await page.getByRole('button', { name: 'Add subscriber' }).click()
    expect(await page.locator('#f-consent-error').textContent()).toBe('Confirm that this person agreed to get these updates')
    expect(await rowOf('added@example.com')).toBeUndefined()

    // Markup in the field comes back as text.
    await page.getByLabel('Email address').fill(MARKUP)
    await page.getByLabel('This person agreed').check()
    await page.getByRole('button', { name: 'Add subscriber' }).click()
    expect(await page.getByLabel('Email address').inputValue()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
    expect(await page.locator('#f-email-error').textContent()).toBe('Email address is not a valid address')

    await page.getByLabel('Email address').fill('added@example.com')
    await page.getByLabel('This person agreed').check()
    await page.getByRole('button', { name: 'Add subscriber' }).click()
    await page.getByRole('status').filter({ hasText: 'Added added@example.com.' }).waitFor()
    expect((await rowOf('added@example.com'))!.source).toBe('owner')

    await page.getByLabel('Or paste the CSV').fill('email\n=cmd@example.com\nsecond@example.com\n')
    await page.getByLabel('Everyone in this file agreed').check()
    await page.getByRole('button', { name: 'Import' }).click()
    await page.getByRole('status').filter({ hasText: 'Imported 2; 0 already subscribed.' }).waitFor()
    expect(await page.getByRole('cell', { name: '=cmd@example.com', exact: true }).isVisible()).toBe(true)

    // Export: the API's CSV through the login session, as a download.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export all as CSV' }).click()])
    expect(await Bun.file((await download.path())!).text()).toContain("'=cmd@example.com")

    await page.getByRole('button', { name: 'Remove second@example.com' }).click()
    await page.getByRole('status').filter({ hasText: 'Subscriber removed.' }).waitFor()
    expect((await rowOf('second@example.com'))!.unsubscribed_at).not.toBeNull()
    await checkA11y(page)
  })

  test("another owner's page → 404; a form from another site → 403; nothing changed", async () => {
    const other = await app.createOwner('pro')
    const theirs = await app.server.ctx.request('/user/api/v1/status-pages', { method: 'POST', key: other.key, json: { slug: 'their-subs', name: 'Theirs' } })
    const theirId = ((await theirs.json()) as { data: { id: number } }).data.id
    await app.page.goto(`${app.base}/user/pages/${theirId}/subscribers`)
    expect(await app.page.locator('h1').textContent()).toContain('Not found')
    const cookie = await app.cookieOf(app.context)
    const intruder = await postForm(app, `/user/pages/${theirId}/subscribers`, { kind: 'email', email: 'intruder@example.com', consent: 'on' }, { cookie })
    expect(intruder.status).toBe(404)
    const cross = await postForm(app, `/user/pages/${pageId}/subscribers`, { kind: 'email', email: 'cross@example.com', consent: 'on' }, { cookie, origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect(await rowOf('intruder@example.com')).toBeUndefined()
    expect(await rowOf('cross@example.com')).toBeUndefined()
  })
})
