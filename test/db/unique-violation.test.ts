import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { isUniqueViolationOn, uniqueViolation } from '../../src/db/errors.ts'
import { freshTestDatabase, type TestDatabase } from '../helpers/database.ts'

// Runs on whichever engine the suite runs on (LANTERN_TEST_POSTGRES switches it).
let dir: string
let database: TestDatabase

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-unique-'))
  database = await freshTestDatabase(dir)
  const db = database.handle.db
  await sql`CREATE TABLE scratch (id integer PRIMARY KEY, slug text UNIQUE, a integer, b integer, state text)`.execute(db)
  await sql`CREATE UNIQUE INDEX scratch_one_open ON scratch (a) WHERE state = 'open'`.execute(db)
  await sql`CREATE UNIQUE INDEX scratch_pair ON scratch (a, b)`.execute(db)
  await sql`INSERT INTO scratch (id, slug, a, b, state) VALUES (1, 'one', 1, 1, 'open')`.execute(database.handle.db)
})

afterAll(async () => {
  await database.dispose()
  rmSync(dir, { recursive: true, force: true })
})

async function refusal(statement: ReturnType<typeof sql>): Promise<unknown> {
  try {
    await statement.execute(database.handle.db)
  } catch (error) {
    return error
  }
  throw new Error('the insert was accepted')
}

test('a duplicate on a unique column names its table and column', async () => {
  const error = await refusal(sql`INSERT INTO scratch (id, slug, a, b, state) VALUES (2, 'one', 2, 2, 'open')`)
  expect(uniqueViolation(error)).toEqual({ table: 'scratch', columns: ['slug'] })
  expect(isUniqueViolationOn(error, 'scratch', 'slug')).toBe(true)
  expect(isUniqueViolationOn(error, 'scratch', 'a')).toBe(false)
})

test('a partial unique index and a two-column index are recognised too', async () => {
  const partial = await refusal(sql`INSERT INTO scratch (id, slug, a, b, state) VALUES (3, 'three', 1, 3, 'open')`)
  expect(isUniqueViolationOn(partial, 'scratch', 'a')).toBe(true)
  const pair = await refusal(sql`INSERT INTO scratch (id, slug, a, b, state) VALUES (4, 'four', 1, 1, 'closed')`)
  expect(uniqueViolation(pair)).toEqual({ table: 'scratch', columns: ['a', 'b'] })
  expect(isUniqueViolationOn(pair, 'scratch', 'a')).toBe(false)
})

test('other errors are not unique violations', async () => {
  const error = await refusal(sql`INSERT INTO scratch (id, slug, a, b, state) VALUES (1, 'again', 5, 5, 'open')`)
  expect(uniqueViolation(error)).toEqual({ table: 'scratch', columns: ['id'] })
  expect(uniqueViolation(new Error('no such table: nothing'))).toBeUndefined()
  expect(uniqueViolation('UNIQUE constraint failed: a.b')).toBeUndefined()
})
