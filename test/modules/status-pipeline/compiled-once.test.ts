/**
 * The snapshot statement is long (a dozen nested sub-selects) and Kysely rebuilt and compiled its
 * text on every cold read. `compiledOnce` builds it once per shape with named slots and binds each
 * call's values in compile order; these tests pin that binding on the real database.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { compiledOnce } from '../../../src/modules/status-pipeline/compiled-once.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

test('builds the text once and binds every call\'s values to their slots, constants kept', async () => {
  let builds = 0
  const query = compiledOnce<'a' | 'b', { a: number; b: string; c: number; a2: number }>((slot) => {
    builds++
    // Typed casts: PostgreSQL reads an untyped parameter as text.
    return sql`SELECT CAST(${slot.a} AS integer) AS a, CAST(${slot.b} AS text) AS b, CAST(${7} AS integer) AS c, CAST(${slot.a} AS integer) + 1 AS a2`
  })
  const first = await ctx.database.db.executeQuery(query(ctx.database.db, { a: 1, b: 'x' }))
  const second = await ctx.database.db.executeQuery(query(ctx.database.db, { a: 41, b: 'it\'s "y"' }))
  expect(first.rows).toEqual([{ a: 1, b: 'x', c: 7, a2: 2 }])
  expect(second.rows).toEqual([{ a: 41, b: 'it\'s "y"', c: 7, a2: 42 }])
  expect(builds).toBe(1)
})

test('a slot left without a value is refused instead of binding undefined', () => {
  const query = compiledOnce<'a' | 'b'>((slot) => sql`SELECT ${slot.a}, ${slot.b}`)
  expect(() => query(ctx.database.db, { a: 1 } as never)).toThrow(/slot b/)
})
