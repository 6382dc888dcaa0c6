/**
 * The audit-log read indexes on a database made by the code before them (SQLite, or PostgreSQL with
 * LANTERN_TEST_POSTGRES): the rows stay, the two indexes exist after `up` and are gone after `down`;
 * then the page index by id replaces the one by time, and a page's newest rows are read without a sort.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { engineOf } from '../../src/db/engine.ts'
import { databaseBefore } from '../helpers/database-before.ts'

const BEFORE = '2026_12_07_0100_channels_verified_by_test'

async function auditIndexes(db: Kysely<any>): Promise<string[]> {
  const rows =
    engineOf(db) === 'postgres'
      ? (await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'audit_log' AND schemaname = current_schema()`.execute(db)).rows
      : (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log'`.execute(db)).rows
  return rows.map((row) => row.name).filter((name) => name.startsWith('audit_log_team_')).sort()
}

test('the read indexes come and go; the rows stay', async () => {
  const database = await databaseBefore(BEFORE)
  const { db, migrator } = database
  try {
    const row = { team_id: 1, actor_kind: 'person', actor_user_id: 1, actor_label: 'a@example.com', page_id: null, action: 'status-pages.post', object_type: '/user/api/v1/status-pages', object_id: null, summary: '{"fields":["name"]}', address: '127.0.0.1', client: null, created_at: Date.UTC(2026, 11, 7) }
    await db.insertInto('audit_log').values(row as never).execute()
    expect(await auditIndexes(db)).toEqual(['audit_log_team_page_time', 'audit_log_team_time'])

    expect((await migrator.migrateTo('2026_12_07_0200_audit_log_read_indexes')).error).toBeUndefined()
    expect(await auditIndexes(db)).toEqual(['audit_log_team_actor_id', 'audit_log_team_id', 'audit_log_team_page_time', 'audit_log_team_time'])
    expect((await db.selectFrom('audit_log').select(['action', 'summary']).execute())).toEqual([{ action: 'status-pages.post', summary: '{"fields":["name"]}' }])

    expect(await migrateToLatest(db)).toContain('2026_12_08_0700_audit_log_page_index')
    expect(await auditIndexes(db)).toEqual(['audit_log_team_actor_id', 'audit_log_team_id', 'audit_log_team_page_id', 'audit_log_team_time'])

    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined()
    expect(await auditIndexes(db)).toEqual(['audit_log_team_page_time', 'audit_log_team_time'])
    expect(await db.selectFrom('audit_log').select('action').execute()).toEqual([{ action: 'status-pages.post' }])

    // Up again (last: a statement read here keeps the table locked for later DDL on SQLite).
    await migrateToLatest(db)
    if (engineOf(db) === 'sqlite') {
      // The screen's query filtered by a page: walked in id order on the index, never sorted.
      const plan = (await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT * FROM audit_log WHERE team_id = ${1} AND page_id = ${2} ORDER BY id DESC LIMIT 51`.execute(db)).rows.map((r) => r.detail).join('\n')
      expect(plan).toContain('audit_log_team_page_id')
      expect(plan).not.toContain('TEMP B-TREE')
    }
  } finally {
    await database.dispose()
  }
})
