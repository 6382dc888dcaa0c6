/**
 * The public error budget migration on a database made by the code before it (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): an SLA target set before keeps every setting and is not
 * shown in public until its owner chooses so; the API then shows and hides it.
 */
import { expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { fastTestHasher } from '../helpers/password.ts'
import { ManualClock } from '../helpers/clock.ts'

test('SLA targets from before keep their settings and stay out of public view until chosen', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'enterprise', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-sla', name: 'Old SLA', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const component = await db.insertInto('components').values({ page_id: page.id, name: 'API', status: 'up', position: 0, created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('component_status_history').values({ component_id: component.id, status: 'up', at: Date.UTC(2026, 9, 1) } as never).execute()
    await db
      .insertInto('sla_targets')
      .values({ component_id: component.id, page_id: page.id, target_ppm: 999_500, period: 'quarter', degraded_counts_as: 'half', exclude_maintenance: 0, min_outage_s: 60, breach_alerts: 0, created_at: 0, updated_at: 0 } as never)
      .execute()

    expect(await migrateToLatest(db)).toContain('2026_12_01_0800_public_error_budgets')
    const row = await db.selectFrom('sla_targets').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ target_ppm: 999_500, period: 'quarter', degraded_counts_as: 'half', exclude_maintenance: 0, min_outage_s: 60, breach_alerts: 0, public_budget: 0 })

    const config = loadConfig({ BASE_URL: 'https://lantern.test', STATUS_DOMAIN: 'status.test', ...database.env })
    const app = createApp({ db, config, clock: new ManualClock(Date.UTC(2026, 11, 1)), passwords: fastTestHasher, logError: () => {} })
    const { key } = await app.services.accounts.createApiKey(user.id, 'after')
    const status = async () => ((await app.handle(new Request('https://lantern.test/api/embed/status?slug=old-sla'))).json() as Promise<{ error_budgets: unknown[] }>)
    expect((await status()).error_budgets).toEqual([])
    const targets = await app.handle(new Request(`https://lantern.test/user/api/v1/status-pages/${page.id}/sla/targets`, { headers: { authorization: `Bearer ${key}` } }))
    expect(((await targets.json()) as { data: Array<{ target: { public_budget: boolean; target_percent: number } }> }).data[0]!.target).toMatchObject({ target_percent: 99.95, public_budget: false })
    const put = await app.handle(
      new Request(`https://lantern.test/user/api/v1/components/${component.id}/sla-target`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ target_percent: 99.95, period: 'quarter', public_budget: true }),
      }),
    )
    expect(put.status).toBe(200)
    expect((await status()).error_budgets).toMatchObject([{ component: 'API', target: 99.95, period: 'quarter' }])
    await app.services.outboxWorker.stop(0)
  } finally {
    await database.dispose()
  }
})
