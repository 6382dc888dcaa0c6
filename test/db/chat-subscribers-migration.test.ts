/**
 * The chat subscribers migration on a database made by the code before this round (SQLite, or
 * PostgreSQL with LANTERN_TEST_POSTGRES): a webhook subscriber from before stays, and one URL is
 * one active subscriber per page whatever it is sent (webhook, Slack or Teams).
 */
import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'

test('a webhook subscriber from before stays; one URL is one active subscriber per page', async () => {
  const database = await databaseBefore('2026_11_30_0700_custom_domain_state')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'pro', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-subs', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const row = (kind: string, manage: string) => ({ page_id: page.id, kind, email: null, url: 'https://hooks.example/x', source: 'owner', confirmed_at: 1, manage_key: manage, created_at: 1 })
    await db.insertInto('subscribers').values(row('webhook', 'k1') as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_01_1100_chat_subscribers')
    expect(await db.selectFrom('subscribers').select(['kind', 'url']).execute()).toEqual([{ kind: 'webhook', url: 'https://hooks.example/x' }])
    // The same URL as a Slack subscriber of the same page is refused by the database itself.
    await expect(db.insertInto('subscribers').values(row('slack', 'k2') as never).execute()).rejects.toThrow()
    // Once the webhook is unsubscribed, the URL may come back as a Slack channel.
    await db.updateTable('subscribers').set({ unsubscribed_at: 2 }).execute()
    await db.insertInto('subscribers').values(row('slack', 'k3') as never).execute()
    expect((await db.selectFrom('subscribers').select('kind').where('unsubscribed_at', 'is', null).execute()).map((r) => r.kind)).toEqual(['slack'])
  } finally {
    await database.dispose()
  }
})
