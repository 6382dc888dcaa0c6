/**
 * The channels-verified-by-test migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a webhook or chat channel whose test send succeeded but
 * that nobody read since (so the fan-out skipped it) is verified at the time of that success;
 * nothing else changes, and `down` leaves the data as it is.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'

test('channels whose test succeeded are verified; the others stay as they were', async () => {
  const database = await databaseBefore('2026_12_06_1000_page_language_and_zone')
  const { db, migrator } = database
  try {
    const T0 = Date.UTC(2026, 11, 6, 12)
    const user = await db.insertInto('users').values({ email: 'a@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: T0 } as never).returning('id').executeTakeFirstOrThrow()
    const team = await db.insertInto('teams').values({ name: 'A', plan: 'pro', personal_of: user.id, created_at: T0 } as never).returning('id').executeTakeFirstOrThrow()
    const channel = async (name: string, type: string, testRequestedAt: number | null, verifiedAt: number | null, last?: { result: string; at: number }) => {
      const row = await db
        .insertInto('notification_channels')
        .values({ owner_id: team.id, type, name, config_json: '{}', events_json: '[]', test_requested_at: testRequestedAt, verified_at: verifiedAt, created_at: T0, updated_at: T0 } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      if (last) await db.insertInto('outbox_targets').values({ target: `channel:${row.id}`, consecutive_dead: 0, disabled_at: null, last_result: last.result, last_error: null, last_at: last.at } as never).execute()
      return row.id as number
    }
    const tested = await channel('tested', 'webhook', T0, null, { result: 'sent', at: T0 + 5 })
    const chat = await channel('chat', 'slack', T0, null, { result: 'sent', at: T0 })
    const failed = await channel('failed', 'webhook', T0, null, { result: 'failed', at: T0 + 5 })
    const before = await channel('sent before the test', 'discord', T0, null, { result: 'sent', at: T0 - 1 })
    const untested = await channel('never tested', 'webhook', null, null, { result: 'sent', at: T0 + 5 })
    const mail = await channel('mail', 'email', T0, null, { result: 'sent', at: T0 + 5 })
    const verified = await channel('verified', 'webhook', T0, T0 + 1, { result: 'sent', at: T0 + 9 })
    const nothing = await channel('nothing sent', 'webhook', T0, null)

    expect(await migrateToLatest(db)).toContain('2026_12_07_0100_channels_verified_by_test')
    const rows = await db.selectFrom('notification_channels').select(['id', 'verified_at']).orderBy('id').execute()
    expect(Object.fromEntries(rows.map((row) => [row.id, row.verified_at === null ? null : Number(row.verified_at)]))).toEqual({
      [tested]: T0 + 5, [chat]: T0, [failed]: null, [before]: null, [untested]: null, [mail]: null, [verified]: T0 + 1, [nothing]: null,
    })

    expect((await migrator.migrateTo('2026_12_06_1000_page_language_and_zone')).error).toBeUndefined()
    expect(Number((await db.selectFrom('notification_channels').select('verified_at').where('id', '=', tested).executeTakeFirstOrThrow()).verified_at)).toBe(T0 + 5)
  } finally {
    await database.dispose()
  }
})
