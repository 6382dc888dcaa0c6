/**
 * Passkeys over the real app and database (SQLite, and PostgreSQL with LANTERN_TEST_POSTGRES), with
 * a software authenticator (helpers/webauthn.ts: real ES256 keys and signatures) instead of a
 * browser: adding one, the password-free sign-in and the second step after the password; the
 * challenges single-use, bound to their purpose and account (a sign-in's to the browser that asked
 * for it, by its cookie), and gone after 5 minutes on the injected clock; the sign-in options
 * throttled per client address; the relying party from BASE_URL whatever the request's headers say; Origin
 * checks; another account's passkey id is 404; the signature counter; hostile bodies are 4xx.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { createApp } from '../../../src/app.ts'
import { isUniqueViolationOn } from '../../../src/db/errors.ts'
import { sha256Hex } from '../../../src/lib/crypto.ts'
import { totpCode } from '../../../src/lib/totp.ts'
import { PasskeysRepo } from '../../../src/modules/passkeys/repo.ts'
import { SIGN_IN_OPTIONS_PER_CLIENT, SIGN_IN_OPTIONS_WINDOW_MS } from '../../../src/modules/passkeys/service.ts'
import { CEREMONY_TTL_MS } from '../../../src/modules/passkeys/types.ts'
import { fastTestHasher } from '../../helpers/password.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { SoftAuthenticator } from '../../helpers/webauthn.ts'

const ORIGIN = 'https://lantern.test'
const PASSWORD = 'correct horse battery'
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
})
afterAll(() => ctx.close())

// Each test its own client address, so that one test's refused guesses do not spend another's budget.
let clients = 0
let client = ''
beforeEach(() => {
  client = `198.51.100.${++clients}`
})

const cookieNamed = (response: Response, name: string) =>
  response.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1)
const form = (path: string, fields: Record<string, string>, cookie = '', origin: string | null = ORIGIN) =>
  ctx.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client, cookie, ...(origin ? { origin } : {}) }, body: new URLSearchParams(fields).toString() })
const post = (path: string, body: unknown, cookie = '', headers: Record<string, string> = { origin: ORIGIN }) =>
  ctx.request(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client, cookie, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })

type Person = Awaited<ReturnType<typeof person>>

/** An account with a session, and a software authenticator of its own. */
async function person() {
  const owner = await ctx.createOwner()
  const session = cookieNamed(await form('/user/login', { email: owner.user.email, password: PASSWORD }), 'lantern_session')!
  expect(session).toBeDefined()
  return { ...owner, session, authenticator: new SoftAuthenticator(ORIGIN) }
}

async function registrationOptions(who: Person): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const response = await post('/user/passkeys/options', { password: PASSWORD }, who.session)
  expect(response.status).toBe(200)
  return json(response)
}

/** Adds a passkey named `name`; returns its row. */
async function addPasskey(who: Person, name = 'Work laptop') {
  const answer = await who.authenticator.create(await registrationOptions(who))
  const added = await post('/user/passkeys', { name, response: answer }, who.session)
  expect(added.status).toBe(200)
  expect(await json(added)).toEqual({ location: '/user/passkeys' })
  return (await ctx.database.db.selectFrom('passkeys').selectAll().where('credential_id', '=', answer.id).executeTakeFirstOrThrow())!
}

const SIGN_IN_COOKIE = 'lantern_passkey_sign_in'

/**
 * The sign-in cookie each challenge's options came with: by default the browser that asked for a
 * challenge is the one that answers it (signIn sends that cookie); the binding's tests say otherwise.
 */
const browserOf = new Map<string, string>()
const challengeIn = (answer: { response: { clientDataJSON: string } }): string => JSON.parse(isoBase64URL.toUTF8String(answer.response.clientDataJSON)).challenge

async function signInOptions(headers: Record<string, string> = { origin: ORIGIN }): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const response = await post('/user/passkeys/sign-in/options', {}, '', headers)
  expect(response.status).toBe(200)
  const options = await json<PublicKeyCredentialRequestOptionsJSON>(response)
  browserOf.set(options.challenge, cookieNamed(response, SIGN_IN_COOKIE)!)
  return options
}

const signIn = (response: { response: { clientDataJSON: string } }, next = '/user/pages', cookie = browserOf.get(challengeIn(response)) ?? '') =>
  post('/user/passkeys/sign-in', { response, next }, cookie)
