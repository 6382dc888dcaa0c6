/**
 * The per-page minute roll-up (page_check_minutes) behind the status JSON's `rtm`: kept in step with
 * the per-component minute buckets by triggers, it must always equal their sum per page and minute,
 * whatever writes them (batches into the same minute, across a UTC midnight, retention pruning,
 * deleted components and pages), and the snapshot's response times must equal the raw answer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Migrator, sql } from 'kysely'
import { migrations } from '../../../db/migrations/index.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { DAY_MS, MINUTE_MS } from '../../../src/lib/time.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { minuteMeans } from '../../helpers/minutes.ts'

/** Half an hour before a UTC midnight: the series below cross it. */
const NOW = Date.UTC(2026, 10, 20, 23, 30, 0)
const iso = (ms: number) => new Date(ms).toISOString()

let ctx: TestContext
let owner: Owner
const pages = { a: 0, b: 0 }
const comps = { api: 0, web: 0, dns: 0, other: 0 }

/** Timed and untimed checks of one component over `minutes` minutes ending at `end` (deterministic values). */
const batch = (seed: number, end: number, minutes: number) =>
  Array.from({ length: minutes }, (_, i) => ({
    at: iso(end - i * MINUTE_MS - seed * 1000),
    ok: (i + seed) % 5 !== 0,
    response_ms: (i + seed) % 7 === 0 ? null : 40 + ((i * 13 + seed * 29) % 300),
  }))

/** The roll-up as stored, and the same figures summed from the component buckets. */
async function rollupAndRaw() {
  const db = ctx.database.db
  const rollup = await sql<Record<string, number>>`SELECT page_id, minute, checks, timed_checks, response_ms_sum FROM page_check_minutes ORDER BY page_id, minute`.execute(db)
  const raw = await sql<Record<string, number>>`SELECT c.page_id, m.minute, sum(m.checks) AS checks, sum(m.timed_checks) AS timed_checks, sum(m.response_ms_sum) AS response_ms_sum
    FROM check_minutes m JOIN components c ON c.id = m.component_id GROUP BY c.page_id, m.minute ORDER BY c.page_id, m.minute`.execute(db)
  return { rollup: rollup.rows, raw: raw.rows }
}

async function expectInStep(pageIds: Array<[number, number[]]>, now: number) {
  const { rollup, raw } = await rollupAndRaw()
  expect(rollup).toEqual(raw)
  for (const [pageId, componentIds] of pageIds) {
    const snap = await ctx.app.services.pageStatus.snapshot(pageId, { now, rtmMinutes: 90 })
    expect(snap.responseTimes).toEqual(await minuteMeans(ctx.database.db, componentIds, now, 90))
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  owner = (await ctx.createOwner('business')).user
  const { pages: pagesService, components } = ctx.app.services
  pages.a = (await pagesService.create(owner, { slug: 'roll-a', name: 'A' })).id
  pages.b = (await pagesService.create(owner, { slug: 'roll-b', name: 'B' })).id
  comps.api = (await components.create(owner, pages.a, { name: 'API' })).id
  comps.web = (await components.create(owner, pages.a, { name: 'Web' })).id
  comps.dns = (await components.create(owner, pages.a, { name: 'DNS' })).id
  comps.other = (await components.create(owner, pages.b, { name: 'Other' })).id
})
afterAll(() => ctx.close())

describe('page_check_minutes', () => {
  test('equals the component buckets summed per page and minute, across a UTC midnight and repeated batches', async () => {
    const { checks } = ctx.app.services
    await checks.ingest(owner, comps.api, batch(1, NOW, 60))
    await checks.ingest(owner, comps.web, batch(2, NOW, 45))
    await checks.ingest(owner, comps.other, batch(3, NOW, 30))
    // After midnight: new minutes, and a second batch into minutes that already have buckets.
    const later = NOW + 50 * MINUTE_MS
    ctx.clock.set(later)
    await checks.ingest(owner, comps.dns, batch(4, later, 80))
    await checks.ingest(owner, comps.api, batch(5, later, 70))
    const { rollup } = await rollupAndRaw()
    expect(rollup.length).toBeGreaterThan(80)
    expect(rollup.some((r) => r.minute! < Date.UTC(2026, 10, 21)) && rollup.some((r) => r.minute! >= Date.UTC(2026, 10, 21))).toBe(true)
    await expectInStep(
      [
        [pages.a, [comps.api, comps.web, comps.dns]],
        [pages.b, [comps.other]],
      ],
      later,
    )
  })

  test('retention pruning (per component and for all) removes the same minutes, leaving no empty rows', async () => {
    const { checks } = ctx.app.services
    const later = NOW + 2 * DAY_MS + 20 * MINUTE_MS
    ctx.clock.set(later)
    // Recording prunes this component's old minutes; pruneAll the others'.
    await checks.ingest(owner, comps.web, batch(6, later, 10))
    await expectInStep([[pages.a, [comps.api, comps.web, comps.dns]]], later)
    await checks.pruneAll()
    const { rollup } = await rollupAndRaw()
    expect(rollup.every((r) => r.checks! > 0)).toBe(true)
    expect(rollup.every((r) => r.minute! >= later - DAY_MS * 2)).toBe(true)
    await expectInStep([[pages.a, [comps.web]]], later)
    ctx.clock.set(NOW + 50 * MINUTE_MS)
  })

  test('deleting a component takes its minutes out of its page; deleting a page takes the page rows', async () => {
    const { checks, components, pages: pagesService } = ctx.app.services
    const now = NOW + 2 * DAY_MS + 30 * MINUTE_MS
    ctx.clock.set(now)
    await checks.ingest(owner, comps.api, batch(7, now, 20))
    await checks.ingest(owner, comps.dns, batch(8, now, 20))
    await checks.ingest(owner, comps.other, batch(9, now, 20))
    await components.delete(owner, comps.dns)
    await expectInStep(
      [
        [pages.a, [comps.api, comps.web]],
        [pages.b, [comps.other]],
      ],
      now,
    )
    await pagesService.delete(owner, pages.b)
    const { rollup } = await rollupAndRaw()
    expect(rollup.some((r) => r.page_id === pages.b)).toBe(false)
    await expectInStep([[pages.a, [comps.api, comps.web]]], now)
  })

  test('the migration fills the roll-up from the buckets already stored (down, then up again)', async () => {
    const db = ctx.database.db
    const before = await rollupAndRaw()
    expect(before.raw.length).toBeGreaterThan(0)
    // Back to the migration before it (and whatever came later), then up again.
    const down = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo('2026_11_25_0320_create_response_rollups')
    expect(down.error).toBeUndefined()
    expect(down.results?.map((r) => r.migrationName)).toContain('2026_11_26_0300_create_page_check_minutes')
    expect(await migrateToLatest(db)).toContain('2026_11_26_0300_create_page_check_minutes')
    const after = await rollupAndRaw()
    expect(after.rollup).toEqual(before.raw)
    expect(after.rollup).toEqual(before.rollup)
  })
})
