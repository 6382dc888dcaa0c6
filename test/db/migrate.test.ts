import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { openDatabase } from '../../src/db/client.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { migrations } from '../../db/migrations/index.ts'

test('migrates an empty database, then finds nothing to do on an up-to-date one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-migrate-'))
  try {
    const path = join(dir, 'nested', 'folder', 'lantern.sqlite') // the folder is created too
    const first = openDatabase(path)
    expect(await migrateToLatest(first.db)).toEqual(Object.keys(migrations))
    await first.close()

    const second = openDatabase(path)
    expect(await migrateToLatest(second.db)).toEqual([])
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(second.db)
    expect(tables.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining(['users', 'api_keys', 'status_pages', 'components', 'component_status_history']),
    )
    const pragma = async (name: string) => Object.values((await sql.raw(`PRAGMA ${name}`).execute(second.db)).rows[0] as object)[0]
    expect(await pragma('journal_mode')).toBe('wal')
    expect(await pragma('foreign_keys')).toBe(1)
    expect(await pragma('busy_timeout')).toBe(5000)
    await second.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the static migration index lists every migration file, in order', async () => {
  const { readdirSync } = await import('node:fs')
  const files = readdirSync(join(import.meta.dir, '../../db/migrations'))
    .filter((f) => /^\d{4}_\d{2}_\d{2}_\d{4}_.+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort()
  expect(Object.keys(migrations)).toEqual(files)
})
