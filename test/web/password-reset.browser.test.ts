/**
 * "Forgot password?" in real Chromium with a real SMTP server: the link on the login screen, the
 * address form, the mailed link followed in the browser, the new password set, the other browser's
 * session ended, login with the new password; axe light/dark, 320/1280 px.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { startSmtp, type SmtpHarness } from '../helpers/smtp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const NEW_PASSWORD = 'a brand new passphrase'

let smtp: SmtpHarness
let app: WebApp
beforeAll(async () => {
  smtp = await startSmtp()
  app = await startWebApp({ now: NOW, env: smtp.env })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

test('forgot password: ask for a link, follow the mail, set a new password; every session ends', async () => {
  const owner = await app.createOwner()
  const other = await app.loginAs(owner)
  const otherCookie = await app.cookieOf(other.context)
  const stillIn = async () => (await fetch(`${app.base}/user/password`, { headers: { cookie: otherCookie }, redirect: 'manual' })).status === 200
  expect(await stillIn()).toBe(true)

  const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto(`${app.base}/user/login`)
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await page.waitForURL(`${app.base}/user/password-reset`)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'password-reset', ['Reset your password'])
  await page.getByLabel('Email').fill(owner.email)
  await page.getByRole('button', { name: 'Send the link' }).click()
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor()
  await checkA11y(page)

  await app.server.ctx.app.services.outboxWorker.drain()
  const mail = await smtp.waitFor((m) => m.to === owner.email && m.subject === 'Reset your Lantern password')
  const link = /https?:\/\/\S+\/user\/password-reset\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
  // The mail links to BASE_URL; the browser follows the same path on the listening server.
  const path = new URL(link).pathname
  await page.goto(`${app.base}${path}`)
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
  expect(await page.getByText(owner.email).isVisible()).toBe(true)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'password-reset-form', ['Choose a new password'])

  // Too short: the form says so, and the link still works.
  await page.getByLabel('New password').fill('short')
  await page.getByRole('button', { name: 'Set the new password' }).click()
  await page.getByText('password must be at least 8 characters').first().waitFor()
  await page.getByLabel('New password').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Set the new password' }).click()
  await page.waitForURL(`${app.base}/user/login`)
  expect(await page.getByText('Your new password is set').isVisible()).toBe(true)
  expect(await stillIn()).toBe(false)

  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(`${app.base}/user`)

  // The link is spent.
  await page.goto(`${app.base}${path}`)
  await page.getByRole('heading', { name: 'This link no longer works' }).waitFor()
  await context.close()
  await other.context.close()
})
