/**
 * The passkeys migration on a database made by the migrations before it (SQLite, or PostgreSQL
 * with LANTERN_TEST_POSTGRES): an account from before, with the authenticator app on, has no
 * passkeys and still needs its code after the password; a passkey can then be kept for it, its
 * credential id is unique, and the account's passkeys and challenges go when the account goes.
 * The migration's `down` removes both tables again.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { isUniqueViolationOn } from '../../src/db/errors.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { PasskeysRepo } from '../../src/modules/passkeys/repo.ts'
import { databaseBefore, migrationBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

const NAME = '2026_12_08_0300_passkeys'
const before = () => migrationBefore(NAME)

test('accounts from before have no passkeys; one can be added, is unique, and goes with its account; down drops the tables', async () => {
  const database = await databaseBefore(before())
  const { db, migrator, target } = database
  try {
    const password = await fastTestHasher.hash('correct horse battery')
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: password, plan: 'pro', is_admin: 0, created_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ id: user.id, name: 'old@example.com', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    await db.insertInto('team_members').values({ team_id: user.id, user_id: user.id, role: 'owner', created_at: 0 } as never).execute()
    await db.insertInto('totp_factors').values({ user_id: user.id, secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', confirmed_at: 0, last_step: 0, created_at: 0 } as never).execute()

    expect(await migrateToLatest(db)).toContain(NAME)
    expect(await db.selectFrom('passkeys').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('passkey_challenges').selectAll().execute()).toEqual([])

    const clock = new ManualClock(Date.UTC(2026, 11, 8, 12))
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock, passwords: fastTestHasher, logError: () => {} })
    // Still two-factor by the app alone: the password starts the code step, no session.
    expect(await app.services.passkeys.has(user.id)).toBe(false)
    expect(await app.services.accounts.hasSecondFactor(user.id)).toBe(true)
    const login = await app.handle(
      new Request('https://lantern.test/user/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://lantern.test' }, body: 'email=old%40example.com&password=correct+horse+battery' }),
    )
    expect(login.status).toBe(303)
    expect(login.headers.get('location')).toStartWith('/user/login/two-factor')
    const step = await app.handle(new Request('https://lantern.test/user/login/two-factor', { headers: { cookie: login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') } }))
    const page = await step.text()
    expect(page).toContain('name="code"')
    expect(page).not.toContain('Use a passkey')

    // The new tables take a passkey and a challenge for the old account.
    const repo = new PasskeysRepo(db)
    const row = { userId: user.id, credentialId: 'Y3JlZGVudGlhbA', publicKey: 'cHVibGlj', signCount: 0, transports: 'internal,hybrid', name: 'Laptop', now: clock.now() }
    await repo.insert(row)
    await repo.insertChallenge('Y2hhbGxlbmdlLW9uZQ', 'second-factor', user.id, clock.now(), clock.now() + 300_000)
    expect(await app.services.passkeys.list(user.id)).toEqual([{ id: expect.any(Number), name: 'Laptop', createdAt: clock.now(), lastUsedAt: null, transports: ['internal', 'hybrid'] }])
    const twice = await repo.insert({ ...row, name: 'Again' }).then(() => undefined, (error: unknown) => error)
    expect(isUniqueViolationOn(twice, 'passkeys', 'credential_id')).toBe(true)
    // An account's passkeys and challenges go with it (foreign keys, both engines).
    await db.deleteFrom('team_members').where('user_id', '=', user.id).execute()
    await db.deleteFrom('teams').where('id', '=', user.id).execute()
    await db.deleteFrom('totp_factors').where('user_id', '=', user.id).execute()
    await db.deleteFrom('users').where('id', '=', user.id).execute()
    expect(await db.selectFrom('passkeys').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('passkey_challenges').selectAll().execute()).toEqual([])
    await app.services.outboxWorker.stop(0)

    // down: back to the schema before it.
    expect((await migrator.migrateTo(before())).error).toBeUndefined()
    const tables = (await target.introspection.getTables()).map((t) => t.name)
    expect(tables).not.toContain('passkeys')
    expect(tables).not.toContain('passkey_challenges')
  } finally {
    await database.dispose()
  }
})