/** The Set-Cookie of `name` that a response sends, whole (attributes too). */
const setCookieOf = (response: Response, name: string) => response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))

describe('adding and signing in', () => {
  test('a passkey is added, then signs in alone; the session works; the counter and last use are kept', async () => {
    const who = await person()
    const options = await registrationOptions(who)
    expect(options.rp).toEqual({ name: 'Lantern (lantern.test)', id: 'lantern.test' })
    expect(isoBase64URL.toUTF8String(options.user.id)).toBe(`lantern-user-${who.account.id}`)
    expect(options.authenticatorSelection?.residentKey).toBe('required')
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257])
    const added = await post('/user/passkeys', { name: '  Work <laptop>  ', response: await who.authenticator.create(options) }, who.session)
    expect(added.status).toBe(200)
    expect(added.headers.get('cache-control')).toBe('no-store')
    const [passkey] = await ctx.app.services.passkeys.list(who.account.id)
    expect(passkey).toMatchObject({ name: 'Work <laptop>', createdAt: NOW, lastUsedAt: null, transports: ['internal'] })
    // Escaped on the screen.
    const screen = await (await ctx.request('/user/passkeys', { headers: { cookie: who.session } })).text()
    expect(screen).toContain('Work &#60;laptop&#62;')
    expect(screen).not.toContain('Work <laptop>')
    // The second time, the options exclude the passkey already there.
    expect((await registrationOptions(who)).excludeCredentials?.map((c) => c.id)).toEqual([(await ctx.database.db.selectFrom('passkeys').select('credential_id').where('user_id', '=', who.account.id).executeTakeFirstOrThrow()).credential_id])

    ctx.clock.advance(60_000)
    const options2 = await signInOptions()
    expect(options2).toMatchObject({ rpId: 'lantern.test', userVerification: 'required' })
    expect(options2.allowCredentials ?? []).toEqual([])
    const done = await signIn(await who.authenticator.get(options2))
    expect(done.status).toBe(200)
    expect(await json(done)).toEqual({ location: '/user/pages' })
    const session = cookieNamed(done, 'lantern_session')!
    expect((await ctx.request('/user/account', { headers: { cookie: session } })).status).toBe(200)
    const row = await ctx.database.db.selectFrom('passkeys').selectAll().where('user_id', '=', who.account.id).executeTakeFirstOrThrow()
    expect(Number(row.sign_count)).toBe(1)
    expect(Number(row.last_used_at)).toBe(NOW + 60_000)
    // `next` must be a path of this site.
    const elsewhere = await signIn(await who.authenticator.get(await signInOptions()), 'https://evil.example/')
    expect(await json(elsewhere)).toEqual({ location: '/user' })
  })

  test('adding starts with the password: a session alone gets no options', async () => {
    const who = await person()
    const count = async () => Number((await ctx.database.db.selectFrom('passkey_challenges').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', who.account.id).executeTakeFirstOrThrow()).n)
    for (const body of [{}, { password: '' }, { password: 'not the password' }, { password: 42 }, { password: 'x'.repeat(2000) }]) {
      const refused = await post('/user/passkeys/options', body, who.session)
      expect(refused.status).toBe(400)
      expect(typeof (await json(refused)).error).toBe('string')
    }
    expect(await count()).toBe(0)
    // Not logged in: 401.
    expect((await post('/user/passkeys/options', { password: PASSWORD })).status).toBe(401)
    await registrationOptions(who)
    expect(await count()).toBe(1)
  })

  test('the same credential cannot be added twice, to this account or another', async () => {
    const who = await person()
    const options = await registrationOptions(who)
    const answer = await who.authenticator.create(options)
    expect((await post('/user/passkeys', { name: 'One', response: answer }, who.session)).status).toBe(200)
    // The answer's challenge is spent: sending it again is a 400, not a second row.
    expect((await post('/user/passkeys', { name: 'One again', response: answer }, who.session)).status).toBe(400)
    // The same credential attested again on a new challenge: 409, for this account and another.
    const credential = who.authenticator.credentials[0]!
    expect((await post('/user/passkeys', { name: 'Again', response: await who.authenticator.create(await registrationOptions(who), {}, credential) }, who.session)).status).toBe(409)
    const other = await person()
    expect((await post('/user/passkeys', { name: 'Mine', response: await other.authenticator.create(await registrationOptions(other), {}, credential) }, other.session)).status).toBe(409)
    // Two at once for a new credential: one is added, the other a 409 (whichever check catches it).
    const twin = await other.authenticator.create(await registrationOptions(other))
    const fresh = other.authenticator.credentials.at(-1)!
    const answers = await Promise.all([
      post('/user/passkeys', { name: 'A', response: twin }, other.session),
      post('/user/passkeys', { name: 'B', response: await other.authenticator.create(await registrationOptions(other), {}, fresh) }, other.session),
    ])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409])
    expect(await ctx.app.services.passkeys.list(who.account.id)).toHaveLength(1)
    expect(await ctx.app.services.passkeys.list(other.account.id)).toHaveLength(1)
    // The race the service's lookup cannot see ends at the unique index, named the same on both engines.
    const repo = new PasskeysRepo(ctx.database.db)
    const row = { userId: other.account.id, credentialId: isoBase64URL.fromBuffer(fresh.id), publicKey: 'x', signCount: 0, transports: '', name: 'Race', now: NOW }
    const lost = await repo.insert(row).then(() => undefined, (error: unknown) => error)
    expect(isUniqueViolationOn(lost, 'passkeys', 'credential_id')).toBe(true)
  })

  test('a passkey without user verification may be the second factor, not the password-free sign-in', async () => {
    const who = await person()
    await addPasskey(who)
    const refused = await signIn(await who.authenticator.get(await signInOptions(), { userVerified: false }))
    expect(refused.status).toBe(401)
    expect(cookieNamed(refused, 'lantern_session')).toBeUndefined()
  })
})

