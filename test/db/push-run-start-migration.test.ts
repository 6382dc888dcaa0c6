/**
 * The push-run migration on a database made by the code before it (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): an existing push monitor has no run in progress, and /start then a push
 * measure a run on the upgraded database.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { sha256Hex } from '../../src/lib/crypto.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

test('push monitors from before have no run in progress, and runs are measured after the upgrade', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const T0 = Date.UTC(2026, 10, 30, 12)
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'growth', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const token = 'a'.repeat(32)
    const monitor = await db
      .insertInto('monitors')
      .values({
        owner_id: user.id, page_id: null, component_id: null, name: 'Old job', type: 'push', target: null, options_json: '{"push_grace_seconds":300}', interval_s: 3600,
        timeout_ms: 10_000, retries: 0, retry_interval_ms: 2_000, confirm_failures: 1, confirm_successes: 1, degraded_after_ms: null, enabled: 1, state: 'up', state_since: T0,
        flapping: 0, history: '', watching_since: T0, next_run_at: T0 + 3_900_000, lease_owner: null, lease_until: null, last_check_at: null, last_outcome: null,
        last_response_ms: null, last_message: null, push_token_hash: await sha256Hex(token), last_push_at: T0, created_at: T0, updated_at: T0,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()

    expect(await migrateToLatest(db)).toContain('2026_12_01_0300_push_run_start')
    expect(await db.selectFrom('monitors').select(['id', 'push_started_at']).execute()).toEqual([{ id: monitor.id, push_started_at: null }])

    const clock = new ManualClock(T0 + 60_000)
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock, passwords: fastTestHasher, logError: () => {}, checkDeps: undefined })
    const push = async (path: string) => (await app.handle(new Request(`https://lantern.test/api/push/${token}${path}`))).json()
    expect(await push('/start')).toEqual({ ok: true, state: 'up' })
    const started = await db.selectFrom('monitors').select(['push_started_at', 'next_run_at']).executeTakeFirstOrThrow()
    expect({ started: Number(started.push_started_at), deadline: Number(started.next_run_at) }).toEqual({ started: T0 + 60_000, deadline: T0 + 60_000 + 300_000 + 1 })
    clock.advance(42_000)
    expect(await push('')).toEqual({ ok: true, state: 'up' })
    const ended = await db.selectFrom('monitors').select(['push_started_at', 'last_response_ms', 'last_message']).executeTakeFirstOrThrow()
    expect(ended).toEqual({ push_started_at: null, last_response_ms: 42_000, last_message: 'push received (the run took 42 s)' })
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
