/**
 * The shared store of password-guess budgets (on SQLite, or PostgreSQL with LANTERN_TEST_POSTGRES):
 * an attempt counts in all its budgets or in none, parallel attempts never pass a limit, and ended
 * rows are swept in bounded batches.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AttemptBudgetsRepo } from '../../../src/modules/attempt-budgets/repo.ts'
import { freshTestDatabase, type TestDatabase } from '../../helpers/database.ts'

const NOW = Date.UTC(2026, 10, 29, 10, 0, 0)
let dir: string
let database: TestDatabase
let repo: AttemptBudgetsRepo

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lantern-attempt-budgets-'))
  database = await freshTestDatabase(dir)
  repo = new AttemptBudgetsRepo(database.handle.db)
})
afterAll(async () => {
  await database?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

const attemptsOf = async (key: string) =>
  (await database.handle.db.selectFrom('attempt_budgets').select('attempts').where('key', '=', key).executeTakeFirst())?.attempts

describe('guess budgets in the database', () => {
  test('a refused attempt counts in none of its budgets; the wait is until the spent window ends', async () => {
    const pair = { key: 'pair-1', limit: 1, windowMs: 60_000 }
    const shared = { key: 'shared-1', limit: 5, windowMs: 3_600_000 }
    expect(await repo.take([pair, shared], NOW)).toBe(0)
    expect(await repo.take([pair, shared], NOW + 1_000)).toBe(59_000)
    expect(await attemptsOf('shared-1')).toBe(1)
    // The pair's window ends: the next attempt starts a new one and counts in the shared one.
    expect(await repo.take([pair, shared], NOW + 60_000)).toBe(0)
    expect(await attemptsOf('pair-1')).toBe(1)
    expect(await attemptsOf('shared-1')).toBe(2)
  })

  test('a success clears the pair, gives one back to the shared budgets and remembers the client', async () => {
    const pair = { key: 'pair-2', limit: 3, windowMs: 60_000 }
    const shared = { key: 'shared-2', limit: 5, windowMs: 60_000 }
    for (let i = 0; i < 3; i++) expect(await repo.take([pair, shared], NOW)).toBe(0)
    expect(await repo.isKnown('pair-2', NOW)).toBe(false)
    await repo.succeeded({ reset: ['pair-2'], refund: ['shared-2'], known: 'pair-2', knownUntil: NOW + 1_000, now: NOW })
    expect(await attemptsOf('pair-2')).toBeUndefined()
    expect(await attemptsOf('shared-2')).toBe(2)
    expect(await repo.isKnown('pair-2', NOW + 999)).toBe(true)
    expect(await repo.isKnown('pair-2', NOW + 1_000)).toBe(false)
  })

  test('40 parallel attempts at a budget of 10: exactly 10 are counted', async () => {
    const budget = { key: 'parallel', limit: 10, windowMs: 60_000 }
    const waits = await Promise.all(Array.from({ length: 40 }, () => repo.take([budget, { key: 'parallel-shared', limit: 1_000, windowMs: 60_000 }], NOW)))
    expect(waits.filter((wait) => wait === 0).length).toBe(10)
    expect(await attemptsOf('parallel')).toBe(10)
    expect(await attemptsOf('parallel-shared')).toBe(10)
  })

  test('the sweep deletes ended windows and lapsed clients, at most a batch at a time, live ones never', async () => {
    const later = NOW + 10 * 3_600_000
    await database.handle.db.deleteFrom('attempt_budgets').execute()
    await database.handle.db.insertInto('attempt_budgets').values([
      { key: 'ended-1', attempts: 3, ends_at: later - 2 },
      { key: 'ended-2', attempts: 3, ends_at: later - 1 },
      { key: 'ended-3', attempts: 3, ends_at: later },
      { key: 'live', attempts: 3, ends_at: later + 1 },
    ]).execute()
    await database.handle.db.insertInto('attempt_known_clients').values([
      { key: 'lapsed', known_until: later },
      { key: 'known', known_until: later + 1 },
    ]).execute()
    await repo.sweep(later, 2)
    const left = async () => (await database.handle.db.selectFrom('attempt_budgets').select('key').orderBy('key').execute()).map((row) => row.key)
    expect((await left()).length).toBe(2)
    expect(await left()).toContain('live')
    await repo.sweep(later, 2)
    expect(await left()).toEqual(['live'])
    expect((await database.handle.db.selectFrom('attempt_known_clients').select('key').where('key', 'in', ['lapsed', 'known']).execute()).map((row) => row.key)).toEqual(['known'])
  })
})
