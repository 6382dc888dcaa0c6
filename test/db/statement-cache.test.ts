/**
 * Kysely's bun:sqlite driver prepares every query anew; the database edge keeps compiled statements
 * per SQL text (bounded), so a repeated query is parsed and planned by SQLite once.
 */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { openDatabase, STATEMENT_CACHE_SIZE, type DatabaseHandle } from '../../src/db/client.ts'

const dir = mkdtempSync(join(tmpdir(), 'lantern-stmt-'))
let handle: DatabaseHandle
// Counts what SQLite is asked to compile (observed on the prototype, restored afterwards).
const originalPrepare = Database.prototype.prepare
let compiled = 0

beforeAll(async () => {
  Database.prototype.prepare = function (this: Database, ...args: Parameters<Database['prepare']>) {
    compiled++
    return originalPrepare.apply(this, args)
  } as Database['prepare']
  handle = openDatabase(join(dir, 'cache.sqlite'))
  await sql`create table items (id integer primary key, name text not null)`.execute(handle.db)
})
afterAll(async () => {
  Database.prototype.prepare = originalPrepare
  await handle.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a repeated query is compiled once and still reads its own parameters', async () => {
  const insert = (name: string) => sql<{ id: number }>`insert into items (name) values (${name}) returning id`.execute(handle.db)
  const before = compiled
  const first = await insert('a')
  const second = await insert('b')
  expect(compiled - before).toBe(1)
  expect(second.rows[0]!.id).toBe(first.rows[0]!.id + 1)
  const byName = (name: string) => sql<{ name: string }>`select name from items where name = ${name}`.execute(handle.db)
  for (const name of ['a', 'b', 'a', 'zz']) expect((await byName(name)).rows.map((r) => r.name)).toEqual(name === 'zz' ? [] : [name])
})

test('beyond the bound the least recently used texts are dropped, and answers stay right', async () => {
  const distinct = (n: number) => sql<{ v: number }>`select ${sql.lit(n)} + ${n} as v`.execute(handle.db)
  for (let n = 0; n <= STATEMENT_CACHE_SIZE; n++) expect((await distinct(n)).rows[0]!.v).toBe(2 * n)
  const before = compiled
  // Text 0 was the least recently used: it is compiled again; the latest text is still kept.
  expect((await distinct(0)).rows[0]!.v).toBe(0)
  expect((await distinct(STATEMENT_CACHE_SIZE)).rows[0]!.v).toBe(2 * STATEMENT_CACHE_SIZE)
  expect(compiled - before).toBe(1)
})
