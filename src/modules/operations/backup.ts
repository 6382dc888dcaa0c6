/**
 * `lantern backup <file>`: a consistent online snapshot with `VACUUM INTO`. SQLite runs it inside
 * one read transaction, so in WAL mode the server keeps reading and writing meanwhile and the copy
 * holds exactly the writes committed before it started. The copy is checked before we say "done".
 */
import { existsSync, rmSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { createPrivately, openDatabase } from '../../db/client.ts'
import { badRequest } from '../../lib/errors.ts'
import { OperationsRepo } from './repo.ts'

export interface BackupResult {
  file: string
  bytes: number
  integrity: 'ok'
  ms: number
}

export async function backupDatabase(databasePath: string, target: string, now: () => number = () => performance.now()): Promise<BackupResult> {
  const started = now()
  if (!target.trim()) throw badRequest('backup needs a file name: lantern backup FILE')
  const file = resolve(target)
  if (!existsSync(databasePath)) throw badRequest(`database ${databasePath} does not exist`)
  if (resolve(databasePath) === file) throw badRequest('the backup file must not be the database itself')
  if (existsSync(file)) throw badRequest(`${file} already exists; choose a new file name`)
  // 0600 like the database (and 0700 for a folder it creates); VACUUM INTO accepts an empty file.
  createPrivately(file)
  const source = openDatabase(databasePath)
  try {
    await new OperationsRepo(source.db).vacuumInto(file)
  } catch (error) {
    rmSync(file, { force: true }) // no empty file left behind to block the next try
    throw error
  } finally {
    await source.close()
  }
  const copy = openDatabase(file, { readonly: true })
  try {
    const problems = await new OperationsRepo(copy.db).integrityCheck()
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw new Error(`the backup in ${file} failed its integrity check: ${problems.slice(0, 3).join('; ')}`)
    }
  } finally {
    await copy.close()
  }
  return { file, bytes: statSync(file).size, integrity: 'ok', ms: Math.round(now() - started) }
}
