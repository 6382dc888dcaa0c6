import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { migrations } from '../../db/migrations/index.ts'
import { createServices } from '../../src/services.ts'
import { loadConfig } from '../../src/config.ts'
import { ManualClock } from '../helpers/clock.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { totpCode } from '../../src/lib/totp.ts'

// An account with a live session made by the code before: after the migration it asks for a link
// and sets a new password with it, which ends the old session.
test('a database made before the password-reset and two-factor migrations: migrated, a reset ends the old session, two-factor turns on', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const now = Date.UTC(2026, 11, 1, 9)
    const passwordHash = await fastTestHasher.hash('old password here')
    const user = await db.insertInto('users').values({ email: 'owner@example.com', password_hash: passwordHash, plan: 'pro', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('sessions').values({ user_id: user.id, token_hash: 'a'.repeat(64), created_at: now, expires_at: now + 86_400_000, last_seen_at: null, client: null }).execute()

    expect(await migrateToLatest(db)).toEqual(expect.arrayContaining(['2026_12_01_0700_password_resets', '2026_12_01_0700_two_factor']))
    const clock = new ManualClock(now)
    const config = loadConfig({
      BASE_URL: 'https://lantern.test',
      STATUS_DOMAIN: 'status.test',
      ...database.env,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '9',
      SMTP_SECURITY: 'none',
      MAIL_FROM: 'Lantern <status@lantern.test>',
    })
    const services = createServices({ db, config, clock, passwords: fastTestHasher })
    await services.passwordResets.request('Owner@Example.com', '192.0.2.1')
    const queued = await db.selectFrom('outbox').select('payload_json').execute()
    const token = queued.map((row) => /\/user\/password-reset\/([A-Za-z0-9_-]{43})/.exec(row.payload_json)?.[1]).find(Boolean)!
    expect(token).toBeDefined()
    expect(await services.passwordResets.check(token)).toEqual({ email: 'owner@example.com' })
    await services.passwordResets.complete(token, 'a new password here')
    expect(await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0)
    expect((await services.accounts.login('owner@example.com', 'a new password here', '192.0.2.1')).user.id).toBe(user.id)
    await expect(services.passwordResets.complete(token, 'a third password')).rejects.toMatchObject({ status: 410 })
    // Two-factor on the migrated account: enrol, confirm with a code, and it is on.
    const user2 = await services.accounts.findUserByEmail('owner@example.com')
    const enrolment = await services.twoFactor.beginEnrolment(user2)
    const codes = await services.twoFactor.confirmEnrolment(user2, await totpCode(enrolment.secret, clock.now()), '192.0.2.1')
    expect(codes).toHaveLength(10)
    expect(await services.twoFactor.status(user.id)).toEqual({ enabled: true, recoveryCodesLeft: 10 })
    // Links lapsed more than a day ago are swept.
    clock.advance(25 * 3_600_000)
    await services.passwordResets.sweep()
    expect(await db.selectFrom('password_resets').select('id').execute()).toHaveLength(0)
    await services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
