/**
 * Two-factor sign-in over the real app and real SQLite: enrolment (QR code as SVG, the secret as
 * text, confirmed with a code), the login's second step with the injected clock (window edges,
 * replay of a used code refused), recovery codes used once and stored hashed, guesses limited in
 * the database, API keys not subject to it, turning it off with the password.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { totpCode } from '../../../src/lib/totp.ts'
import { runCli } from '../../../src/cli.ts'

const ORIGIN = 'https://lantern.test'
const PASSWORD = 'correct horse battery'
// A multiple of 30 s: the start of a TOTP step.
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
})
afterAll(() => ctx.close())

const post = (path: string, fields: Record<string, string>, cookie = '', origin = ORIGIN) =>
  ctx.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie }, body: new URLSearchParams(fields).toString() })
const cookieNamed = (response: Response, name: string) =>
  response.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1)

async function loggedInOwner() {
  const owner = await ctx.createOwner()
  const session = cookieNamed(await post('/user/login', { email: owner.user.email, password: PASSWORD }), 'lantern_session')!
  return { ...owner, session }
}

/** Enrols the owner's authenticator; returns the secret and the recovery codes. */
async function enrol(session: string): Promise<{ secret: string; codes: string[] }> {
  const page = await post('/user/two-factor/enrol', {}, session)
  expect(page.status).toBe(200)
  const text = await page.text()
  expect(text).toContain('<svg')
  const secret = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(text)![1]!.replace(/ /g, '')
  const confirmed = await post('/user/two-factor/confirm', { code: await totpCode(secret, ctx.clock.now()) }, session)
  expect(confirmed.status).toBe(200)
  const codes = [...(await confirmed.text()).matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!)
  expect(codes).toHaveLength(10)
  return { secret, codes }
}

/** The password step: the challenge cookie (no session yet). */
async function passwordStep(email: string): Promise<string> {
  const response = await post('/user/login', { email, password: PASSWORD, next: '/user/pages' })
  expect(response.status).toBe(303)
  expect(response.headers.get('location')).toBe('/user/login/two-factor?next=%2Fuser%2Fpages')
  expect(cookieNamed(response, 'lantern_session')).toBeUndefined()
  return cookieNamed(response, 'lantern_2fa')!
}

const codeStep = (challenge: string, code: string) => post('/user/login/two-factor', { code, next: '/user/pages' }, challenge)

describe('enrolment', () => {
  test('QR code and secret, confirmed with a code; a wrong code leaves it off; recovery codes hashed', async () => {
    const owner = await loggedInOwner()
    const page = await post('/user/two-factor/enrol', {}, owner.session)
    const secret = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(await page.text())![1]!.replace(/ /g, '')
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const wrong = await post('/user/two-factor/confirm', { code: '000000' === (await totpCode(secret, NOW)) ? '111111' : '000000' }, owner.session)
    expect(wrong.status).toBe(400)
    expect(await ctx.app.services.twoFactor.isEnabled(owner.user.id)).toBe(false)
    // Still off: a login needs only the password.
    expect(cookieNamed(await post('/user/login', { email: owner.user.email, password: PASSWORD }), 'lantern_session')).toBeDefined()
    // From another site: refused.
    expect((await post('/user/two-factor/confirm', { code: await totpCode(secret, ctx.clock.now()) }, owner.session, 'https://evil.example')).status).toBe(403)

    const ok = await post('/user/two-factor/confirm', { code: await totpCode(secret, ctx.clock.now()) }, owner.session)
    expect(ok.status).toBe(200)
    const codes = [...(await ok.text()).matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!)
    expect(new Set(codes).size).toBe(10)
    const rows = await ctx.database.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', owner.user.id).execute()
    expect(rows).toHaveLength(10)
    for (const row of rows) expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/)
    // Shown once: the screen now says "on" and lists no codes.
    const again = await (await ctx.request('/user/two-factor', { headers: { cookie: owner.session } })).text()
    expect(again).toContain('Recovery codes left: 10')
    expect(again).not.toContain(codes[0]!)
    expect((await post('/user/two-factor/enrol', {}, owner.session)).status).toBe(409)
  })
})

