/**
 * Password reset over the real app, real SQLite and a real SMTP server: the same answer for any
 * address, the mailed link (hashed at rest), expiry on the injected clock, single use, only the
 * newest link, the wrong account's link, every session ended, Origin checks and the mail-off screen.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { RESET_TTL_MS } from '../../../src/modules/password-resets/service.ts'

const ORIGIN = 'https://lantern.test'
const PASSWORD = 'correct horse battery'
const NEW_PASSWORD = 'a brand new passphrase'

let smtp: SmtpHarness
let ctx: TestContext
let noMail: TestContext

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: { ...smtp.env }, now: Date.UTC(2026, 10, 23, 12) })
  noMail = await createTestContext()
})
afterAll(async () => {
  await ctx.close()
  await noMail.close()
  await smtp.close()
})

const post = (c: TestContext, path: string, fields: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }) =>
  c.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() })

const login = (email: string, password: string) => post(ctx, '/user/login', { email, password })
const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0]!
const isLoggedIn = async (cookie: string) => (await ctx.request('/user/password', { headers: { cookie } })).status === 200

/** Asks for a link, delivers the outbox, and returns the token of the newest mail to `email`. */
async function linkFor(email: string): Promise<string> {
  const before = smtp.mails.filter((mail) => mail.to === email).length
  const response = await post(ctx, '/user/password-reset', { email })
  expect(response.status).toBe(200)
  await ctx.app.services.outboxWorker.drain()
  await smtp.waitFor(() => smtp.mails.filter((mail) => mail.to === email).length > before)
  const mail = smtp.mails.filter((m) => m.to === email).at(-1)!
  expect(mail.subject).toBe('Reset your Lantern password')
  const match = /https:\/\/lantern\.test\/user\/password-reset\/([A-Za-z0-9_-]{43})/.exec(mail.text)
  expect(match).not.toBeNull()
  return match![1]!
}

describe('asking for a link', () => {
  test('the login screen offers "Forgot password?"; the answer is the same with or without an account', async () => {
    const { user } = await ctx.createOwner()
    const page = await (await ctx.request('/user/login')).text()
    expect(page).toContain('href="/user/password-reset">Forgot password?</a>')

    const known = await post(ctx, '/user/password-reset', { email: user.email.toUpperCase() })
    const unknown = await post(ctx, '/user/password-reset', { email: 'nobody-at-all@example.com' })
    expect([known.status, unknown.status]).toEqual([200, 200])
    const strip = (text: string) => text.replace(/\s+/g, ' ')
    expect(strip(await known.text())).toBe(strip(await unknown.text()))
    await ctx.app.services.outboxWorker.drain()
    await smtp.waitFor((mail) => mail.to === user.email)
    expect(smtp.mails.some((mail) => mail.to === 'nobody-at-all@example.com')).toBe(false)
    // Only the hash of the token is stored.
    const rows = await ctx.database.db.selectFrom('password_resets').selectAll().where('user_id', '=', user.id).execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(rows[0]!.expires_at - rows[0]!.created_at).toBe(RESET_TTL_MS)
    const mail = smtp.mails.find((m) => m.to === user.email)!
    expect(mail.text).not.toContain(rows[0]!.token_hash)
  })

  test('a malformed address is 400, another site is 403, and nothing is stored', async () => {
    const before = await ctx.database.db.selectFrom('password_resets').select('id').execute()
    const bad = await post(ctx, '/user/password-reset', { email: 'not an address' })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Email is not a valid address')
    const { user } = await ctx.createOwner()
    expect((await post(ctx, '/user/password-reset', { email: user.email }, { origin: 'https://evil.example' })).status).toBe(403)
    expect((await post(ctx, '/user/password-reset', {})).status).toBe(400)
    expect(await ctx.database.db.selectFrom('password_resets').select('id').execute()).toHaveLength(before.length)
  })
})

