/**
 * The monitors' write of a tick (recordWithin) stores every component's buckets and response-time
 * roll-ups in a few statements per batch. What it stores must be what recording each component on
 * its own stores: the same minute and day buckets, the same daily and running response-time rows
 * and cursors, and the same page rows, across pages, UTC days, untimed checks, more components than
 * one statement takes, and a component named twice in the batch.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { DAY_MS, MINUTE_MS } from '../../../src/lib/time.ts'
import type { CheckResult } from '../../../src/modules/component-checks/rollup.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

const NOW = Date.UTC(2026, 10, 1, 0, 0, 30)
/** More than one multi-row statement holds (100 rows). */
const COMPONENTS = 130
let ctx: TestContext
/** Per side (batched, one at a time): two pages, the components split between them. */
const sides: Record<'batched' | 'single', { pages: number[]; components: number[] }> = { batched: { pages: [], components: [] }, single: { pages: [], components: [] } }

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  const owner = await ctx.createOwner()
  for (const side of ['batched', 'single'] as const) {
    for (let p = 0; p < 2; p++) {
      const page = await ctx.createPage(owner.key, { slug: `batch-${side}-${p}`, name: `${side} ${p}` })
      sides[side].pages.push(page.id)
    }
    for (let i = 0; i < COMPONENTS; i++) {
      const component = await ctx.app.services.components.create(owner.user, sides[side].pages[i % 2]!, { name: `C${i}` })
      sides[side].components.push(component.id)
    }
  }
})
afterAll(() => ctx.close())

/** Component i's checks: some just before midnight UTC, some after, one untimed, one failed. */
function checksOf(i: number): CheckResult[] {
  const checks: CheckResult[] = [
    { at: NOW - MINUTE_MS - i, ok: true, responseMs: 100 + i },
    { at: NOW - 5_000, ok: i % 3 !== 0, responseMs: i % 4 === 0 ? null : 200 + 3 * i },
    { at: NOW, ok: true, responseMs: 50 + (i % 7) * 40 },
  ]
  // A few components also report a check from three days back (a longer running-total rewrite).
  if (i % 10 === 0) checks.push({ at: NOW - 3 * DAY_MS, ok: true, responseMs: 900 })
  return checks
}

/** The rows a side's components and pages hold, with ids replaced by their place on that side. */
async function storedOf(side: 'batched' | 'single') {
  const { pages, components } = sides[side]
  const db = ctx.database.db
  const place = (id: number) => components.indexOf(id)
  const pagePlace = (id: number) => pages.indexOf(id)
  const byPlace = <T extends object>(rows: T[]) => rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
  const bytes = (value: unknown) => (value == null ? null : Buffer.from(value as Uint8Array).toString('hex'))
  const minutes = await db.selectFrom('check_minutes').selectAll().where('component_id', 'in', components).execute()
  const days = await db.selectFrom('check_days').selectAll().where('component_id', 'in', components).execute()
  const responseDays = await db.selectFrom('component_response_daily').selectAll().where('component_id', 'in', components).execute()
  const cursors = await db.selectFrom('component_response_cursor').selectAll().where('component_id', 'in', components).execute()
  const pageDays = await db.selectFrom('page_response_daily').selectAll().where('page_id', 'in', pages).execute()
  return {
    minutes: byPlace(minutes.map((row) => ({ ...row, component_id: place(row.component_id) }))),
    days: byPlace(days.map((row) => ({ ...row, component_id: place(row.component_id) }))),
    responseDays: byPlace(responseDays.map((row) => ({ ...row, component_id: place(row.component_id), hist: bytes(row.hist), cum_hist: bytes(row.cum_hist) }))),
    cursors: byPlace(cursors.map((row) => ({ ...row, component_id: place(row.component_id), page_id: pagePlace(row.page_id) }))),
    pageDays: byPlace(pageDays.map((row) => ({ ...row, page_id: pagePlace(row.page_id), hist: bytes(row.hist) }))),
  }
}

test('one batch of many components stores what recording them one by one stores', async () => {
  const checks = ctx.app.services.checks
  const db = ctx.database.db
  // Twice over, so the second pass adds to rows the first one wrote.
  for (let pass = 0; pass < 2; pass++) {
    const batch = sides.batched.components.map((componentId, i) => ({ componentId, checks: checksOf(i + pass) }))
    // The first component named twice: its checks are added up, not written twice in one statement.
    const [firstChecks, ...rest] = checksOf(pass)
    batch[0] = { componentId: sides.batched.components[0]!, checks: [firstChecks!] }
    batch.push({ componentId: sides.batched.components[0]!, checks: rest })
    await db.transaction().execute((trx) => checks.recordWithin(trx, batch, { raw: false }))
    for (const [i, componentId] of sides.single.components.entries()) await checks.record(componentId, checksOf(i + pass))
  }

  const batched = await storedOf('batched')
  const single = await storedOf('single')
  // The comparison is not empty: every component has buckets on both days and running totals.
  expect(single.minutes.length).toBeGreaterThanOrEqual(2 * COMPONENTS)
  expect(single.cursors.length).toBe(COMPONENTS)
  expect(single.pageDays.length).toBeGreaterThanOrEqual(4)
  expect(single.responseDays.some((row) => row.cum_n > row.n)).toBe(true)
  expect(batched).toEqual(single)

  // And it is right, counted here from the checks themselves: per page and UTC day, the timed
  // checks and their sum; per component and day, every check and the successful ones.
  const expectedPageDays = new Map<string, { n: number; sum_ms: number }>()
  const expectedDays = new Map<string, { checks: number; ok_checks: number }>()
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < COMPONENTS; i++) {
      for (const check of checksOf(i + pass)) {
        const day = Math.floor(check.at / DAY_MS)
        const dayKey = `${i}:${day * DAY_MS}`
        const counted = expectedDays.get(dayKey) ?? { checks: 0, ok_checks: 0 }
        expectedDays.set(dayKey, { checks: counted.checks + 1, ok_checks: counted.ok_checks + (check.ok ? 1 : 0) })
        if (check.responseMs === null) continue
        const pageKey = `${i % 2}:${day}`
        const page = expectedPageDays.get(pageKey) ?? { n: 0, sum_ms: 0 }
        expectedPageDays.set(pageKey, { n: page.n + 1, sum_ms: page.sum_ms + check.responseMs })
      }
    }
  }
  for (const stored of [batched, single]) {
    expect(new Map(stored.pageDays.map((row) => [`${row.page_id}:${row.day}`, { n: row.n, sum_ms: row.sum_ms }]))).toEqual(expectedPageDays)
    expect(new Map(stored.days.map((row) => [`${row.component_id}:${row.day}`, { checks: row.checks, ok_checks: row.ok_checks }]))).toEqual(expectedDays)
  }
})
