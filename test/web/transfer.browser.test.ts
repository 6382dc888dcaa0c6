/**
 * Page transfer in real Chromium, end to end through the browser: the owner offers a page on its
 * settings screen (address + password), the recipient opens the link from the mail (received by a
 * real SMTP server), logs in, accepts, and finds the page in their list. Also: field errors with
 * the API's texts, markup stays text, another owner's id, the Origin rule, a11y and layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startSmtp, type SmtpHarness } from '../helpers/smtp.ts'
import { checkA11y, checkLayouts, OWNER_PASSWORD, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let smtp: SmtpHarness
let app: WebApp

beforeAll(async () => {
  smtp = await startSmtp()
  app = await startWebApp({ now: NOW, env: { ...smtp.env } })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

const services = () => app.server.ctx.app.services
const pendingOf = (pageId: number) => app.server.ctx.request(`/user/api/v1/status-pages/${pageId}/transfer`, { key: app.owner.key }).then((r) => r.json() as Promise<{ data: unknown }>)

describe('page transfer in the browser', () => {
  test('owner offers, recipient opens the mail link, logs in, accepts; the page is in their list', async () => {
    const created = await app.server.ctx.createPage(app.owner.key, { slug: 'handover', name: 'Handover Co' })
    const recipient = await app.createOwner('enterprise')
    const page = app.page

    await page.goto(`${app.base}/user/pages/${created.id}/settings`)
    await page.getByRole('link', { name: 'Transfer this page…' }).click()
    await page.waitForURL(`${app.base}/user/pages/${created.id}/transfer`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'transfer-start', ['Transfer: Handover Co', 'What does not move'])

    // A wrong password: the error next to its field, nothing pending.
    await page.getByLabel("Recipient's email").fill(recipient.email)
    await page.getByLabel('Your password').fill('not my password')
    await page.getByRole('button', { name: 'Send transfer invitation' }).click()
    expect(await page.locator('#f-password-error').textContent()).toBe('Your password is wrong')
    expect(await page.getByLabel("Recipient's email").inputValue()).toBe(recipient.email)
    expect((await pendingOf(created.id)).data).toBeNull()

    await page.getByLabel('Your password').fill(OWNER_PASSWORD)
    await page.getByRole('button', { name: 'Send transfer invitation' }).click()
    await page.waitForURL(`${app.base}/user/pages/${created.id}/settings`)
    expect(await page.getByRole('status').filter({ hasText: `Invitation sent to ${recipient.email}` }).isVisible()).toBe(true)
    expect(await page.getByText(`Transfer pending to ${recipient.email}`, { exact: false }).isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Cancel transfer' }).isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'transfer-pending', ['Transfer pending', 'Cancel transfer'])

    // The mail arrives at the real SMTP server; its link leads to the offer after logging in.
    await services().outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.to === recipient.email && m.subject.includes('"Handover Co"'))
    const link = /http:\/\/\S+\/user\/transfers\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
    expect(link.startsWith(`${app.base}/user/transfers/`)).toBe(true)

    const other = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
    const tab = await other.newPage()
    await tab.goto(link)
    await tab.waitForURL(/\/user\/login\?next=/)
    await tab.getByLabel('Email').fill(recipient.email)
    await tab.getByLabel('Password').fill(OWNER_PASSWORD)
    await tab.getByRole('button', { name: 'Log in' }).click()
    await tab.waitForURL(link)
    expect(await tab.locator('h1').textContent()).toBe('Transfer of Handover Co')
    expect(await tab.getByText(`${app.owner.email} offers you this status page`).isVisible()).toBe(true)
    await checkA11y(tab)
    await checkLayouts(tab, app.shots, 'transfer-offer', ['Transfer of Handover Co', 'Accept transfer', 'What does not move'])

    await tab.getByRole('button', { name: 'Accept transfer' }).click()
    await tab.waitForURL(`${app.base}/user/pages/${created.id}`)
    expect(await tab.getByRole('status').filter({ hasText: '"Handover Co" is now yours' }).isVisible()).toBe(true)
    await tab.goto(`${app.base}/user`)
    expect(await tab.getByRole('table').getByRole('link', { name: 'Handover Co' }).isVisible()).toBe(true)

    // The old owner has lost it at once.
    const gone = await page.goto(`${app.base}/user/pages/${created.id}/settings`)
    expect(gone!.status()).toBe(404)
    await other.close()
  })

  test('markup stays text; another owner’s page → 404; a cross-site post → 403; cancel through the notice', async () => {
    const created = await app.server.ctx.createPage(app.owner.key, { slug: 'staying', name: 'Staying Co' })
    const stranger = await app.createOwner('enterprise')
    const page = app.page
    const cookie = await app.cookieOf(app.context)

    await page.goto(`${app.base}/user/pages/${created.id}/transfer`)
    await page.getByLabel("Recipient's email").fill(MARKUP)
    await page.getByLabel('Your password').fill(OWNER_PASSWORD)
    await page.getByRole('button', { name: 'Send transfer invitation' }).click()
    expect(await page.locator('#f-email-error').textContent()).toBe("Recipient's email is not a valid address")
    expect(await page.getByLabel("Recipient's email").inputValue()).toBe(MARKUP)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()

    const { context: strangerContext } = await app.loginAs(stranger)
    const strangerCookie = await app.cookieOf(strangerContext)
    const fields = { email: stranger.email, password: OWNER_PASSWORD }
    expect((await postForm(app, `/user/pages/${created.id}/transfer`, fields, { cookie: strangerCookie })).status).toBe(404)
    expect((await fetch(`${app.base}/user/pages/${created.id}/transfer`, { headers: { cookie: strangerCookie } })).status).toBe(404)
    expect((await postForm(app, `/user/pages/${created.id}/transfer`, fields, { cookie, origin: 'https://evil.example' })).status).toBe(403)
    expect((await postForm(app, `/user/pages/${created.id}/transfer`, fields, { cookie, origin: null })).status).toBe(403)
    expect((await pendingOf(created.id)).data).toBeNull()

    const started = await postForm(app, `/user/pages/${created.id}/transfer`, fields, { cookie })
    expect(started.status).toBe(303)
    expect((await postForm(app, `/user/pages/${created.id}/transfer/cancel`, {}, { cookie: strangerCookie })).status).toBe(404)
    expect((await postForm(app, `/user/pages/${created.id}/transfer/cancel`, {}, { cookie, origin: 'https://evil.example' })).status).toBe(403)
    await page.goto(`${app.base}/user/pages/${created.id}/settings`)
    await page.getByRole('button', { name: 'Cancel transfer' }).click()
    await page.waitForURL(`${app.base}/user/pages/${created.id}/settings`)
    expect(await page.getByRole('status').filter({ hasText: `Transfer to ${stranger.email} cancelled.` }).isVisible()).toBe(true)
    expect((await pendingOf(created.id)).data).toBeNull()
    await strangerContext.close()
  })

  test('a page that does not fit the recipient plan: the offer screen says which limit, nothing moves', async () => {
    const created = await app.server.ctx.createPage(app.owner.key, { slug: 'too-big', name: 'Too Big Co', custom_domain: 'status.too-big.example' })
    const small = await app.createOwner('free')
    await services().transfers.startAsAdministrator(app.owner.user, created.id, small.email)
    await services().outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.to === small.email && m.subject.includes('"Too Big Co"'))
    const link = /http:\/\/\S+\/user\/transfers\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
    const { context, page } = await app.loginAs(small)
    await page.goto(link)
    await page.getByRole('button', { name: 'Accept transfer' }).click()
    await page.waitForLoadState()
    expect(await page.getByRole('alert').textContent()).toStartWith('custom domain and private pages: ')
    expect(await page.getByRole('button', { name: 'Accept transfer' }).isVisible()).toBe(true)
    expect((await services().pages.get(app.owner.user, created.id)).ownerId).toBe(app.owner.user.id)
    await checkA11y(page)
    await context.close()
  })
})
