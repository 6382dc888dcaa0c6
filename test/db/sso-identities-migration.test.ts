/**
 * The single sign-on migration on a database made by the code before it (SQLite, or PostgreSQL
 * with LANTERN_TEST_POSTGRES): an account from before can be linked to a provider's account (one
 * link per issuer and subject), its link goes with the account; a sign-in on its way is taken out
 * once; a shared team from before claims its domain.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { SsoRepo } from '../../src/modules/sso/repo.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

test('accounts and teams from before: linked to a provider once, the link goes with the account; sign-ins taken once; a domain claimed', async () => {
  const database = await databaseBefore('2026_12_07_0300_maintenance_updates')
  const { db } = database
  try {
    const hash = await fastTestHasher.hash('an old password')
    const user = await db.insertInto('users').values({ email: 'old@acme.test', password_hash: hash, plan: 'pro', is_admin: 0, created_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('teams').values({ name: 'old@acme.test', plan: 'pro', personal_of: user.id, require_two_factor: 0, created_at: 0 } as never).execute()
    const shared = await db.insertInto('teams').values({ name: 'Acme', plan: 'pro', personal_of: null, require_two_factor: 0, created_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const personal = await db.selectFrom('teams').select('id').where('personal_of', '=', user.id).executeTakeFirstOrThrow()
    await db.insertInto('team_members').values([{ team_id: personal.id, user_id: user.id, role: 'owner', created_at: 0 }, { team_id: shared.id, user_id: user.id, role: 'owner', created_at: 0 }] as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_08_0200_sso_identities')
    const now = Date.UTC(2026, 11, 8, 10)
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock: new ManualClock(now), passwords: fastTestHasher, logError: () => {} })
    const repo = new SsoRepo(db)
    await repo.insertIdentity({ issuer: 'https://id.acme.test', subject: '248289761001', userId: user.id, email: 'old@acme.test', now })
    await expect(repo.insertIdentity({ issuer: 'https://id.acme.test', subject: '248289761001', userId: user.id, email: 'old@acme.test', now })).rejects.toThrow()
    expect((await repo.findIdentity('https://id.acme.test', '248289761001'))?.user_id).toBe(user.id)
    // The password from before still works: linking adds a way in, it takes none away.
    expect((await app.services.accounts.login('old@acme.test', 'an old password', '192.0.2.1')).user.id).toBe(user.id)

    await repo.insertLogin({ tokenHash: 'h'.repeat(64), state: 's', nonce: 'n', codeVerifier: 'v', next: '/user', now, expiresAt: now + 600_000 })
    expect((await repo.takeLogin('h'.repeat(64)))?.state).toBe('s')
    expect(await repo.takeLogin('h'.repeat(64))).toBeUndefined()

    const owner = { ...(await app.services.accounts.personalTeamOwner({ id: user.id })), id: shared.id, role: 'owner' as const }
    expect(await app.services.teams.setSsoDomain(owner, { domain: 'acme.test', role: 'viewer' })).toEqual({ domain: 'acme.test', role: 'viewer' })

    await db.deleteFrom('team_members').where('user_id', '=', user.id).execute()
    await db.deleteFrom('sessions').where('user_id', '=', user.id).execute()
    await db.deleteFrom('teams').where('personal_of', '=', user.id).execute()
    await db.deleteFrom('users').where('id', '=', user.id).execute()
    expect(await db.selectFrom('sso_identities').select('id').execute()).toEqual([])
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
