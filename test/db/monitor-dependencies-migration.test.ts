/**
 * The monitor-dependencies migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): monitors from before depend on nothing, pairs can be
 * stored and go with either monitor, and the service reads them; `down` takes the table away and
 * leaves no monitor in a state that no longer exists.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { DependencyRepo } from '../../src/modules/monitors/dependency-repo.ts'
import { databaseBefore } from '../helpers/database-before.ts'

test('monitors from before depend on nothing; pairs are stored, cascade with their monitors, and down removes them', async () => {
  const database = await databaseBefore('2026_12_01_1100_chat_subscribers')
  const { db, migrator } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'growth', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const monitor = async (name: string) =>
      (
        await db
          .insertInto('monitors')
          .values({
            owner_id: user.id, page_id: null, component_id: null, name, type: 'http', target: 'https://example.com/', options_json: '{}', interval_s: 60, timeout_ms: 5000,
            retries: 0, retry_interval_ms: 1000, confirm_failures: 1, confirm_successes: 1, degraded_after_ms: null, enabled: 1, state: 'up', state_since: 0, flapping: 0, history: '',
            watching_since: 0, next_run_at: 0, lease_owner: null, lease_until: null, last_check_at: null, last_outcome: null, last_response_ms: null, last_message: null, push_token_hash: null, last_push_at: null, created_at: 0, updated_at: 0,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    const router = await monitor('Router')
    const app = await monitor('App')
    const worker = await monitor('Worker')

    expect(await migrateToLatest(db)).toContain('2026_12_06_0500_monitor_dependencies')
    const repo = new DependencyRepo(db)
    expect(await repo.parentsOf([router, app, worker])).toEqual(new Map())
    await repo.setParents(app, [router])
    await repo.setParents(worker, [app, router])
    expect(await repo.parentsOf([app, worker])).toEqual(new Map([[app, [router]], [worker, [router, app].sort((a, b) => a - b)]]))
    expect((await repo.childrenOf([router])).sort()).toEqual([app, worker].sort())
    // A pair is stored once.
    await expect(db.insertInto('monitor_dependencies').values({ monitor_id: app, parent_id: router }).execute()).rejects.toThrow()
    // Deleting the parent removes its pairs.
    await db.deleteFrom('monitors').where('id', '=', router).execute()
    expect(await repo.parentsOf([app, worker])).toEqual(new Map([[worker, [app]]]))

    await db.updateTable('monitors').set({ state: 'unreachable' }).where('id', '=', worker).execute()
    const down = await migrator.migrateTo('2026_12_01_1100_chat_subscribers')
    expect(down.error).toBeUndefined()
    expect(await db.selectFrom('monitors').select(['name', 'state']).orderBy('id').execute()).toEqual([{ name: 'App', state: 'up' }, { name: 'Worker', state: 'pending' }])
    await expect(db.selectFrom('monitor_dependencies').selectAll().execute()).rejects.toThrow()
  } finally {
    await database.dispose()
  }
})
