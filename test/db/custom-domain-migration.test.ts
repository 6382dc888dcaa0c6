/**
 * The custom-domain state migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a page that had a domain becomes pending and unchecked,
 * so its links use the default address until the first check; a page without one has no state.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'
import { testZone } from '../helpers/dns-zone.ts'

test('pages with a custom domain from before start pending and are verified by the first check', async () => {
  const database = await databaseBefore('2026_11_30_0600_create_status_corrections')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'growth', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = (slug: string, custom_domain: string | null) =>
      db.insertInto('status_pages').values({ owner_id: user.id, slug, name: slug, custom_domain, visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const withDomain = await page('old-domain', 'status.old.example')
    const without = await page('no-domain', null)

    expect((await migrateToLatest(db))[0]).toBe('2026_11_30_0700_custom_domain_state')
    const rows = await db.selectFrom('status_pages').select(['id', 'custom_domain_state', 'custom_domain_checked_at', 'custom_domain_verified_at', 'custom_domain_reason']).orderBy('id').execute()
    expect(rows).toEqual([
      { id: withDomain.id, custom_domain_state: 'pending', custom_domain_checked_at: null, custom_domain_verified_at: null, custom_domain_reason: null },
      { id: without.id, custom_domain_state: null, custom_domain_checked_at: null, custom_domain_verified_at: null, custom_domain_reason: null },
    ])

    // The program on the upgraded database: links on the default address, then the first sweep verifies.
    const zone = testZone()
    zone.cnames.set('status.old.example', ['old-domain.status.test'])
    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock: new ManualClock(Date.UTC(2026, 10, 30)), passwords: fastTestHasher, logError: () => {}, dns: zone })
    const snippets = async () => ((await app.handle(new Request('https://lantern.test/api/embed/markdown?slug=old-domain'))).json() as Promise<{ status_page_url: string }>)
    expect((await snippets()).status_page_url).toBe('https://old-domain.status.test')
    expect(await app.services.domainVerifier.sweep()).toBe(1)
    expect((await snippets()).status_page_url).toBe('https://status.old.example')
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
