/**
 * Single sign-on in real Chromium against a real OpenID provider on 127.0.0.1 (oidc-provider,
 * test/helpers/oidc-provider.ts), through its own login form: a first sign-in makes an account
 * (no password) with its personal team; a verified address of an existing account links to it
 * (and the link, not the address, finds it afterwards); an unverified address is refused; a team
 * that claimed a domain on the members screen gains the person with the claim's role (and a full
 * team lets them in without joining); a tampered `state` and a replayed code are refused with a
 * page saying so, and start no session. The audit log records the sign-ins and the join. a11y.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { HtmlValidate } from 'html-validate'
import { sha256Hex } from '../../src/lib/crypto.ts'
import { HTML_RULES } from '../helpers/html-rules.ts'
import { IDP_NAME, listenOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts'
import { checkA11y, checkLayouts, startWebApp, type Owner, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 11, 8, 9, 0, 0)

let idp: TestOidcProvider
let app: WebApp
beforeAll(async () => {
  idp = await listenOidcProvider([
    { id: 'alice', email: 'Alice@New.test', emailVerified: true },
    { id: 'bob', email: 'bob.linked@example.com', emailVerified: true },
    { id: 'carol', email: 'carol@example.com', emailVerified: false },
    { id: 'dave', email: 'dave@acme.test', emailVerified: true },
    { id: 'erin', email: 'erin@acme.test', emailVerified: true },
    { id: 'frank', email: 'frank@acme.test', emailVerified: true },
    { id: 'mallory', email: 'mallory@example.com', emailVerified: true },
    { id: 'replay', email: 'replay@example.com', emailVerified: true },
  ])
  app = await startWebApp({ now: NOW, env: idp.env })
  idp.register(`${app.base}/user/sso/callback`)
})
afterAll(async () => {
  await app.close()
  await idp.close()
})

const services = () => app.server.ctx.app.services
const db = () => app.server.ctx.database.db

/** A fresh browser (no session here, none at the provider). */
async function freshBrowser(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } })
  return { context, page: await context.newPage() }
}

/** From Lantern's login screen through the provider's own form, as the person `login`. */
async function signInAtProvider(page: Page, login: string, beforeSubmit?: () => Promise<void>): Promise<void> {
  await page.goto(`${app.base}/user/login`)
  await page.getByRole('link', { name: `Sign in with ${IDP_NAME}` }).click()
  await page.waitForURL((url) => url.origin === idp.issuer)
  await beforeSubmit?.()
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password at the test provider')
  await page.locator('button[type="submit"]').click()
}

/**
 * The provider's login form post, followed by hand up to the redirect back to Lantern, whose URL
 * `rewrite` may change before the browser goes there (the browser's own redirects cannot be
 * intercepted hop by hop). Cookies are the browser context's throughout.
 */
async function rewriteCallback(page: Page, rewrite: (callback: URL) => URL): Promise<void> {
  await page.route(`${idp.issuer}/interaction/**`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    let answer = await route.fetch({ maxRedirects: 0 })
    let location = new URL(answer.headers().location!, idp.issuer)
    while (location.origin === idp.issuer) {
      answer = await page.context().request.get(location.href, { maxRedirects: 0 })
      location = new URL(answer.headers().location!, idp.issuer)
    }
    await route.fulfill({ status: 303, headers: { location: rewrite(location).href } })
  })
}

const sessionCookieOf = async (context: BrowserContext) => (await context.cookies(app.base)).find((cookie) => cookie.name === 'lantern_session')