describe('challenges', () => {
  test('single-use: an answer is accepted once; a wrong answer spends the challenge too', async () => {
    const who = await person()
    await addPasskey(who)
    const options = await signInOptions()
    const answer = await who.authenticator.get(options)
    expect((await signIn(answer)).status).toBe(200)
    // Replayed, with the same browser's cookie: refused.
    expect((await signIn(answer)).status).toBe(401)

    const options2 = await signInOptions()
    const forged = await who.authenticator.get(options2)
    const bad = { ...forged, response: { ...forged.response, signature: isoBase64URL.fromBuffer(new Uint8Array(70)) } }
    expect((await signIn(bad)).status).toBe(401)
    // The right answer to the same challenge comes too late.
    expect((await signIn(await who.authenticator.get(options2))).status).toBe(401)
  })

  test('valid 5 minutes on the clock, not a moment longer', async () => {
    const who = await person()
    await addPasskey(who)
    const fresh = await signInOptions()
    const stale = await signInOptions()
    ctx.clock.advance(CEREMONY_TTL_MS - 1)
    expect((await signIn(await who.authenticator.get(fresh))).status).toBe(200)
    ctx.clock.advance(1)
    expect((await signIn(await who.authenticator.get(stale))).status).toBe(401)
    // Adding: the same.
    const options = await registrationOptions(who)
    ctx.clock.advance(CEREMONY_TTL_MS)
    expect((await post('/user/passkeys', { name: 'Late', response: await who.authenticator.create(options) }, who.session)).status).toBe(400)
    expect(await ctx.app.services.passkeys.list(who.account.id)).toHaveLength(1)
  })

  test("bound to their purpose and account: another ceremony's challenge is refused", async () => {
    const who = await person()
    const other = await person()
    await addPasskey(who)
    // A challenge made to add a passkey to `who` does not add one to `other`.
    const options = await registrationOptions(who)
    expect((await post('/user/passkeys', { name: 'Stolen', response: await other.authenticator.create(options) }, other.session)).status).toBe(400)
    expect(await ctx.app.services.passkeys.list(other.account.id)).toEqual([])
    // A registration challenge does not sign in.
    const registration = await registrationOptions(who)
    const asSignIn = await who.authenticator.get({ challenge: registration.challenge, rpId: 'lantern.test' })
    expect((await signIn(asSignIn, '/user', '')).status).toBe(401)
  })

  test('a sign-in challenge is bound to the browser that asked for it: answered from another, it signs no one in', async () => {
    const who = await person()
    await addPasskey(who)
    // The options come with the browser's cookie: HttpOnly, Strict, https only, on the sign-in paths, 5 minutes.
    const asked = await post('/user/passkeys/sign-in/options', {}, '')
    expect(asked.status).toBe(200)
    const options = await json<PublicKeyCredentialRequestOptionsJSON>(asked)
    const attributes = setCookieOf(asked, SIGN_IN_COOKIE)!.split('; ')
    expect(attributes.slice(1).toSorted()).toEqual(['HttpOnly', 'Max-Age=300', 'Path=/user/passkeys/sign-in', 'SameSite=Strict', 'Secure'])
    const mine = attributes[0]!
    expect(mine).toMatch(/^lantern_passkey_sign_in=[A-Za-z0-9_-]{43}$/)
    // Only the value's hash is kept with the challenge.
    const row = await ctx.database.db.selectFrom('passkey_challenges').selectAll().where('challenge', '=', options.challenge).executeTakeFirstOrThrow()
    expect(row.browser_hash).toBe(await sha256Hex(mine.slice(SIGN_IN_COOKIE.length + 1)))
    expect(row.purpose).toBe('sign-in')

    // Another browser that asked for its own options: its cookie does not answer this challenge.
    await signInOptions()
    const theirs = [...browserOf.values()].at(-1)!
    const answer = await who.authenticator.get(options)
    for (const cookie of [theirs, '', `${SIGN_IN_COOKIE}=${'A'.repeat(43)}`, `${SIGN_IN_COOKIE}=${row.browser_hash}`]) {
      const refused = await signIn(answer, '/user', cookie)
      expect(refused.status).toBe(401)
      expect(cookieNamed(refused, 'lantern_session')).toBeUndefined()
      // The answer's cookie is cleared, whoever sent it.
      expect(setCookieOf(refused, SIGN_IN_COOKIE)).toStartWith(`${SIGN_IN_COOKIE}=; Path=/user/passkeys/sign-in;`)
    }
    // The refused answer spent the challenge: the browser that asked is too late with it now.
    expect((await signIn(answer, '/user', mine)).status).toBe(401)

    // Its own browser, on a fresh challenge: signed in, and the cookie cleared.
    const fresh = await signInOptions()
    const done = await signIn(await who.authenticator.get(fresh))
    expect(done.status).toBe(200)
    expect(cookieNamed(done, 'lantern_session')).toBeDefined()
    expect(setCookieOf(done, SIGN_IN_COOKIE)).toContain('Max-Age=0')
    expect(await ctx.database.db.selectFrom('passkey_challenges').select('id').where('challenge', '=', fresh.challenge).execute()).toEqual([])
  })

  test('a challenge asked for on one app server is answered on another by the same browser', async () => {
    const who = await person()
    await addPasskey(who)
    const other = createApp({ db: ctx.database.db, config: ctx.config, clock: ctx.clock, passwords: fastTestHasher, logError: () => {} })
    try {
      const options = await signInOptions()
      const answer = await who.authenticator.get(options)
      const onOther = (cookie: string) =>
        other.handle(new Request(`${ORIGIN}/user/passkeys/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': client, cookie }, body: JSON.stringify({ response: answer }) }))
      expect((await onOther(browserOf.get(options.challenge)!)).status).toBe(200)
      expect((await onOther(browserOf.get(options.challenge)!)).status).toBe(401)
    } finally {
      await other.services.outboxWorker.stop(0)
    }
  })

  test(`asking for sign-in options is throttled per address: ${SIGN_IN_OPTIONS_PER_CLIENT} in 10 minutes, then a 429 with the wait`, async () => {
    const count = async () => Number((await ctx.database.db.selectFrom('passkey_challenges').select((eb) => eb.fn.countAll<number>().as('n')).where('purpose', '=', 'sign-in').executeTakeFirstOrThrow()).n)
    const ask = (from: string) => post('/user/passkeys/sign-in/options', {}, '', { origin: ORIGIN, 'x-forwarded-for': from })
    for (let i = 0; i < SIGN_IN_OPTIONS_PER_CLIENT; i++) expect((await ask('203.0.113.30')).status).toBe(200)
    const before = await count()
    const held = await ask('203.0.113.30')
    expect(held.status).toBe(429)
    expect(await json(held)).toEqual({ error: 'too many passkey sign-ins from this address: try again in 10 minutes' })
    const wait = Number(held.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(SIGN_IN_OPTIONS_WINDOW_MS / 1000)
    // Refused: no challenge made, no cookie set.
    expect(await count()).toBe(before)
    expect(setCookieOf(held, SIGN_IN_COOKIE)).toBeUndefined()
    // An IPv6 client is its /64: another address in it shares the budget, another /64 does not.
    for (let i = 0; i < SIGN_IN_OPTIONS_PER_CLIENT; i++) expect((await ask(`2001:db8:30:1::${i.toString(16)}`)).status).toBe(200)
    expect((await ask('2001:db8:30:1::ffff')).status).toBe(429)
    expect((await ask('2001:db8:30:2::1')).status).toBe(200)
    // Other clients are not held back; the window's end gives the client its budget again.
    expect((await ask('203.0.113.31')).status).toBe(200)
    ctx.clock.advance(wait * 1000)
    expect((await ask('203.0.113.30')).status).toBe(200)
  })
})

describe('the relying party is BASE_URL', () => {
  test('the options name it whatever Host and X-Forwarded-Host say; another origin or rp id is refused', async () => {
    const who = await person()
    await addPasskey(who)
    const forged = { origin: ORIGIN, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', forwarded: 'host=evil.example;proto=http' }
    expect((await signInOptions(forged)).rpId).toBe('lantern.test')
    expect((await json(await post('/user/passkeys/options', { password: PASSWORD }, who.session, forged))).rp.id).toBe('lantern.test')
    const phished = await signIn(await who.authenticator.get(await signInOptions(), { origin: 'https://evil.example' }))
    expect(phished.status).toBe(401)
    const otherRp = await signIn(await who.authenticator.get(await signInOptions(), { rpId: 'evil.example' }))
    expect(otherRp.status).toBe(401)
    const plainHttp = await signIn(await who.authenticator.get(await signInOptions(), { origin: 'http://lantern.test' }))
    expect(plainHttp.status).toBe(401)
    // Adding from another origin: refused too.
    const registration = await who.authenticator.create(await registrationOptions(who), { origin: 'https://evil.example' })
    expect((await post('/user/passkeys', { name: 'Phished', response: registration }, who.session)).status).toBe(400)
    const wrongType = await who.authenticator.get(await signInOptions(), { type: 'webauthn.create' })
    expect((await signIn(wrongType)).status).toBe(401)
  })
})

describe('Origin', () => {
  test('every passkey post from another site is a 403 and writes nothing', async () => {
    const who = await person()
    const passkey = await addPasskey(who)
    const evil = { origin: 'https://evil.example' }
    const before = await ctx.database.db.selectFrom('passkey_challenges').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect((await post('/user/passkeys/options', { password: PASSWORD }, who.session, evil)).status).toBe(403)
    expect((await post('/user/passkeys/sign-in/options', {}, '', evil)).status).toBe(403)
    const after = await ctx.database.db.selectFrom('passkey_challenges').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))

    const answer = await who.authenticator.create(await registrationOptions(who))
    expect((await post('/user/passkeys', { name: 'x', response: answer }, who.session, evil)).status).toBe(403)
    const proof = await who.authenticator.get(await signInOptions())
    const crossSite = await post('/user/passkeys/sign-in', { response: proof }, '', evil)
    expect(crossSite.status).toBe(403)
    expect(cookieNamed(crossSite, 'lantern_session')).toBeUndefined()
    expect((await post('/user/login/two-factor/passkey/options', {}, '', evil)).status).toBe(403)
    expect((await post('/user/login/two-factor/passkey', { response: proof }, '', evil)).status).toBe(403)
    expect((await form(`/user/passkeys/${passkey.id}/rename`, { name: 'x' }, who.session, 'https://evil.example')).status).toBe(403)
    expect((await form(`/user/passkeys/${passkey.id}/remove`, {}, who.session, 'https://evil.example')).status).toBe(403)
    // The signed-in JSON call wants the browser to say it is this site: saying nothing is not enough.
    expect((await post('/user/passkeys/options', { password: PASSWORD }, who.session, {})).status).toBe(403)
    expect(await ctx.app.services.passkeys.list(who.account.id)).toEqual([expect.objectContaining({ name: 'Work laptop' })])
  })
})

describe("another account's passkey", () => {
  test('rename, the confirmation and remove are 404 and change nothing', async () => {
    const who = await person()
    const other = await person()
    const theirs = await addPasskey(other, 'Theirs')
    expect((await form(`/user/passkeys/${theirs.id}/rename`, { name: 'Mine now' }, who.session)).status).toBe(404)
    expect((await ctx.request(`/user/passkeys/${theirs.id}/remove`, { headers: { cookie: who.session } })).status).toBe(404)
    expect((await form(`/user/passkeys/${theirs.id}/remove`, {}, who.session)).status).toBe(404)
    for (const id of ['0', '-1', '1e3', '99999999999999999999', 'abc']) {
      expect((await form(`/user/passkeys/${id}/rename`, { name: 'x' }, who.session)).status).toBe(404)
    }
    expect(await ctx.app.services.passkeys.list(other.account.id)).toEqual([expect.objectContaining({ name: 'Theirs' })])
    // Their owner can.
    const renamed = await form(`/user/passkeys/${theirs.id}/rename`, { name: 'Phone' }, other.session)
    expect(renamed.status).toBe(303)
    expect((await form(`/user/passkeys/${theirs.id}/rename`, { name: '' }, other.session)).status).toBe(303)
    expect(await ctx.app.services.passkeys.list(other.account.id)).toEqual([expect.objectContaining({ name: 'Phone' })])
    expect((await form(`/user/passkeys/${theirs.id}/remove`, {}, other.session)).status).toBe(303)
    expect(await ctx.app.services.passkeys.list(other.account.id)).toEqual([])
  })

  test("the second step refuses another account's passkey", async () => {
    const who = await person()
    const other = await person()
    await addPasskey(who)
    await addPasskey(other)
    const challenge = cookieNamed(await form('/user/login', { email: who.user.email, password: PASSWORD }), 'lantern_2fa')!
    const options = await json<PublicKeyCredentialRequestOptionsJSON>(await post('/user/login/two-factor/passkey/options', {}, challenge))
    // `other` signs `who`'s challenge with their own passkey.
    const answer = await other.authenticator.get(options, {}, other.authenticator.credentials[0])
    const refused = await post('/user/login/two-factor/passkey', { response: answer }, challenge)
    expect(refused.status).toBe(401)
    expect(cookieNamed(refused, 'lantern_session')).toBeUndefined()
  })
})

describe('the second step after the password', () => {
  test('a passkey ends the sign-in; the challenge cookie is then spent', async () => {
    const who = await person()
    await addPasskey(who)
    const login = await form('/user/login', { email: who.user.email, password: PASSWORD, next: '/user/pages' })
    expect(login.status).toBe(303)
    expect(cookieNamed(login, 'lantern_session')).toBeUndefined()
    const challenge = cookieNamed(login, 'lantern_2fa')!
    const step = await (await ctx.request('/user/login/two-factor?next=%2Fuser%2Fpages', { headers: { cookie: challenge } })).text()
    expect(step).toContain('Use a passkey')
    expect(step).not.toContain('name="code"')
    const options = await json<PublicKeyCredentialRequestOptionsJSON>(await post('/user/login/two-factor/passkey/options', {}, challenge))
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([isoBase64URL.fromBuffer(who.authenticator.credentials[0]!.id)])
    // Without user verification: fine here (the password was the first factor).
    const answer = await who.authenticator.get(options, { userVerified: false })
    const done = await post('/user/login/two-factor/passkey', { response: answer, next: '/user/pages' }, challenge)
    expect(done.status).toBe(200)
    expect(await json(done)).toEqual({ location: '/user/pages' })
    expect(cookieNamed(done, 'lantern_session')).toBeDefined()
    expect(done.headers.getSetCookie().some((c) => c.startsWith('lantern_2fa=;') || /^lantern_2fa=(;|$)/.test(c))).toBe(true)
    // The challenge is gone: no second session from it.
    expect((await post('/user/login/two-factor/passkey/options', {}, challenge)).status).toBe(410)
    expect((await post('/user/login/two-factor/passkey', { response: await who.authenticator.get(options) }, challenge)).status).toBe(410)
    expect((await post('/user/login/two-factor/passkey/options', {}, '')).status).toBe(410)
  })

  test('with the authenticator app too, both ways are offered and a code still works', async () => {
    const who = await person()
    await addPasskey(who)
    const user = { id: who.account.id, email: who.account.email }
    const { secret } = await ctx.app.services.twoFactor.beginEnrolment(user)
    await ctx.app.services.twoFactor.confirmEnrolment(user, await totpCode(secret, ctx.clock.now()), 'test')
    const challenge = cookieNamed(await form('/user/login', { email: who.user.email, password: PASSWORD }), 'lantern_2fa')!
    const step = await (await ctx.request('/user/login/two-factor', { headers: { cookie: challenge } })).text()
    expect(step).toContain('Use a passkey')
    expect(step).toContain('name="code"')
    ctx.clock.advance(30_000)
    const done = await form('/user/login/two-factor', { code: await totpCode(secret, ctx.clock.now()) }, challenge)
    expect(done.status).toBe(303)
    expect(cookieNamed(done, 'lantern_session')).toBeDefined()
  })
})

describe('the signature counter', () => {
  test('a counter that does not go up (a cloned authenticator, a replay) is refused; one that stays 0 is fine', async () => {
    const who = await person()
    await addPasskey(who)
    expect((await signIn(await who.authenticator.get(await signInOptions()))).status).toBe(200)
    expect((await signIn(await who.authenticator.get(await signInOptions()))).status).toBe(200)
    // Counter 2 seen; a clone still at 1, or at 2, is refused.
    expect((await signIn(await who.authenticator.get(await signInOptions(), { counter: 1 }))).status).toBe(401)
    expect((await signIn(await who.authenticator.get(await signInOptions(), { counter: 2 }))).status).toBe(401)
    expect((await signIn(await who.authenticator.get(await signInOptions(), { counter: 7 }))).status).toBe(200)
    const row = await ctx.database.db.selectFrom('passkeys').select('sign_count').where('user_id', '=', who.account.id).executeTakeFirstOrThrow()
    expect(Number(row.sign_count)).toBe(7)

    // A synced passkey that never counts (always 0) signs in every time.
    const synced = await person()
    synced.authenticator = new SoftAuthenticator(ORIGIN, false)
    await addPasskey(synced)
    for (let i = 0; i < 3; i++) expect((await signIn(await synced.authenticator.get(await signInOptions()))).status).toBe(200)
  })
})

describe('hostile input', () => {
  test('malformed JSON, wrong types, bad base64 and huge fields are a 4xx with an error, never a 5xx', async () => {
    const who = await person()
    await addPasskey(who)
    const good = await who.authenticator.get(await signInOptions())
    const registration = await who.authenticator.create(await registrationOptions(who))
    const challenge = cookieNamed(await form('/user/login', { email: who.user.email, password: PASSWORD }), 'lantern_2fa')!
    const huge = 'A'.repeat(100_000)
    const bodies: unknown[] = [
      '{"response":',
      'null',
      '[]',
      '"text"',
      {},
      { response: null },
      { response: [] },
      { response: { ...good, id: 42 } },
      { response: { ...good, type: 'password' } },
      { response: { ...good, response: 'x' } },
      { response: { ...good, response: { ...good.response, clientDataJSON: 7 } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: 'not base64!' } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: isoBase64URL.fromUTF8String('null') } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: isoBase64URL.fromUTF8String('{"challenge":{"a":1}}') } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: 'AAAA' } } },
      { response: { ...good, response: { ...good.response, clientDataJSON: huge } } },
      { response: { ...good, response: { ...good.response, signature: huge } } },
      { response: { ...good, response: { ...good.response, authenticatorData: 'AA' } } },
      { response: { ...good, response: { ...good.response, signature: '' } } },
      { response: { ...good, id: huge, rawId: huge } },
      { response: { ...good, id: 'unknown-credential', rawId: 'unknown-credential' } },
      { response: { ...good, rawId: 'different' } },
      { response: { ...good, clientExtensionResults: 'x' } },
      { response: good, next: 42 },
      { response: { ...good, response: { ...good.response, userHandle: isoBase64URL.fromUTF8String('lantern-user-0') } } },
    ]
    const routes = [
      { path: '/user/passkeys/sign-in', cookie: '' },
      { path: '/user/login/two-factor/passkey', cookie: challenge },
    ]
    for (const { path, cookie } of routes) {
      for (const [i, body] of bodies.entries()) {
        // A client each: the refusals are counted as guesses, and the budget is not what this tests.
        client = `192.0.2.${i + (path === routes[0]!.path ? 0 : 100)}`
        const response = await post(path, body, cookie)
        const shown = { path, body: JSON.stringify(body).slice(0, 120), status: response.status }
        expect({ ...shown, refused: [400, 401, 413].includes(response.status) }).toEqual({ ...shown, refused: true })
        expect(typeof (await json(response)).error).toBe('string')
        expect(cookieNamed(response, 'lantern_session')).toBeUndefined()
      }
    }
    const addBodies: unknown[] = [
      '{"name":',
      { name: 'x' },
      { name: 42, response: registration },
      { name: 'x'.repeat(1000), response: registration },
      { name: '', response: registration },
      { name: 'x', response: { ...registration, response: { ...registration.response, attestationObject: huge } } },
      { name: 'x', response: { ...registration, response: { ...registration.response, attestationObject: 'AAAA' } } },
      { name: 'x', response: { ...registration, response: { ...registration.response, transports: 'usb' } } },
      { name: 'x', response: { ...registration, response: { ...registration.response, clientDataJSON: isoBase64URL.fromUTF8String('[]') } } },
      { name: 'x', response: { ...registration, rawId: 'other' } },
    ]
    for (const body of addBodies) {
      const response = await post('/user/passkeys', body, who.session)
      const shown = { body: JSON.stringify(body).slice(0, 120), status: response.status }
      expect({ ...shown, refused: [400, 413].includes(response.status) }).toEqual({ ...shown, refused: true })
      expect(typeof (await json(response)).error).toBe('string')
    }
    // A body near the front door's 2 MiB limit (test/http/body-limit.test.ts has the 413 past it): still a refusal.
    const padded = await post('/user/passkeys/sign-in', JSON.stringify({ response: good, padding: 'x'.repeat(2_000_000) }))
    expect([400, 401]).toContain(padded.status)
    expect(await ctx.app.services.passkeys.list(who.account.id)).toHaveLength(1)
  })

  test('the answer must carry the credential it claims: another id in the attestation is refused', async () => {
    const who = await person()
    const answer = await who.authenticator.create(await registrationOptions(who))
    const claimed = isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(32)))
    const response = await post('/user/passkeys', { name: 'x', response: { ...answer, id: claimed, rawId: claimed } }, who.session)
    expect(response.status).toBe(400)
    expect(await ctx.app.services.passkeys.list(who.account.id)).toEqual([])
  })
})

describe('guesses', () => {
  test('failed passkeys are counted with the wrong codes: the 11th from one client is a 429', async () => {
    const who = await person()
    await addPasskey(who)
    const headers = { origin: ORIGIN, 'x-forwarded-for': '203.0.113.77' }
    for (let i = 0; i < 10; i++) {
      const answer = await who.authenticator.get(await signInOptions(), { userVerified: false })
      expect((await post('/user/passkeys/sign-in', { response: answer }, browserOf.get(challengeIn(answer)), headers)).status).toBe(401)
    }
    const answer = await who.authenticator.get(await signInOptions())
    const limited = await post('/user/passkeys/sign-in', { response: answer }, browserOf.get(challengeIn(answer)), headers)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('a team that requires two-factor', () => {
  test('a passkey is a second factor; dropping the last factor is allowed, and the member is then sent to enrol', async () => {
    const who = await person()
    const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key: who.key, ...init })
    // Without a second factor the owner may not require one; with a passkey they may.
    expect((await api('/team', { method: 'PATCH', json: { require_two_factor: true } })).status).toBe(409)
    const passkey = await addPasskey(who)
    expect((await api('/team', { method: 'PATCH', json: { require_two_factor: true } })).status).toBe(200)
    expect((await json(await api('/team/members'))).data).toEqual([expect.objectContaining({ email: who.user.email, two_factor: true })])
    expect((await ctx.request('/user/pages', { headers: { cookie: who.session } })).status).toBe(200)

    // The authenticator app on, then off again (the passkey is left): fine.
    const user = { id: who.account.id, email: who.account.email }
    const { secret } = await ctx.app.services.twoFactor.beginEnrolment(user)
    await ctx.app.services.twoFactor.confirmEnrolment(user, await totpCode(secret, ctx.clock.now()), 'test')
    expect((await form('/user/two-factor/disable', { password: PASSWORD }, who.session)).status).toBe(303)

    // The last passkey goes too: not refused (a new phone means removing the old factor first), and
    // the team's screens then send the member to enrol, as for any member without two-factor.
    expect((await form(`/user/passkeys/${passkey.id}/remove`, {}, who.session)).status).toBe(303)
    expect(await ctx.app.services.passkeys.list(who.account.id)).toEqual([])
    const held = await ctx.request('/user/pages', { headers: { cookie: who.session } })
    expect(held.status).toBe(303)
    expect(held.headers.get('location')).toBe('/user/two-factor')
    expect((await ctx.request('/user/passkeys', { headers: { cookie: who.session } })).status).toBe(200)
    expect((await json(await api('/team/members'))).data).toEqual([expect.objectContaining({ two_factor: false })])
  })
})
