/**
 * The impact-levels migration on a database made by the code before it (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): components and their history keep every row, id and meaning, foreign keys
 * and the triggers on `components` still work, `partial` is accepted and a made-up status is still
 * refused, and incidents from before have no stored impact (derived from what they affect).
 */
import { expect, test } from 'bun:test'
import { sql } from 'kysely'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { engineOf } from '../../src/db/engine.ts'
import { databaseBefore } from '../helpers/database-before.ts'

test('components keep their statuses and history, partial becomes possible, incidents have no stored impact', async () => {
  const database = await databaseBefore('2026_12_01_0800_public_error_budgets')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'old@example.com', password_hash: 'x', plan: 'enterprise', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'old-impact', name: 'Old', visibility: 'public', created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
    const ids: number[] = []
    for (const [name, status] of [['API', 'up'], ['Web', 'degraded'], ['DNS', 'down'], ['Gone', 'up']] as const) {
      const row = await db.insertInto('components').values({ page_id: page.id, name, status, position: ids.length, created_at: 0, updated_at: 0 } as never).returning('id').executeTakeFirstOrThrow()
      ids.push(row.id)
      await db.insertInto('component_status_history').values({ component_id: row.id, status, at: 1000 + ids.length } as never).execute()
    }
    // The last component is deleted: its id must never be handed out again.
    await db.deleteFrom('components').where('id', '=', ids[3]!).execute()
    const incident = await db.insertInto('incidents').values({ page_id: page.id, title: 'Old outage', state: 'investigating', started_at: 5, created_at: 5, updated_at: 5 } as never).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('incident_components').values({ incident_id: incident.id, component_id: ids[2]! } as never).execute()
    await db.insertInto('check_minutes').values({ component_id: ids[0]!, minute: 7, checks: 2, ok_checks: 2, timed_checks: 2, response_ms_sum: 40, response_ms_max: 30 } as never).execute()

    expect(await migrateToLatest(db)).toContain('2026_12_01_0900_impact_levels')

    const components = await db.selectFrom('components').select(['id', 'name', 'status', 'position']).orderBy('id').execute()
    expect(components).toEqual([
      { id: ids[0]!, name: 'API', status: 'up', position: 0 },
      { id: ids[1]!, name: 'Web', status: 'degraded', position: 1 },
      { id: ids[2]!, name: 'DNS', status: 'down', position: 2 },
    ])
    const history = await db.selectFrom('component_status_history').select(['component_id', 'status', 'at']).orderBy('id').execute()
    expect(history.map((h) => h.status)).toEqual(['up', 'degraded', 'down'])
    const old = await db.selectFrom('incidents').select(['title', 'impact']).executeTakeFirstOrThrow()
    expect(old).toEqual({ title: 'Old outage', impact: null })

    // The new word is accepted; a made-up one is still refused by both tables and incidents.
    await db.updateTable('components').set({ status: 'partial' }).where('id', '=', ids[1]!).execute()
    await db.insertInto('component_status_history').values({ component_id: ids[1]!, status: 'partial', at: 2000 }).execute()
    await expect(db.updateTable('components').set({ status: 'broken' as never }).where('id', '=', ids[0]!).execute()).rejects.toThrow()
    await expect(db.insertInto('component_status_history').values({ component_id: ids[0]!, status: 'broken' as never, at: 3000 }).execute()).rejects.toThrow()
    await db.updateTable('incidents').set({ impact: 'major' }).execute()
    await expect(db.updateTable('incidents').set({ impact: 'huge' as never }).execute()).rejects.toThrow()

    // A new component gets a new id, never the deleted one's.
    const fresh = await db.insertInto('components').values({ page_id: page.id, name: 'New', type: 'site', status: 'partial', position: 3, created_at: 0, updated_at: 0 }).returning('id').executeTakeFirstOrThrow()
    expect(fresh.id).toBeGreaterThan(ids[3]!)
    // Foreign keys still point at the rebuilt table: history must name a component that exists.
    await expect(db.insertInto('component_status_history').values({ component_id: 99_999, status: 'up', at: 1 }).execute()).rejects.toThrow()
    // The trigger on components is there again: deleting one takes its check minutes off the page's.
    const pageMinutes = () => db.selectFrom('page_check_minutes').select('checks').where('page_id', '=', page.id).executeTakeFirst()
    expect((await pageMinutes())?.checks).toBe(2)
    await db.deleteFrom('components').where('id', '=', ids[0]!).execute()
    expect(await db.selectFrom('incident_components').selectAll().execute()).toHaveLength(1)
    expect((await pageMinutes())?.checks ?? 0).toBe(0)
    // Deleting a component still cascades to its history and incident links.
    await db.deleteFrom('components').where('id', '=', ids[2]!).execute()
    expect(await db.selectFrom('incident_components').selectAll().execute()).toHaveLength(0)
    expect(await db.selectFrom('component_status_history').select('component_id').where('component_id', '=', ids[2]!).execute()).toHaveLength(0)
    if (engineOf(db) === 'sqlite') {
      const pragma = async (name: string) => (await sql.raw(`PRAGMA ${name}`).execute(db)).rows
      expect(await pragma('foreign_keys')).toEqual([{ foreign_keys: 1 }])
      expect(await pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }])
      const indexes = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('components', 'component_status_history') AND sql IS NOT NULL ORDER BY name`.execute(db)
      expect(indexes.rows.map((r) => r.name)).toEqual(['component_status_history_component_at', 'components_page_id'])
    }
  } finally {
    await database.dispose()
  }
})
