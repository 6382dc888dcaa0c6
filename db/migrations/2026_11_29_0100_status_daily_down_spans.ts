import { sql, type Kysely } from 'kysely'

/**
 * The daily status roll-up gains the longest and shortest down span started on each day (and over),
 * so an SLA report's longest outage and its short outages cost the days of the range, not every
 * change in it. Existing rows are filled from the history: each down change lasts until the next
 * change at a later instant. component_status_blocks keeps the same two figures per 16-day block
 * (block = day / 16), so a year reads about 23 blocks and the days at its two edges.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('component_status_daily').addColumn('longest_down_ms', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('component_status_daily').addColumn('shortest_down_ms', 'integer').execute()
  await sql`
    UPDATE component_status_daily SET longest_down_ms = spans.longest, shortest_down_ms = spans.shortest
    FROM (
      SELECT component_id, at / 86400000 AS day, max(until - at) AS longest, min(until - at) AS shortest FROM (
        SELECT h.component_id, h.at, (
          SELECT x.at FROM component_status_history x WHERE x.component_id = h.component_id AND x.at > h.at ORDER BY x.at, x.id LIMIT 1
        ) AS until
        FROM component_status_history h WHERE h.status = 'down'
      ) AS down_changes
      WHERE until IS NOT NULL
      GROUP BY component_id, at / 86400000
    ) AS spans
    WHERE spans.component_id = component_status_daily.component_id AND spans.day = component_status_daily.day`.execute(db)

  await db.schema
    .createTable('component_status_blocks')
    .addColumn('component_id', 'integer', (c) => c.notNull().references('components.id').onDelete('cascade'))
    .addColumn('block', 'integer', (c) => c.notNull())
    .addColumn('longest_down_ms', 'integer', (c) => c.notNull())
    .addColumn('shortest_down_ms', 'integer')
    .addPrimaryKeyConstraint('component_status_blocks_pk', ['component_id', 'block'])
    .modifyEnd(sql`without rowid`)
    .execute()
  await sql`
    INSERT INTO component_status_blocks (component_id, block, longest_down_ms, shortest_down_ms)
    SELECT component_id, day / 16, max(longest_down_ms), min(shortest_down_ms) FROM component_status_daily GROUP BY component_id, day / 16`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('component_status_blocks').execute()
  await db.schema.alterTable('component_status_daily').dropColumn('shortest_down_ms').execute()
  await db.schema.alterTable('component_status_daily').dropColumn('longest_down_ms').execute()
}
