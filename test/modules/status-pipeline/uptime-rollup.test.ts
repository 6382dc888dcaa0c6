/**
 * Daily uptime from the daily status roll-ups (component_status_daily and its cursor) must equal
 * uptime from the raw status history (`dailyUptime` over the changes, the one definition) at every
 * instant: across UTC midnights, for a component created inside the window, after an import of
 * older history, with a change later than the instant asked, and around maintenance windows (which
 * the raw history answers: the roll-ups hold no time of day).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import type { ComponentStatus } from '../../../src/modules/components/tables.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { PageStatusRepo } from '../../../src/modules/status-pipeline/repo.ts'
import { dailyUptime, windowStart } from '../../../src/modules/status-pipeline/uptime.ts'
import { maintenanceWindowsOf } from '../../../src/modules/status-pipeline/windows.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

const H = 3_600_000
const DAY = 24 * H
/** Midday, so the instants below fall on both sides of midnights. */
const START = Date.UTC(2026, 10, 1, 12, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()

let ctx: TestContext
let owner: Owner
let pageId: number
const ids = { steady: 0, flappy: 0, late: 0 }

/** The raw answer: every change of each component, through the one uptime definition. */
async function rawDays(now: number, days: number) {
  const from = windowStart(now, days)
  const db = ctx.database.db
  const windows = await db.selectFrom('maintenances').select(['id', 'start_at', 'end_at']).where('page_id', '=', pageId).execute()
  const covers = await db.selectFrom('maintenance_components').select(['maintenance_id', 'component_id']).execute()
  const maintenances = windows.map((m) => ({
    startAt: m.start_at,
    endAt: m.end_at,
    components: covers.filter((c) => c.maintenance_id === m.id).map((c) => ({ id: c.component_id })),
  }))
  const result: Record<number, ReturnType<typeof dailyUptime>> = {}
  for (const id of Object.values(ids)) {
    const history = await sql<{ status: ComponentStatus; at: number }>`SELECT status, at FROM component_status_history WHERE component_id = ${id} ORDER BY at, id`.execute(db)
    const before = history.rows.filter((h) => h.at < from)
    const changes = history.rows.filter((h) => h.at >= from && h.at <= now)
    result[id] = dailyUptime({ changes, statusAtStart: before.at(-1)?.status, maintenance: maintenanceWindowsOf(maintenances, id), days, now })
  }
  return result
}

async function expectSameAsRaw(now: number, days: number) {
  const snap = await ctx.app.services.pageStatus.snapshot(pageId, { now, uptimeDays: days })
  const raw = await rawDays(now, days)
  for (const component of snap.components) expect({ id: component.id, days: component.days }).toEqual({ id: component.id, days: raw[component.id]! })
}

/** Which components the repo answered from the roll-ups (the rest from the raw history). */
async function fromRollups(now: number, days: number) {
  const rows = await new PageStatusRepo(ctx.database.db).snapshotRows({ id: pageId }, now, { uptimeFrom: windowStart(now, days) })
  return rows.components.filter((c) => c.rollup !== undefined).map((c) => c.id)
}

beforeAll(async () => {
  ctx = await createTestContext({ now: START })
  owner = (await ctx.createOwner('business')).user
  const { pages, components } = ctx.app.services
  pageId = (await pages.create(owner, { slug: 'rolled', name: 'Rolled' })).id
  ids.steady = (await components.create(owner, pageId, { name: 'Steady' })).id
  ids.flappy = (await components.create(owner, pageId, { name: 'Flappy' })).id
  // Two outages a day for ten days, one across a midnight, one degraded spell.
  const entries: Array<{ status: string; at: string }> = []
  for (let d = 0; d < 10; d++) {
    const midnight = Date.UTC(2026, 10, 2 + d)
    entries.push({ status: 'down', at: iso(midnight - 30 * 60_000) }, { status: 'up', at: iso(midnight + 20 * 60_000) })
    entries.push({ status: 'degraded', at: iso(midnight + 9 * H) }, { status: 'down', at: iso(midnight + 10 * H) }, { status: 'up', at: iso(midnight + 11 * H + 7_000) })
  }
  ctx.clock.set(Date.UTC(2026, 10, 12, 6))
  await components.importHistory(owner, ids.flappy, entries)
  // Created inside the window: the time before it is unknown.
  ctx.clock.set(Date.UTC(2026, 10, 9, 17, 30))
  ids.late = (await components.create(owner, pageId, { name: 'Late' })).id
  ctx.clock.set(Date.UTC(2026, 10, 10, 23, 59, 59))
  await components.update(owner, ids.late, { status: 'down' })
  ctx.clock.set(Date.UTC(2026, 10, 11, 0, 0, 0))
  await components.update(owner, ids.late, { status: 'up' })
  ctx.clock.set(Date.UTC(2026, 10, 12, 8))
})
afterAll(() => ctx.close())

describe('uptime from the daily roll-ups', () => {
  const instants = [
    Date.UTC(2026, 10, 12, 8),
    Date.UTC(2026, 10, 12, 0, 0, 0),
    Date.UTC(2026, 10, 12, 0, 0, 1),
    Date.UTC(2026, 10, 11, 23, 59, 59, 999),
    Date.UTC(2026, 10, 20, 15),
  ]

  test('equal the raw history at instants around midnights, for windows of 1, 7 and 30 days, and are the ones read', async () => {
    for (const now of instants) {
      for (const days of [1, 7, 30]) await expectSameAsRaw(now, days)
    }
    expect(await fromRollups(Date.UTC(2026, 10, 12, 8), 7)).toEqual([ids.steady, ids.flappy, ids.late])
  })

  test('a change later than the instant asked: the raw history answers, the same way', async () => {
    const now = Date.UTC(2026, 10, 10, 12)
    await expectSameAsRaw(now, 7)
    // Flappy's and Late's latest changes come after that instant; Steady's does not.
    expect(await fromRollups(now, 7)).toEqual([ids.steady])
  })

  test('an import of older history rewrites the roll-ups, still equal', async () => {
    await ctx.app.services.components.importHistory(owner, ids.steady, [
      { status: 'down', at: iso(Date.UTC(2026, 10, 5, 23)) },
      { status: 'degraded', at: iso(Date.UTC(2026, 10, 6, 2)) },
      { status: 'up', at: iso(Date.UTC(2026, 10, 7, 4)) },
    ])
    for (const now of instants) await expectSameAsRaw(now, 7)
    expect(await fromRollups(Date.UTC(2026, 10, 12, 8), 7)).toEqual([ids.steady, ids.flappy, ids.late])
  })

  test('maintenance windows inside the uptime window are left out, as from the raw history; outside it the roll-ups answer again', async () => {
    const { maintenances } = ctx.app.services
    await maintenances.create(owner, {
      status_page_id: pageId,
      title: 'Across midnight',
      start_at: iso(Date.UTC(2026, 10, 9, 23)),
      end_at: iso(Date.UTC(2026, 10, 10, 2)),
      component_ids: [ids.flappy],
    })
    await maintenances.create(owner, { status_page_id: pageId, title: 'Whole page', start_at: iso(Date.UTC(2026, 10, 11, 9, 30)), end_at: iso(Date.UTC(2026, 10, 11, 10, 30)) })
    for (const now of instants) for (const days of [1, 7, 30]) await expectSameAsRaw(now, days)
    const snap = await ctx.app.services.pageStatus.snapshot(pageId, { now: Date.UTC(2026, 10, 12, 8), uptimeDays: 7 })
    expect(snap.components.find((c) => c.id === ids.flappy)!.days.some((d) => d.maintenanceMs > 0)).toBe(true)
    expect(await fromRollups(Date.UTC(2026, 10, 12, 8), 7)).toEqual([])
    // Eight days later both windows are out of a 7-day window.
    expect(await fromRollups(Date.UTC(2026, 10, 20, 15), 7)).toEqual([ids.steady, ids.flappy, ids.late])
  })
})

test('a component whose history predates the roll-ups (no cursor, no rows): the raw history answers, the same way', async () => {
  const db = ctx.database.db
  await db.deleteFrom('component_status_daily').where('component_id', '=', ids.late).execute()
  await db.deleteFrom('component_status_cursor').where('component_id', '=', ids.late).execute()
  const now = Date.UTC(2026, 10, 20, 15)
  for (const days of [1, 7, 30]) await expectSameAsRaw(now, days)
  const snap = await ctx.app.services.pageStatus.snapshot(pageId, { now, uptimeDays: 30 })
  expect(snap.components.find((c) => c.id === ids.late)!.days.some((d) => d.upMs > 0)).toBe(true)
  expect(await fromRollups(now, 7)).toEqual([ids.steady, ids.flappy])
})