/** The page's HTML as the server sent it (a fetch with the browser's cookies) has no html-validate finding. */
async function expectValidHtml(context: BrowserContext, path: string, status: number): Promise<void> {
  const cookie = (await context.cookies(app.base)).map((c) => `${c.name}=${c.value}`).join('; ')
  const answer = await fetch(`${app.base}${path}`, { headers: { cookie }, redirect: 'manual' })
  expect(answer.status).toBe(status)
  const report = await new HtmlValidate(HTML_RULES).validateString(await answer.text(), path)
  expect(report.results.flatMap((result) => result.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([])
}

async function auditRows(teamId: number) {
  return (await services().audit.list(teamId, {}, { limit: 50 })).entries.map((entry) => ({ kind: entry.actorKind, action: entry.action, label: entry.actorLabel, objectId: entry.objectId }))
}

test('the login screen offers the provider; a first sign-in makes an account without a password, with its personal team', async () => {
  const { context, page } = await freshBrowser()
  await page.goto(`${app.base}/user/login`)
  expect(await page.getByRole('link', { name: `Sign in with ${IDP_NAME}` }).isVisible()).toBe(true)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'login-sso', ['Log in', `Sign in with ${IDP_NAME}`])

  await signInAtProvider(page, 'alice')
  await page.waitForURL(`${app.base}/user`)
  await page.getByRole('status').filter({ hasText: 'Your account is made and signed in through single sign-on' }).waitFor()
  expect(await sessionCookieOf(context)).toBeDefined()
  // The address as Lantern keeps addresses (lower case); its own personal team; no password works.
  const alice = (await services().accounts.userWithEmail('alice@new.test'))!
  expect(alice).toBeDefined()
  const team = await services().accounts.personalTeamOwner(alice)
  expect(team.role).toBe('owner')
  await expect(services().accounts.login('alice@new.test', '!sso-no-password', '192.0.2.1')).rejects.toMatchObject({ status: 401 })
  expect(await db().selectFrom('sso_identities').select(['issuer', 'subject', 'user_id']).where('subject', '=', 'alice').execute()).toEqual([{ issuer: idp.issuer, subject: 'alice', user_id: alice.id }])
  expect(await auditRows(team.id)).toContainEqual({ kind: 'sso', action: 'sso.sign_in', label: 'alice@new.test', objectId: 'created' })
  // The sign-in's row is spent: nothing is left to replay.
  expect(await db().selectFrom('sso_logins').select('id').execute()).toEqual([])
  await context.close()
})

test('a verified address of an existing account links to it; afterwards the link finds it, whatever the address says', async () => {
  const existing = await app.server.ctx.createOwner('pro', 'bob.linked@example.com')
  const first = await freshBrowser()
  await signInAtProvider(first.page, 'bob')
  await first.page.waitForURL(`${app.base}/user`)
  const token = (await sessionCookieOf(first.context))!.value
  expect((await services().accounts.authenticateSession(decodeURIComponent(token)))!.userId).toBe(existing.account.id)
  expect(await auditRows(existing.user.id)).toContainEqual({ kind: 'sso', action: 'sso.sign_in', label: 'bob.linked@example.com', objectId: 'linked' })
  await first.context.close()

  // The provider's address changes (and is no longer verified): issuer and subject still find Bob.
  idp.accounts.set('bob', { id: 'bob', email: 'robert@elsewhere.test', emailVerified: false })
  const again = await freshBrowser()
  await signInAtProvider(again.page, 'bob')
  await again.page.waitForURL(`${app.base}/user`)
  const second = (await sessionCookieOf(again.context))!.value
  expect((await services().accounts.authenticateSession(decodeURIComponent(second)))!.userId).toBe(existing.account.id)
  expect(await services().accounts.userWithEmail('robert@elsewhere.test')).toBeUndefined()
  await again.context.close()
})

test('an unverified address is refused: a page says why, no account, no session', async () => {
  const { context, page } = await freshBrowser()
  await signInAtProvider(page, 'carol')
  await page.getByRole('heading', { name: 'Single sign-on did not work' }).waitFor()
  expect(await page.getByRole('alert').textContent()).toContain(`${IDP_NAME} has not verified the address carol@example.com`)
  expect(new URL(page.url()).pathname).toBe('/user/sso/callback')
  await checkA11y(page)
  await expectValidHtml(context, '/user/login', 200)
  expect(await sessionCookieOf(context)).toBeUndefined()
  expect(await services().accounts.userWithEmail('carol@example.com')).toBeUndefined()
  await context.close()
})

test('a team claims its domain on the members screen; people of the domain join with its role, until the seats run out', async () => {
  const lead = await app.server.ctx.createOwner('pro', 'lead@acme.test')
  const team = await services().teams.create(lead.user, 'Acme ops')
  const { context, page } = await app.loginAs({ user: lead.user, key: lead.key, email: lead.user.email } satisfies Owner)
  await page.goto(`${app.base}/user/teams`)
  await page.getByRole('button', { name: /^Act in .*Acme ops$/ }).click()
  await page.goto(`${app.base}/user/team`)

  // Another company's domain is refused, with why; nothing is claimed.
  await page.getByLabel('Email domain').fill('example.com')
  await page.getByLabel('Role of people joining by it').selectOption('editor')
  await page.getByRole('button', { name: 'Save domain' }).click()
  await page.getByText('you may claim only the domain of your own address (acme.test)').first().waitFor()
  expect((await services().teams.current({ ...lead.user, id: team.id, role: 'owner' })).ssoDomain).toBeNull()

  await page.getByLabel('Email domain').fill('@ACME.test')
  await page.getByLabel('Role of people joining by it').selectOption('editor')
  await page.getByRole('button', { name: 'Save domain' }).click()
  await page.waitForURL(`${app.base}/user/team`)
  await page.getByRole('status').filter({ hasText: 'Acme ops claims acme.test: people signing in through single sign-on with it join as Editor.' }).waitFor()
  expect(await page.getByText(`This team claims acme.test: whoever signs in through single sign-on (${IDP_NAME}) with a verified address at acme.test joins it as Editor`).isVisible()).toBe(true)
  await checkA11y(page)
  await checkLayouts(page, app.shots, 'team-sso-domain', ['Single sign-on domain', 'Save domain', 'Release acme.test'])
  await expectValidHtml(context, '/user/team', 200)

  // Dave signs in through the provider: he joins Acme ops as an editor, and is told so.
  const dave = await freshBrowser()
  await signInAtProvider(dave.page, 'dave')
  await dave.page.waitForURL(`${app.base}/user`)
  await dave.page.getByRole('status').filter({ hasText: 'You joined the team Acme ops as Editor' }).waitFor()
  await page.reload()
  const row = page.getByRole('table', { name: /Members of/ }).getByRole('row').filter({ hasText: 'dave@acme.test' })
  expect(await row.getByRole('cell', { name: 'Editor', exact: true }).isVisible()).toBe(true)
  const daveId = (await services().accounts.userWithEmail('dave@acme.test'))!.id
  expect(await auditRows(team.id)).toContainEqual({ kind: 'sso', action: 'team.members.sso_join', label: 'dave@acme.test', objectId: String(daveId) })
  // The team's audit log screen shows the join, by SSO.
  await page.goto(`${app.base}/user/team/audit`)
  const joinRow = page.getByRole('row').filter({ hasText: 'team.members.sso_join' })
  expect(await joinRow.getByText('dave@acme.test (SSO)').isVisible()).toBe(true)
  await page.goto(`${app.base}/user/team`)
  await dave.context.close()

  // Pro has 3 seats: Erin takes the last; Frank signs in, joins nothing, and is told the team is full.
  const erin = await freshBrowser()
  await signInAtProvider(erin.page, 'erin')
  await erin.page.getByRole('status').filter({ hasText: 'You joined the team Acme ops as Editor' }).waitFor()
  await erin.context.close()
  const frank = await freshBrowser()
  await signInAtProvider(frank.page, 'frank')
  await frank.page.waitForURL(`${app.base}/user`)
  await frank.page.getByRole('alert').filter({ hasText: 'The team Acme ops claimed the domain of your address, but all its seats are taken' }).waitFor()
  expect(await sessionCookieOf(frank.context)).toBeDefined()
  const members = await services().teams.members({ ...lead.user, id: team.id, role: 'owner' })
  expect(members.map((member) => member.email).sort()).toEqual(['dave@acme.test', 'erin@acme.test', 'lead@acme.test'])
  await frank.context.close()

  // Released: the screen says nobody joins by it.
  await page.getByRole('button', { name: 'Release acme.test' }).click()
  await page.getByRole('status').filter({ hasText: 'acme.test released' }).waitFor()
  expect(await page.getByText('No email domain is claimed: people join only by invitation.').isVisible()).toBe(true)
  await context.close()
})

test('cancelled at the provider: the page says so, no session', async () => {
  const { context, page } = await freshBrowser()
  await page.goto(`${app.base}/user/login`)
  await page.getByRole('link', { name: `Sign in with ${IDP_NAME}` }).click()
  await page.waitForURL((url) => url.origin === idp.issuer)
  await page.getByRole('link', { name: /Cancel/ }).click()
  await page.getByRole('heading', { name: 'Single sign-on did not work' }).waitFor()
  expect(await page.getByRole('alert').textContent()).toContain(`${IDP_NAME} did not sign you in (access_denied`)
  expect(await sessionCookieOf(context)).toBeUndefined()
  await context.close()
})

test('nasty answers at the callback: a clear page (escaped), never a session or a 500', async () => {
  const cases: [string, Record<string, string>, number][] = [
    ['no sign-in under way', { code: 'x', state: '<script>window.pwned=1</script>' }, 400],
    ['a cookie that is no token', { code: 'x', state: 'y' }, 400],
    ['NUL and odd Unicode', { code: 'x\u0000', state: '\u202e\ud800' }, 400],
    ['an over-long state', { code: 'x', state: 's'.repeat(5000) }, 400],
  ]
  for (const [label, params, status] of cases) {
    const url = `${app.base}/user/sso/callback?${new URLSearchParams(params)}`
    const answer = await fetch(url, { headers: { cookie: label === 'a cookie that is no token' ? 'lantern_sso=<b>' : '' }, redirect: 'manual' })
    const body = await answer.text()
    expect({ label, status: answer.status }).toEqual({ label, status })
    expect(body).not.toContain('<script>window.pwned')
    expect(answer.headers.getSetCookie().some((cookie) => cookie.startsWith('lantern_session='))).toBe(false)
  }
  // A sign-in under way whose answer holds no code: refused before the provider is asked.
  const { context, page } = await freshBrowser()
  await page.goto(`${app.base}/user/login`)
  await page.getByRole('link', { name: `Sign in with ${IDP_NAME}` }).click()
  await page.waitForURL((url) => url.origin === idp.issuer)
  const state = new URL(page.url()).searchParams.get('state') ?? (await db().selectFrom('sso_logins').select('state').orderBy('id', 'desc').executeTakeFirstOrThrow()).state
  await page.goto(`${app.base}/user/sso/callback?state=${encodeURIComponent(state)}`)
  expect(await page.getByRole('alert').textContent()).toContain('holds no sign-in code')
  expect(await sessionCookieOf(context)).toBeUndefined()
  await context.close()
})

test('a tampered state is refused: no session, and the sign-in cannot be finished afterwards', async () => {
  const { context, page } = await freshBrowser()
  await rewriteCallback(page, (url) => {
    expect(url.pathname).toBe('/user/sso/callback')
    url.searchParams.set('state', `${url.searchParams.get('state')}x`)
    return url
  })
  await signInAtProvider(page, 'mallory')
  await page.getByRole('heading', { name: 'Single sign-on did not work' }).waitFor()
  expect(await page.getByRole('alert').textContent()).toContain('its state does not match')
  expect(await sessionCookieOf(context)).toBeUndefined()
  expect(await services().accounts.userWithEmail('mallory@example.com')).toBeUndefined()
  // The refusal spent the sign-in: the untampered answer cannot finish it now.
  expect(await db().selectFrom('sso_logins').select('id').execute()).toEqual([])
  await context.close()
})

test('a replayed code is refused: by the spent sign-in, and by the provider when the checks are replayed too', async () => {
  const { context, page } = await freshBrowser()
  let callback: string | undefined
  let stored: { state: string; nonce: string; code_verifier: string; next_path: string } | undefined
  page.on('request', (request) => {
    if (request.url().startsWith(`${app.base}/user/sso/callback?`)) callback ??= request.url()
  })
  // The sign-in on its way, as stored: the one row there is while this browser is at the provider.
  await signInAtProvider(page, 'replay', async () => {
    stored = await db().selectFrom('sso_logins').select(['state', 'nonce', 'code_verifier', 'next_path']).executeTakeFirstOrThrow()
  })
  await page.waitForURL(`${app.base}/user`)
  expect(callback).toContain('code=')

  // The same callback again, in the same browser: its sign-in was spent.
  const answer = await page.goto(callback!)
  expect(answer!.status()).toBe(400)
  expect(await page.getByRole('alert').textContent()).toContain('This sign-in has expired or was finished already')

  // In another browser, with the spent sign-in's state, nonce and verifier put back under a new
  // cookie: Lantern's checks pass, and the provider refuses the code it has exchanged once.
  const token = 'R'.repeat(43)
  await db()
    .insertInto('sso_logins')
    .values({ token_hash: await sha256Hex(token), ...stored!, created_at: NOW, expires_at: NOW + 600_000 })
    .execute()
  const other = await freshBrowser()
  await other.context.addCookies([{ name: 'lantern_sso', value: token, url: `${app.base}/user/sso` }])
  const replayed = await other.page.goto(callback!)
  expect(replayed!.status()).toBe(400)
  expect(await other.page.getByRole('alert').textContent()).toContain(`${IDP_NAME} refused the sign-in's code: it was used already or has expired`)
  expect(await sessionCookieOf(other.context)).toBeUndefined()
  await other.context.close()
  await context.close()
})