describe('signing in', () => {
  test('the password alone starts no session; a code does; the code cannot be used twice', async () => {
    ctx.clock.set(NOW + 3_600_000)
    const owner = await loggedInOwner()
    const { secret } = await enrol(owner.session)
    ctx.clock.advance(30_000)
    const challenge = await passwordStep(owner.user.email)
    expect((await ctx.request('/user/login/two-factor', { headers: { cookie: challenge } })).status).toBe(200)
    const code = await totpCode(secret, ctx.clock.now())
    const done = await codeStep(challenge, code)
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/user/pages')
    const session = cookieNamed(done, 'lantern_session')!
    expect((await ctx.request('/user/account', { headers: { cookie: session } })).status).toBe(200)
    // The challenge is spent; a new sign-in with the same code (same step) is refused: no replay.
    expect((await codeStep(challenge, code)).status).toBe(303)
    expect((await codeStep(challenge, code)).headers.get('location')).toBe('/user/login')
    const second = await passwordStep(owner.user.email)
    expect((await codeStep(second, code)).status).toBe(401)
    // The next step's code works.
    ctx.clock.advance(30_000)
    expect((await codeStep(second, await totpCode(secret, ctx.clock.now()))).status).toBe(303)
  })

  test('window edges on the injected clock: one step either side, not two', async () => {
    ctx.clock.set(NOW + 2 * 3_600_000)
    const owner = await loggedInOwner()
    const { secret } = await enrol(owner.session)
    const base = ctx.clock.now() + 10 * 30_000
    ctx.clock.set(base)
    const challenge = await passwordStep(owner.user.email)
    expect((await codeStep(challenge, await totpCode(secret, base - 60_000))).status).toBe(401)
    expect((await codeStep(challenge, await totpCode(secret, base + 60_000))).status).toBe(401)
    // The previous step's code still works at the last millisecond of the current step.
    ctx.clock.set(base + 29_999)
    expect((await codeStep(challenge, await totpCode(secret, base - 30_000))).status).toBe(303)
    const next = await passwordStep(owner.user.email)
    // The next step's code (the phone a little ahead) works too, once.
    expect((await codeStep(next, await totpCode(secret, base + 30_000))).status).toBe(303)
    const third = await passwordStep(owner.user.email)
    expect((await codeStep(third, await totpCode(secret, base))).status).toBe(401)
  })

  test('recovery codes work once each; a challenge expires after 10 minutes', async () => {
    ctx.clock.set(NOW + 3 * 3_600_000)
    const owner = await loggedInOwner()
    const { codes } = await enrol(owner.session)
    const challenge = await passwordStep(owner.user.email)
    expect((await codeStep(challenge, codes[0]!.toUpperCase())).status).toBe(303)
    const again = await passwordStep(owner.user.email)
    expect((await codeStep(again, codes[0]!)).status).toBe(401)
    expect((await codeStep(again, codes[1]!.replace('-', ''))).status).toBe(303)
    expect(await ctx.app.services.twoFactor.status(owner.user.id)).toEqual({ enabled: true, recoveryCodesLeft: 8 })

    const late = await passwordStep(owner.user.email)
    ctx.clock.advance(10 * 60_000)
    const expired = await codeStep(late, codes[2]!)
    expect(expired.status).toBe(303)
    expect(expired.headers.get('location')).toBe('/user/login')
    expect(await ctx.app.services.twoFactor.status(owner.user.id)).toEqual({ enabled: true, recoveryCodesLeft: 8 })
  })

  test('guesses are limited like passwords (429), and API keys are not asked for a code', async () => {
    ctx.clock.set(NOW + 4 * 3_600_000)
    const owner = await loggedInOwner()
    const { secret } = await enrol(owner.session)
    const challenge = await passwordStep(owner.user.email)
    const right = await totpCode(secret, ctx.clock.now())
    const wrong = right === '000000' ? '111111' : '000000'
    for (let i = 0; i < 10; i++) expect((await codeStep(challenge, wrong)).status).toBe(401)
    const held = await codeStep(challenge, right)
    expect(held.status).toBe(429)
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0)
    const budgets = await ctx.database.db.selectFrom('attempt_budgets').select('key').execute()
    expect(budgets.length).toBeGreaterThan(0)
    expect((await ctx.request('/user/api/v1/status-pages', { key: owner.key })).status).toBe(200)
  })

  test('turning it off needs the password; then the password alone logs in', async () => {
    ctx.clock.set(NOW + 5 * 3_600_000)
    const owner = await loggedInOwner()
    await enrol(owner.session)
    expect((await post('/user/two-factor/disable', { password: 'not the password' }, owner.session)).status).toBe(400)
    expect(await ctx.app.services.twoFactor.isEnabled(owner.user.id)).toBe(true)
    expect((await post('/user/two-factor/disable', { password: PASSWORD }, owner.session)).status).toBe(303)
    expect(await ctx.app.services.twoFactor.isEnabled(owner.user.id)).toBe(false)
    expect(await ctx.database.db.selectFrom('recovery_codes').select('id').where('user_id', '=', owner.user.id).execute()).toHaveLength(0)
    expect(cookieNamed(await post('/user/login', { email: owner.user.email, password: PASSWORD }), 'lantern_session')).toBeDefined()
  })

  test('an administrator turns it off for a user who lost the phone (lantern user reset-two-factor)', async () => {
    ctx.clock.set(NOW + 6 * 3_600_000)
    const owner = await loggedInOwner()
    await enrol(owner.session)
    const out: string[] = []
    const code = await runCli(['user', 'reset-two-factor', '--email', owner.user.email], ctx.databaseEnv, { out: (line) => out.push(line), err: (line) => out.push(line) })
    expect(code).toBe(0)
    expect(await ctx.app.services.twoFactor.isEnabled(owner.user.id)).toBe(false)
    expect(cookieNamed(await post('/user/login', { email: owner.user.email, password: PASSWORD }), 'lantern_session')).toBeDefined()
  })
})
