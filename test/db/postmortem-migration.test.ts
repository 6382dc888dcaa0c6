/**
 * The postmortem migration on a database made by the code before it (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): incidents from before keep everything and have no postmortem; one can be
 * written and published on them.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

test('incidents from before have no postmortem and can get one', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'growth', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const at = Date.UTC(2026, 10, 1)
    const incident = await db
      .insertInto('incidents')
      .values({ page_id: page.id, title: 'Old outage', state: 'resolved', started_at: at, resolved_at: at + 60_000, created_at: at, updated_at: at + 60_000 } as never)
      .returning('id')
      .executeTakeFirstOrThrow()

    expect((await migrateToLatest(db))).toContain('2026_12_01_0400_incident_postmortems')
    const row = await db.selectFrom('incidents').select(['title', 'resolved_at', 'postmortem', 'postmortem_updated_at', 'postmortem_published_at']).where('id', '=', incident.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ title: 'Old outage', resolved_at: at + 60_000, postmortem: null, postmortem_updated_at: null, postmortem_published_at: null })

    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const now = Date.UTC(2026, 11, 2)
    const app = createApp({ db, config, clock: new ManualClock(now), passwords: fastTestHasher, logError: () => {} })
    // The incidents service checks ownership by the user's id.
    const owner = { id: user.id } as Parameters<typeof app.services.incidents.get>[0]
    await app.services.incidents.savePostmortem(owner, incident.id, { body: 'What **happened**.' })
    const published = await app.services.incidents.publishPostmortem(owner, incident.id, {})
    expect(published.postmortem).toEqual({ body: 'What **happened**.', updatedAt: now, publishedAt: now })
    const html = await (await app.handle(new Request(`https://old.status.test/incidents/${incident.id}`))).text()
    expect(html).toContain('What <strong>happened</strong>.')
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
