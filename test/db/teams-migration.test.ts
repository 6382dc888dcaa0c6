/**
 * The teams migration on a database made by the code before it (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): every account gets a personal team with its id and plan, everything an
 * account owned (pages, templates, monitors, channels, import mappings) is owned by that team, an
 * existing API key keeps working in it as its owner, a page's plan is read from the team, and rows
 * of later tables that name a rebuilt one (monitor dependencies) stay.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { sha256Hex } from '../../src/lib/crypto.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { ManualClock } from '../helpers/clock.ts'
import { fastTestHasher } from '../helpers/password.ts'

const OWNED = ['status_pages', 'incident_templates', 'monitors', 'notification_channels', 'import_mappings'] as const
const PUBLIC_ID = 'AAAAAAAAAAAA'
const SECRET = 'B'.repeat(43)

test('every account gets a personal team owning what it owned; old keys and reads keep working', async () => {
  const database = await databaseBefore('2026_12_06_0510_outbox_threads')
  const { db } = database
  try {

    const user = (email: string, plan: string) =>
      db.insertInto('users').values({ email, password_hash: 'x', plan, is_admin: 0, created_at: 5 } as never).returning('id').executeTakeFirstOrThrow()
    const alice = await user('alice@example.com', 'pro')
    // A deleted account leaves a gap in the ids: the teams keep their accounts' ids anyway.
    const gone = await user('gone@example.com', 'free')
    await db.deleteFrom('users').where('id', '=', gone.id).execute()
    const bob = await user('bob@example.com', 'business')
    const own = async (ownerId: number, slug: string) => {
      const page = await db.insertInto('status_pages').values({ owner_id: ownerId, slug, name: slug, visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
      await db.insertInto('incident_templates').values({ owner_id: ownerId, name: `t-${slug}`, title: 'Down', message: 'We look.', created_at: 0, updated_at: 0 } as never).execute()
      await db
        .insertInto('monitors')
        .values({ owner_id: ownerId, page_id: page.id, name: `m-${slug}`, type: 'http', target: 'https://example.com', options_json: '{}', interval_s: 60, timeout_ms: 5000, retries: 0, retry_interval_ms: 0, confirm_failures: 1, confirm_successes: 1, enabled: 0, state: 'pending', state_since: 0, flapping: 0, history: '', watching_since: 0, next_run_at: 0, created_at: 0, updated_at: 0 } as never)
        .execute()
      await db.insertInto('notification_channels').values({ owner_id: ownerId, type: 'email', name: `c-${slug}`, config_json: '{"to":"ops@example.com"}', events_json: '[]', created_at: 0, updated_at: 0 } as never).execute()
      await db.insertInto('import_mappings').values({ owner_id: ownerId, source: 'kuma', source_key: slug, kind: 'page', lantern_id: page.id, created_at: 0 } as never).execute()
      return page
    }
    const alicePage = await own(alice.id, 'alice-page')
    await own(bob.id, 'bob-page')
    // A dependency between two monitors (a later table that names monitors) survives the rebuild.
    const monitorIds = (await db.selectFrom('monitors').select('id').orderBy('id').execute()).map((m) => m.id)
    await db.insertInto('monitor_dependencies').values({ monitor_id: monitorIds[1]!, parent_id: monitorIds[0]! } as never).execute()
    await db.insertInto('api_keys').values({ user_id: alice.id, public_id: PUBLIC_ID, secret_hash: await sha256Hex(SECRET), name: 'old', created_at: 0 } as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_06_0900_teams')

    const teams = await db.selectFrom('teams').select(['id', 'name', 'plan', 'personal_of']).orderBy('id').execute()
    expect(teams).toEqual([
      { id: alice.id, name: 'alice@example.com', plan: 'pro', personal_of: alice.id },
      { id: bob.id, name: 'bob@example.com', plan: 'business', personal_of: bob.id },
    ])
    expect(await db.selectFrom('team_members').select(['team_id', 'user_id', 'role']).orderBy('team_id').execute()).toEqual([
      { team_id: alice.id, user_id: alice.id, role: 'owner' },
      { team_id: bob.id, user_id: bob.id, role: 'owner' },
    ])
    for (const table of OWNED) {
      const rows = await db.selectFrom(table as 'status_pages').select('owner_id').orderBy('owner_id').execute()
      expect({ table, owners: rows.map((r) => r.owner_id) }).toEqual({ table, owners: [alice.id, bob.id] })
      // owner_id names a team now: an id that is no team is refused by the database itself.
      await expect(db.updateTable(table as 'status_pages').set({ owner_id: 999_999 }).where('owner_id', '=', alice.id).execute()).rejects.toThrow()
    }
    expect(await db.selectFrom('monitor_dependencies').select(['monitor_id', 'parent_id']).execute()).toEqual([{ monitor_id: monitorIds[1]!, parent_id: monitorIds[0]! }])
    expect(await db.selectFrom('api_keys').select(['team_id', 'role']).execute()).toEqual([{ team_id: alice.id, role: 'owner' }])

    // The app reads it: the old key acts in Alice's personal team as its owner and sees her page only.
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock: new ManualClock(Date.UTC(2026, 11, 6, 12)), passwords: fastTestHasher, logError: () => {} })
    const response = await app.handle(new Request('https://lantern.test/user/api/v1/status-pages', { headers: { authorization: `Bearer lnt_${PUBLIC_ID}_${SECRET}` } }))
    expect(response.status).toBe(200)
    const body = (await response.json()) as { data: Array<{ slug: string }> }
    expect(body.data.map((p) => p.slug)).toEqual(['alice-page'])
    const plan = await app.handle(new Request('https://lantern.test/user/api/v1/plan', { headers: { authorization: `Bearer lnt_${PUBLIC_ID}_${SECRET}` } }))
    expect(((await plan.json()) as { data: { plan: string } }).data.plan).toBe('pro')
    // The public page reads its plan from the team.
    expect((await app.services.pageStatus.publicSnapshot('alice-page'))?.page).toMatchObject({ id: alicePage.id, plan: 'pro' })
    // A new account gets its own personal team.
    const carol = await app.services.accounts.createUser({ email: 'carol@example.com', password: 'correct horse battery', plan: 'free' })
    const carolOwner = await app.services.accounts.personalTeamOwner(carol)
    expect({ role: carolOwner.role, plan: carolOwner.plan, team: teams.some((t) => t.id === carolOwner.id) }).toEqual({ role: 'owner', plan: 'free', team: false })
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
