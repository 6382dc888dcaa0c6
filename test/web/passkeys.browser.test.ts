/**
 * Passkeys in real Chromium with its virtual authenticator (the DevTools protocol's WebAuthn domain:
 * a CTAP2 platform authenticator with resident keys and user verification). The service is
 * http://localhost:<port> (a secure context), so the rp id is `localhost`. Enrol a passkey from the
 * account, log out, sign in with the passkey only, sign in with the password and the passkey as the
 * second factor, then remove it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { checkA11y, OWNER_PASSWORD, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let app: WebApp
beforeAll(async () => {
  app = await startWebApp({ now: NOW })
})
afterAll(() => app.close())

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return { cdp, authenticatorId }
}

test('enrol a passkey, sign in with it alone, use it after the password, remove it', async () => {
  const owner = await app.createOwner()
  const { context, page } = await app.loginAs(owner)
  const { cdp, authenticatorId } = await virtualAuthenticator(page)

  await page.goto(`${app.base}/user/account`)
  await page.getByRole('link', { name: 'Passkeys' }).click()
  await page.waitForURL(`${app.base}/user/passkeys`)
  await page.getByText('No passkeys yet.').waitFor()
  await checkA11y(page)
  await page.getByLabel('Name', { exact: true }).fill('Work <laptop>')
  // Without the password: the script says so, and nothing is asked of the authenticator.
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await page.getByText('That did not work: type your password first.').waitFor()
  await page.getByLabel('Your password').fill('not the password')
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await page.getByText('That did not work: password is wrong.').waitFor()
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(0)
  await page.getByLabel('Your password').fill(OWNER_PASSWORD)
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  await page.getByText('Passkey "Work <laptop>" added.').waitFor()
  const table = page.getByRole('table', { name: 'Your passkeys' })
  expect(await table.getByRole('row').count()).toBe(2)
  expect(await table.getByRole('cell', { name: 'Work <laptop>', exact: true }).isVisible()).toBe(true)
  expect(await table.getByRole('cell', { name: 'Not yet' }).isVisible()).toBe(true)
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(credentials).toHaveLength(1)
  expect(credentials[0]!.isResidentCredential).toBe(true)
  expect(credentials[0]!.rpId).toBe('localhost')
  await checkA11y(page)

  // The audit log has the addition (the screen guard records the write).
  const audit = await app.server.ctx.database.db.selectFrom('audit_log').selectAll().where('object_type', '=', '/user/passkeys').execute()
  expect(audit.length).toBe(1)

  // Password-free: the passkey alone.
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(`${app.base}/user/login`)
  await checkA11y(page)
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await page.waitForURL(`${app.base}/user`)
  await page.goto(`${app.base}/user/passkeys`)
  expect(await table.getByRole('cell', { name: 'Not yet' }).count()).toBe(0)

  // The password, then the passkey as the second factor (no authenticator app: the code form is not offered).
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(`${app.base}/user/login`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(OWNER_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/user\/login\/two-factor/)
  expect(await page.getByLabel('Code', { exact: true }).count()).toBe(0)
  await checkA11y(page)
  await page.getByRole('button', { name: 'Use a passkey' }).click()
  await page.waitForURL(`${app.base}/user`)

  // A passkey is a second factor: the team may require two-factor now.
  expect(await app.server.ctx.app.services.accounts.hasSecondFactor(owner.user.userId)).toBe(true)

  // Remove it (with a confirmation).
  await page.goto(`${app.base}/user/passkeys`)
  await page.getByRole('link', { name: 'Remove Work <laptop>' }).click()
  await page.getByRole('heading', { name: 'Remove "Work <laptop>"?' }).waitFor()
  await checkA11y(page)
  await page.getByRole('button', { name: 'Remove passkey' }).click()
  await page.getByText('Passkey "Work <laptop>" removed.').waitFor()
  await page.getByText('No passkeys yet.').waitFor()
  expect(await app.server.ctx.app.services.accounts.hasSecondFactor(owner.user.userId)).toBe(false)

  // The authenticator still holds the credential, but the server no longer knows it.
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(`${app.base}/user/login`)
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await page.getByText('That did not work: the passkey was not accepted').waitFor()
  expect(page.url()).toBe(`${app.base}/user/login`)
  await context.close()
})
