/**
 * Passkeys in real Chromium with its virtual authenticator (the DevTools protocol's WebAuthn domain:
 * a CTAP2 platform authenticator with resident keys and user verification). The service is
 * http://localhost:<port> (a secure context), so the rp id is `localhost`. Enrol a passkey from the
 * account, log out, sign in with the passkey only, sign in with the password and the passkey as the
 * second factor, then remove it. A sign-in challenge asked for in one browser context and answered
 * in another (with a copy of the passkey) signs no one in.
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

/**
 * Run in a page: answers sign-in `options` with the page's authenticator and posts the answer, as
 * the page script does (the page's cookies go with it).
 */
async function answerInPage(options: { challenge: string; rpId: string }): Promise<{ status: number; body: unknown }> {
  const bytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4)), (c) => c.charCodeAt(0))
  const text = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  const credential = (await navigator.credentials.get({ publicKey: { rpId: options.rpId, challenge: bytes(options.challenge), userVerification: 'required' } })) as PublicKeyCredential
  const r = credential.response as AuthenticatorAssertionResponse
  const response = {
    id: credential.id,
    rawId: text(credential.rawId),
    type: credential.type,
    clientExtensionResults: {},
    response: { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature), ...(r.userHandle ? { userHandle: text(r.userHandle) } : {}) },
  }
  const answer = await fetch('/user/passkeys/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response }) })
  return { status: answer.status, body: await answer.json() }
}
/** Run in a page: asks for sign-in options (the browser keeps the cookie that comes with them). */
const askInPage = () => fetch('/user/passkeys/sign-in/options', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.json())

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

  // A challenge this browser asked for, answered from another browser context that holds a copy of
  // the passkey and a sign-in cookie of its own: refused, no session there; and spent, so this
  // browser's own answer to it comes too late.
  const other = await app.browser.newContext()
  const otherPage = await other.newPage()
  await otherPage.goto(`${app.base}/user/login`)
  const copy = await virtualAuthenticator(otherPage)
  await copy.cdp.send('WebAuthn.addCredential', { authenticatorId: copy.authenticatorId, credential: (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]! })
  const options = await page.evaluate(askInPage)
  await otherPage.evaluate(askInPage)
  expect(await otherPage.evaluate(answerInPage, options)).toEqual({ status: 401, body: { error: 'the passkey was not accepted: try again, or use another way to sign in' } })
  expect((await other.cookies()).map((c) => c.name)).not.toContain('lantern_session')
  expect((await page.evaluate(answerInPage, options)).status).toBe(401)
  await other.close()
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
