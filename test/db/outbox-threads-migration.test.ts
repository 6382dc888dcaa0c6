/**
 * The outbox-threads migration on a database made by the code before it (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): queued chat deliveries from before still go out as they were, a first
 * message is kept once per receiver and outage (the first one wins), old ones are pruned, and
 * `down` takes the table away.
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { keepThread, pruneThreads, threadRefs } from '../../src/modules/notify/outbox-repo.ts'
import { databaseBefore } from '../helpers/database-before.ts'

test('first messages are kept once per receiver and outage, pruned when old, and down removes them', async () => {
  const database = await databaseBefore('2026_12_06_0500_monitor_dependencies')
  const { db, migrator } = database
  try {
    const T0 = Date.UTC(2026, 11, 6, 5)
    const queued = { target: 'channel:1', kind: 'http', payload_json: JSON.stringify({ request: { url: 'https://discord.com/api/webhooks/1/x', headers: {}, body: '{}' } }), next_attempt_at: T0, lease_until: null, last_error: null, created_at: T0, sent_at: null }
    await db.insertInto('outbox').values(queued as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_06_0510_outbox_threads')
    expect(await db.selectFrom('outbox').select(['target', 'payload_json', 'status']).execute()).toEqual([{ target: 'channel:1', payload_json: queued.payload_json, status: 'queued' }])
    expect(await threadRefs(db, 'channel:1', 'monitor:5:1')).toBeUndefined()
    await keepThread(db, 'channel:1', 'monitor:5:1', { id: '1100000000000000042' }, T0)
    await keepThread(db, 'channel:1', 'monitor:5:1', { id: 'second' }, T0 + 1)
    await keepThread(db, 'channel:2', 'monitor:5:1', { message_id: 42 }, T0 + 86_400_000)
    expect(await threadRefs(db, 'channel:1', 'monitor:5:1')).toEqual({ id: '1100000000000000042' })
    expect(await threadRefs(db, 'channel:2', 'monitor:5:1')).toEqual({ message_id: 42 })
    await pruneThreads(db, T0 + 1000)
    expect(await threadRefs(db, 'channel:1', 'monitor:5:1')).toBeUndefined()
    expect(await threadRefs(db, 'channel:2', 'monitor:5:1')).toEqual({ message_id: 42 })

    expect((await migrator.migrateTo('2026_12_06_0500_monitor_dependencies')).error).toBeUndefined()
    await expect(db.selectFrom('outbox_threads').selectAll().execute()).rejects.toThrow()
  } finally {
    await database.dispose()
  }
})
