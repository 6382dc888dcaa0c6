/** What a scrape reads from the database: its size, the monitors' stored state and the outbox queue. */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import { engineOf } from '../../db/engine.ts'
import type { MonitorState } from '../monitors/run/index.ts'
import type { StoredMonitorType } from '../monitors/tables.ts'
import type { OutboxKind } from '../notify/tables.ts'

/** Ids per `in (…)` list: well under both engines' limits on bound parameters. */
const IDS_PER_QUERY = 500

export interface MonitorScrapeRow {
  id: number
  type: StoredMonitorType
  state: MonitorState
  enabled: number
  last_check_at: number | null
  last_outcome: string | null
  /** SSL monitors: the certificate's notAfter as last stored (ms). */
  cert_not_after: number | null
}

/** Queued outbox rows by recipient: `channel:<id>` for owner channels, `subscriber` or `direct` for the rest. */
export interface QueuedRow {
  recipient: string
  kind: OutboxKind
  queued: number
}

export class MetricsRepo {
  constructor(private readonly db: Db) {}

  /** Bytes of the database: SQLite's file in use (pages times page size, the write-ahead log aside), or PostgreSQL's database. */
  async databaseSizeBytes(): Promise<number> {
    const query = engineOf(this.db) === 'postgres'
      ? sql<{ size: number }>`select pg_database_size(current_database()) as size`
      : sql<{ size: number }>`select page_count * page_size as size from pragma_page_count(), pragma_page_size()`
    const { rows } = await query.execute(this.db)
    return Number(rows[0]?.size ?? 0)
  }

  /** Every monitor, lowest id first (the order per-monitor series are given out in). */
  monitors(): Promise<MonitorScrapeRow[]> {
    return this.db
      .selectFrom('monitors')
      .leftJoin('monitor_tool_states', 'monitor_tool_states.monitor_id', 'monitors.id')
      .select(['monitors.id', 'monitors.type', 'monitors.state', 'monitors.enabled', 'monitors.last_check_at', 'monitors.last_outcome', 'monitor_tool_states.cert_not_after'])
      .orderBy('monitors.id')
      .execute()
  }

  /** The time of each monitor's latest `ok` result still in the raw log (kept one day); absent: none there. */
  async lastSuccesses(ids: readonly number[]): Promise<Map<number, number>> {
    const found = new Map<number, number>()
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const rows = await this.db
        .selectFrom('monitor_results')
        .select(['monitor_id', (eb) => eb.fn.max('at').as('at')])
        .where('outcome', '=', 'ok')
        .where('monitor_id', 'in', ids.slice(i, i + IDS_PER_QUERY))
        .groupBy('monitor_id')
        .execute()
      for (const row of rows) found.set(row.monitor_id, Number(row.at))
    }
    return found
  }

  /** Rows waiting in the outbox (retries included), by recipient and kind. */
  async queued(): Promise<QueuedRow[]> {
    const { rows } = await sql<QueuedRow>`
      SELECT recipient, kind, count(*) AS queued FROM (
        SELECT CASE WHEN target LIKE 'channel:%' THEN target WHEN target LIKE 'subscriber:%' THEN 'subscriber' ELSE 'direct' END AS recipient, kind
        FROM outbox WHERE status = 'queued'
      ) AS waiting
      GROUP BY recipient, kind`.execute(this.db)
    return rows.map((row) => ({ ...row, queued: Number(row.queued) }))
  }

  /** The type of each of these owner channels that still exists. */
  async channelTypes(ids: readonly number[]): Promise<Map<number, string>> {
    const found = new Map<number, string>()
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const rows = await this.db.selectFrom('notification_channels').select(['id', 'type']).where('id', 'in', ids.slice(i, i + IDS_PER_QUERY)).execute()
      for (const row of rows) found.set(row.id, row.type)
    }
    return found
  }
}