describe('using a link', () => {
  test('sets the new password, ends every session of the account, and works once', async () => {
    const { user } = await ctx.createOwner()
    const sessionA = cookieOf(await login(user.email, PASSWORD))
    const sessionB = cookieOf(await login(user.email, PASSWORD))
    expect(await isLoggedIn(sessionA)).toBe(true)
    const token = await linkFor(user.email)

    const form = await ctx.request(`/user/password-reset/${token}`)
    expect(form.status).toBe(200)
    expect(await form.text()).toContain(user.email)
    // Too short: 400, and the link stays live.
    const short = await post(ctx, `/user/password-reset/${token}`, { new_password: 'short' })
    expect(short.status).toBe(400)
    expect(await short.text()).toContain('password must be at least 8 characters')
    // From another site: 403, nothing changes.
    expect((await post(ctx, `/user/password-reset/${token}`, { new_password: NEW_PASSWORD }, { origin: 'https://evil.example' })).status).toBe(403)
    expect(await isLoggedIn(sessionA)).toBe(true)

    const done = await post(ctx, `/user/password-reset/${token}`, { new_password: NEW_PASSWORD })
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/user/login')
    expect(await isLoggedIn(sessionA)).toBe(false)
    expect(await isLoggedIn(sessionB)).toBe(false)
    expect((await login(user.email, PASSWORD)).status).toBe(401)
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(303)

    // Single use: the link is dead now, and a second try changes nothing.
    expect((await ctx.request(`/user/password-reset/${token}`)).status).toBe(410)
    expect((await post(ctx, `/user/password-reset/${token}`, { new_password: 'yet another password' })).status).toBe(410)
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(303)
  })

  test('a link expires after 30 minutes (injected clock)', async () => {
    const { user } = await ctx.createOwner()
    const token = await linkFor(user.email)
    ctx.clock.advance(RESET_TTL_MS - 1)
    expect((await ctx.request(`/user/password-reset/${token}`)).status).toBe(200)
    ctx.clock.advance(1)
    expect((await ctx.request(`/user/password-reset/${token}`)).status).toBe(410)
    expect((await post(ctx, `/user/password-reset/${token}`, { new_password: NEW_PASSWORD })).status).toBe(410)
    expect((await login(user.email, PASSWORD)).status).toBe(303)
  })

  test('only the newest link works, and a link changes only its own account', async () => {
    const alice = (await ctx.createOwner()).user
    const bob = (await ctx.createOwner()).user
    const first = await linkFor(alice.email)
    const second = await linkFor(alice.email)
    expect((await ctx.request(`/user/password-reset/${first}`)).status).toBe(410)
    const bobToken = await linkFor(bob.email)
    expect(await (await ctx.request(`/user/password-reset/${bobToken}`)).text()).toContain(bob.email)
    expect((await post(ctx, `/user/password-reset/${bobToken}`, { new_password: NEW_PASSWORD })).status).toBe(303)
    // Bob's link set Bob's password; Alice's stays, and her own link still works.
    expect((await login(alice.email, PASSWORD)).status).toBe(303)
    expect((await login(bob.email, NEW_PASSWORD)).status).toBe(303)
    expect((await ctx.request(`/user/password-reset/${second}`)).status).toBe(200)
    // Unknown and malformed tokens: the same dead-link page.
    expect((await ctx.request(`/user/password-reset/${'A'.repeat(43)}`)).status).toBe(410)
    expect((await ctx.request('/user/password-reset/%3Cscript%3E')).status).toBe(410)
  })

  test('at most 3 mails per address and 10 requests per client an hour (counted in the database)', async () => {
    // Fresh windows for this test's budgets.
    ctx.clock.advance(3_600_000)
    const { user } = await ctx.createOwner()
    for (let i = 0; i < 3; i++) await linkFor(user.email)
    const more = await post(ctx, '/user/password-reset', { email: user.email })
    expect(more.status).toBe(200)
    await ctx.app.services.outboxWorker.drain()
    expect(await ctx.database.db.selectFrom('password_resets').select('id').where('user_id', '=', user.id).execute()).toHaveLength(3)
    // The client's tenth request passes, the eleventh waits.
    for (let i = 0; i < 6; i++) expect((await post(ctx, '/user/password-reset', { email: `someone${i}@example.com` })).status).toBe(200)
    const refused = await post(ctx, '/user/password-reset', { email: 'someone-else@example.com' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('mail off', () => {
  test('the login screen says to ask an administrator, and there are no links', async () => {
    const page = await (await noMail.request('/user/login')).text()
    expect(page).not.toContain('Forgot password?</a>')
    expect(page).toContain('lantern user set-password')
    const form = await noMail.request('/user/password-reset')
    expect(form.status).toBe(200)
    expect(await form.text()).toContain('Ask an administrator')
    const { user } = await noMail.createOwner()
    expect((await post(noMail, '/user/password-reset', { email: user.email })).status).toBe(404)
    expect(await noMail.database.db.selectFrom('password_resets').select('id').execute()).toHaveLength(0)
  })
})
