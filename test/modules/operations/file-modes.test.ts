/**
 * The database holds password hashes, session and key hashes: its file, WAL and shared-memory file
 * are created readable by the owner only (0600), a folder Lantern creates for it 0700, and backups
 * the same. A folder that already exists (/var/lib, a home folder) keeps its mode.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../../src/db/client.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { backupDatabase } from '../../../src/modules/operations/backup.ts'

let dir: string
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-modes-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a new database, its WAL and shared-memory files are 0600; folders Lantern creates are 0700', async () => {
  const databasePath = join(dir, 'new', 'data', 'lantern.sqlite')
  const database = openDatabase(databasePath)
  try {
    await migrateToLatest(database.db)
    expect({
      outer: mode(join(dir, 'new')),
      folder: mode(join(dir, 'new', 'data')),
      file: mode(databasePath),
      wal: mode(`${databasePath}-wal`),
      shm: mode(`${databasePath}-shm`),
    }).toEqual({ outer: '700', folder: '700', file: '600', wal: '600', shm: '600' })
  } finally {
    await database.close()
  }
})

test('an existing folder keeps its mode; the new file in it is still 0600', async () => {
  const folder = join(dir, 'shared')
  mkdirSync(folder)
  chmodSync(folder, 0o755)
  const databasePath = join(folder, 'lantern.sqlite')
  const database = openDatabase(databasePath)
  await migrateToLatest(database.db)
  await database.close()
  expect({ folder: mode(folder), file: mode(databasePath) }).toEqual({ folder: '755', file: '600' })
})

test('a backup is 0600, and a missing backup folder is created 0700', async () => {
  const databasePath = join(dir, 'source.sqlite')
  const database = openDatabase(databasePath)
  await migrateToLatest(database.db)
  await database.close()
  const target = join(dir, 'backups', 'lantern', 'copy.sqlite')
  const result = await backupDatabase(databasePath, target)
  expect(result.integrity).toBe('ok')
  expect({ folder: mode(join(dir, 'backups')), inner: mode(join(dir, 'backups', 'lantern')), file: mode(target) }).toEqual({ folder: '700', inner: '700', file: '600' })
  // Still refuses to overwrite (the copy is created exclusively).
  await expect(backupDatabase(databasePath, target)).rejects.toThrow('already exists')
})
