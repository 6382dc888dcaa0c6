/**
 * Two-factor in real Chromium: from the account screen, set it up (the QR code drawn as SVG, the
 * secret as text), confirm with a code, see the recovery codes once; log out and in again with the
 * code step; axe light/dark, 320/1280 px.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { checkA11y, checkLayouts, OWNER_PASSWORD, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { totpCode } from '../../src/lib/totp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let app: WebApp
beforeAll(async () => {
  app = await startWebApp({ now: NOW })
})
afterAll(() => app.close())

test('set up two-factor, then log in with the password and a code', async () => {
  const owner = await app.createOwner()
  const { context, page } = await app.loginAs(owner)
  await page.goto(`${app.base}/user/account`)
  await page.getByRole('link', { name: 'Two-factor sign-in' }).click()
  await page.waitForURL(`${app.base}/user/two-factor`)
  await checkA11y(page)
  await page.getByRole('button', { name: 'Set up two-factor' }).click()
  await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor()
  expect(await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg').count()).toBe(1)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'two-factor-enrol', ['Set up two-factor sign-in', 'Cannot scan?'])
  const secret = (await page.locator('code.secret').textContent())!.replace(/\s/g, '')
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)

  await page.getByLabel('Code', { exact: true }).fill(await totpCode(secret, app.server.ctx.clock.now()))
  await page.getByRole('button', { name: 'Turn two-factor on' }).click()
  await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor()
  expect(await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'two-factor-codes', ['shown only this once'])

  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(`${app.base}/user/login`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(OWNER_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/user\/login\/two-factor/)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'two-factor-step', ['Two-factor code'])
  await page.getByLabel('Code', { exact: true }).fill('000000' === (await totpCode(secret, app.server.ctx.clock.now())) ? '111111' : '000000')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByText('Code is wrong or was used already.').first().waitFor()
  // The next step's code (the confirmation used the current one).
  await page.getByLabel('Code', { exact: true }).fill(await totpCode(secret, app.server.ctx.clock.now() + 30_000))
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(`${app.base}/user`)
  await page.goto(`${app.base}/user/two-factor`)
  expect(await page.getByText('Recovery codes left: 10').isVisible()).toBe(true)
  await context.close()
})
