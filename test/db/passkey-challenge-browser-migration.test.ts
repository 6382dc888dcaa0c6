/**
 * The passkey-challenge browser migration on a database made by the migrations before it (SQLite,
 * or PostgreSQL with LANTERN_TEST_POSTGRES): challenges from before keep their rows with no browser
 * hash; a register challenge from before still adds a passkey (it is bound to its account), a
 * password-free sign-in challenge from before is refused whatever cookie comes with it (it was
 * bound to no browser), and a new one, asked for by a browser, signs that browser in. `down` drops
 * the column again and keeps the rows.
 */
import { expect, test } from 'bun:test'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore, migrationBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'
import { SoftAuthenticator } from '../helpers/webauthn.ts'

const NAME = '2026_12_10_0100_passkey_challenge_browser'
const ORIGIN = 'https://lantern.test'
const PASSWORD = 'correct horse battery'
const before = () => migrationBefore(NAME)

test('challenges from before: register still works, sign-in is refused; new sign-ins are bound to their browser; down drops the column', async () => {
  const database = await databaseBefore(before())
  const { db, migrator, target } = database
  try {
    const clock = new ManualClock(Date.UTC(2026, 11, 10, 12))
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: await fastTestHasher.hash(PASSWORD), plan: 'pro', is_admin: 0, created_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ id: user.id, name: 'old@example.com', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    await db.insertInto('team_members').values({ team_id: user.id, user_id: user.id, role: 'owner', created_at: 0 } as never).execute()
    // Two ceremonies in flight while the server is upgraded.
    const expires = clock.now() + 300_000
    await db.insertInto('passkey_challenges').values([
      { challenge: 'b2xkLXJlZ2lzdGVyLWNoYWxsZW5nZQ', purpose: 'register', user_id: user.id, expires_at: expires },
      { challenge: 'b2xkLXNpZ24taW4tY2hhbGxlbmdl', purpose: 'sign-in', user_id: null, expires_at: expires },
    ] as never).execute()

    expect(await migrateToLatest(db)).toContain(NAME)
    const rows = await db.selectFrom('passkey_challenges').select(['purpose', 'browser_hash']).orderBy('id').execute()
    expect(rows).toEqual([{ purpose: 'register', browser_hash: null }, { purpose: 'sign-in', browser_hash: null }])

    const config = loadConfig({ BASE_URL: ORIGIN, STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock, passwords: fastTestHasher, logError: () => {} })
    const post = (path: string, body: string, cookie = '', type = 'application/json') =>
      app.handle(new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': type, origin: ORIGIN, cookie }, body }))
    const cookieOf = (response: Response, name: string) => response.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1)
    const session = cookieOf(await post('/user/login', 'email=old%40example.com&password=correct+horse+battery', '', 'application/x-www-form-urlencoded'), 'lantern_session')!
    expect(session).toBeDefined()

    // The register challenge from before still adds a passkey to its account.
    const authenticator = new SoftAuthenticator(ORIGIN)
    const registration = await authenticator.create({
      challenge: 'b2xkLXJlZ2lzdGVyLWNoYWxsZW5nZQ',
      rp: { id: 'lantern.test', name: 'Lantern (lantern.test)' },
      user: { id: isoBase64URL.fromUTF8String(`lantern-user-${user.id}`), name: 'old@example.com', displayName: 'old@example.com' },
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
    })
    expect((await post('/user/passkeys', JSON.stringify({ name: 'Laptop', response: registration }), session)).status).toBe(200)
    expect(await app.services.passkeys.list(user.id)).toEqual([expect.objectContaining({ name: 'Laptop' })])

    // The sign-in challenge from before was asked for by no known browser: refused, even with a cookie of today.
    const asked = await post('/user/passkeys/sign-in/options', '{}')
    const browser = cookieOf(asked, 'lantern_passkey_sign_in')!
    expect(browser).toBeDefined()
    const old = await authenticator.get({ challenge: 'b2xkLXNpZ24taW4tY2hhbGxlbmdl', rpId: 'lantern.test' })
    expect((await post('/user/passkeys/sign-in', JSON.stringify({ response: old }), browser)).status).toBe(401)
    // The new challenge, answered by the browser that asked: signed in.
    const done = await post('/user/passkeys/sign-in', JSON.stringify({ response: await authenticator.get(await asked.json()) }), browser)
    expect(done.status).toBe(200)
    expect(cookieOf(done, 'lantern_session')).toBeDefined()
    await app.services.outboxWorker.stop(0)

    // down: the column goes, the rows stay.
    await db.insertInto('passkey_challenges').values({ challenge: 'bGF0ZXItY2hhbGxlbmdl', purpose: 'sign-in', user_id: null, browser_hash: 'ab'.repeat(32), expires_at: expires }).execute()
    expect((await migrator.migrateTo(before())).error).toBeUndefined()
    const table = (await target.introspection.getTables()).find((t) => t.name === 'passkey_challenges')!
    expect(table.columns.map((c) => c.name)).not.toContain('browser_hash')
    expect((await target.selectFrom('passkey_challenges').select('challenge').execute()).map((r: { challenge: string }) => r.challenge)).toEqual(['bGF0ZXItY2hhbGxlbmdl'])
  } finally {
    await database.dispose()
  }
})
