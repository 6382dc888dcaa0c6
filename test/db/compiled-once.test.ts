/**
 * Hot statements compiled once (src/db/compiled-once.ts): the text is kept per engine and shape, and
 * every call still binds its own parameters; a call whose parameters do not match what Kysely
 * compiled runs as Kysely compiled it, and its text is not kept. On the engine the tests run on.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CompiledOnce } from '../../src/db/compiled-once.ts'
import { freshTestDatabase, type TestDatabase } from '../helpers/database.ts'

const dir = mkdtempSync(join(tmpdir(), 'lantern-compiled-'))
let database: TestDatabase

beforeAll(async () => {
  database = await freshTestDatabase(dir)
})
afterAll(async () => {
  await database.dispose()
  rmSync(dir, { recursive: true, force: true })
})

test('the kept text reads each call\'s own parameters, one text per shape', async () => {
  const db = database.handle.db
  for (const [day, salt] of [[1, 'sa'], [2, 'sb'], [3, 'sc']] as const) await db.insertInto('page_view_salts').values({ day, salt }).execute()
  const byKeys = new CompiledOnce<{ day: number; salt: string }>()
  let built = 0
  const read = async (keys: number[]) => {
    const result = await byKeys.execute(db, keys.length, () => {
      built++
      return db.selectFrom('page_view_salts').select(['day', 'salt']).where('day', 'in', keys).orderBy('day')
    }, keys)
    return result.rows
  }
  expect(await read([1])).toEqual([{ day: 1, salt: 'sa' }])
  expect(await read([3])).toEqual([{ day: 3, salt: 'sc' }])
  expect(await read([2, 3])).toEqual([{ day: 2, salt: 'sb' }, { day: 3, salt: 'sc' }])
  expect(await read([1, 99])).toEqual([{ day: 1, salt: 'sa' }])
  // Lengths 1 and 2: each built once.
  expect(built).toBe(2)
})

test('parameters that differ from the compiled ones: the call runs as Kysely compiled it, nothing is kept', async () => {
  const db = database.handle.db
  const wrong = new CompiledOnce<{ salt: string }>()
  let built = 0
  const read = (day: number) => wrong.execute(db, 'one', () => {
    built++
    return db.selectFrom('page_view_salts').select('salt').where('day', '=', day)
  }, [99])
  expect((await read(1)).rows).toEqual([{ salt: 'sa' }])
  expect((await read(2)).rows).toEqual([{ salt: 'sb' }])
  expect(built).toBe(2)
})
