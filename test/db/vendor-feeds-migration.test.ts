/**
 * The vendor feeds migration on a database made by the code before it (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): components from before keep their status and follow nothing; a feed set
 * afterwards is kept, and goes with its component when that is deleted.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'
import { testDeps } from '../modules/monitors/fixtures.ts'

test('components from before follow no feed; a feed set after goes with its component', async () => {
  const database = await databaseBefore('2026_12_01_0800_public_error_budgets')
  const { db } = database
  const vendor = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ page: { name: 'V' }, status: { indicator: 'minor' }, components: [] }) })
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'enterprise', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-vendor', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const component = await db.insertInto('components').values({ page_id: page.id, name: 'CDN', status: 'down', position: 0, created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()

    expect(await migrateToLatest(db)).toContain('2026_12_01_1000_vendor_feeds')
    expect(await db.selectFrom('vendor_feeds').selectAll().execute()).toEqual([])
    expect((await db.selectFrom('components').select('status').executeTakeFirstOrThrow()).status).toBe('down')

    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock: new ManualClock(Date.UTC(2026, 11, 1)), passwords: fastTestHasher, logError: () => {}, checkDeps: testDeps({ allowPrivate: true, names: { 'v.example': ['127.0.0.1'] } }) })
    const { key } = await app.services.accounts.createApiKey(user.id, 'after')
    const call = (path: string, init: RequestInit = {}) =>
      app.handle(new Request(`https://lantern.test/user/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }))
    const put = await call(`/components/${component.id}/vendor-feed`, { method: 'PUT', body: JSON.stringify({ url: `http://v.example:${vendor.port}/` }) })
    expect(put.status).toBe(200)
    expect(((await put.json()) as { data: { state: string } }).data.state).toBe('ok')
    expect((await db.selectFrom('components').select('status').executeTakeFirstOrThrow()).status).toBe('degraded')
    expect((await call(`/components/${component.id}`, { method: 'DELETE' })).status).toBeLessThan(300)
    expect(await db.selectFrom('vendor_feeds').selectAll().execute()).toEqual([])
    await app.services.outboxWorker.stop(0)
  } finally {
    vendor.stop(true)
    await database.dispose()
  }
})
