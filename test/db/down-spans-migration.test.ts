import { expect, test } from 'bun:test'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { databaseBefore } from '../helpers/database-before.ts'
import { rollUp } from '../../src/modules/analytics/rollup.ts'

const DAY = 86_400_000
const at = (day: number, hours: number) => day * DAY + hours * 3_600_000

// An instance upgraded with history already rolled up: the migration fills the new longest /
// shortest outage columns from the history, as the roll-up now writes them.
test('the down-span migration fills existing daily rows from the history', async () => {
  const database = await databaseBefore('2026_11_28_0900_monitor_leases')
  const { db } = database
  try {
    const user = await db.insertInto('users').values({ email: 'a@example.com', password_hash: 'x', plan: 'free', is_admin: 0, created_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const page = await db.insertInto('status_pages').values({ owner_id: user.id, slug: 'p', name: 'P', visibility: 'public', created_at: 0, updated_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const component = await db.insertInto('components').values({ page_id: page.id, name: 'C', status: 'up', type: 'site', position: 0, created_at: 0, updated_at: 0 }).returning('id').executeTakeFirstOrThrow()
    const day = 20_000
    const history = [
      { status: 'up' as const, at: at(day, 0) },
      { status: 'down' as const, at: at(day, 10) }, // 30 min
      { status: 'up' as const, at: at(day, 10.5) },
      { status: 'down' as const, at: at(day, 20) }, // 30 h, over two midnights
      { status: 'degraded' as const, at: at(day + 2, 2) },
      { status: 'down' as const, at: at(day + 4, 1) }, // still going
    ]
    await db.insertInto('component_status_history').values(history.map((h) => ({ component_id: component.id, ...h }))).execute()
    const rows = rollUp({ startDay: day, before: undefined, cum: { up_ms: 0, degraded_ms: 0, down_ms: 0, outages: 0 }, entries: history })
    await db
      .insertInto('component_status_daily')
      .values(rows.map(({ longest_down_ms: _l, shortest_down_ms: _s, ...row }) => ({ component_id: component.id, page_id: page.id, ...row })) as never)
      .execute()

    expect(await migrateToLatest(db)).toContain('2026_11_29_0100_status_daily_down_spans')
    const filled = await db.selectFrom('component_status_daily').select(['day', 'longest_down_ms', 'shortest_down_ms']).orderBy('day').execute()
    expect(filled).toEqual([
      { day, longest_down_ms: 30 * 3_600_000, shortest_down_ms: 30 * 60_000 },
      { day: day + 1, longest_down_ms: 0, shortest_down_ms: null },
      { day: day + 2, longest_down_ms: 0, shortest_down_ms: null },
      { day: day + 3, longest_down_ms: 0, shortest_down_ms: null },
      { day: day + 4, longest_down_ms: 0, shortest_down_ms: null },
    ])
    // The same figures the roll-up writes for new history.
    expect(filled).toEqual(rows.map((r) => ({ day: r.day, longest_down_ms: r.longest_down_ms, shortest_down_ms: r.shortest_down_ms })))
    // And the 16-day blocks (day 20,000 is day 0 of block 1,250).
    const blocks = await db.selectFrom('component_status_blocks').select(['block', 'longest_down_ms', 'shortest_down_ms']).execute()
    expect(blocks).toEqual([{ block: 1250, longest_down_ms: 30 * 3_600_000, shortest_down_ms: 30 * 60_000 }])
  } finally {
    await database.dispose()
  }
})
