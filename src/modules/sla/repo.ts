/**
 * The SLA feature's SQL (Kysely only): targets, page settings, the alerts' once-per-threshold rows,
 * and the report's reads: cumulative daily roll-up rows at the strip's boundaries, the down and
 * degraded spans of the range (from the daily rows' longest and shortest outage plus the changes at
 * the range's edges), maintenance windows and incidents that overlap it. No read scans raw checks
 * and none reads every status change of the range: a year costs its days, not its changes.
 */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'
import { engineSql } from '../../db/engine.ts'
import { DAY_MS } from '../../lib/time.ts'
import { BLOCK_DAYS } from '../analytics/rollup.ts'
import type { ComponentStatus } from '../components/tables.ts'
import type { SlaTargetsTable } from './tables.ts'

/** A target as the reports read it: its table row without the bookkeeping times. */
export type TargetRow = Omit<SlaTargetsTable, 'created_at' | 'updated_at'>

export type TargetWrite = Omit<TargetRow, 'page_id'> & { page_id: number; now: number }

export class SlaRepo {
  constructor(readonly db: Db) {}

  transaction<T>(work: (repo: SlaRepo, trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new SlaRepo(trx), trx))
  }

  componentsOfPage(pageId: number) {
    return this.db
      .selectFrom('components as c')
      .select([
        'c.id',
        'c.name',
        (eb) =>
          eb
            .selectFrom('component_status_history as h')
            .select('h.at')
            .whereRef('h.component_id', '=', 'c.id')
            .orderBy('h.at')
            .limit(1)
            .as('known_from'),
      ])
      .where('c.page_id', '=', pageId)
      .orderBy('c.position')
      .orderBy('c.id')
      .execute()
  }

  targetsOfPage(pageId: number): Promise<TargetRow[]> {
    return this.db
      .selectFrom('sla_targets')
      .select(['component_id', 'page_id', 'target_ppm', 'period', 'degraded_counts_as', 'exclude_maintenance', 'min_outage_s', 'breach_alerts', 'public_budget'])
      .where('page_id', '=', pageId)
      .execute()
  }

  async upsertTarget(row: TargetWrite): Promise<void> {
    const { now, ...values } = row
    await this.db
      .insertInto('sla_targets')
      .values({ ...values, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('component_id').doUpdateSet({
          target_ppm: values.target_ppm,
          period: values.period,
          degraded_counts_as: values.degraded_counts_as,
          exclude_maintenance: values.exclude_maintenance,
          min_outage_s: values.min_outage_s,
          breach_alerts: values.breach_alerts,
          public_budget: values.public_budget,
          updated_at: now,
        }),
      )
      .execute()
  }

  async deleteTarget(componentId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('sla_targets').where('component_id', '=', componentId).executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  cursorsOfPage(pageId: number) {
    return this.db.selectFrom('component_status_cursor').select(['component_id', 'first_day', 'status', 'since']).where('page_id', '=', pageId).execute()
  }

  /** Cumulative rows of the page's components at the given days, and each component's latest row (its cursor's day). */
  async cumulativeRows(pageId: number, days: readonly number[]) {
    const atDays =
      days.length === 0
        ? []
        : await this.db
            .selectFrom('component_status_daily')
            .select(['component_id', 'day', 'cum_up_ms', 'cum_degraded_ms', 'cum_down_ms', 'cum_outages'])
            .where('component_id', 'in', (eb) => eb.selectFrom('components').select('id').where('page_id', '=', pageId))
            .where('day', 'in', days)
            .execute()
    const latest = await this.db
      .selectFrom('component_status_cursor as cs')
      .innerJoin('component_status_daily as d', (join) =>
        join.onRef('d.component_id', '=', 'cs.component_id').on('d.day', '=', sql<number>`cs.since / 86400000`),
      )
      .select(['d.component_id', 'd.day', 'd.cum_up_ms', 'd.cum_degraded_ms', 'd.cum_down_ms', 'd.cum_outages'])
      .where('cs.page_id', '=', pageId)
      .execute()
    return { atDays, latest }
  }

  /**
   * What the cumulative roll-ups cannot tell, per component over [from, end) (`from` is a UTC
   * midnight): the longest down span clipped to the range, and the down and degraded spans that
   * need a time of day: down spans shorter than `minOutageMs` (the policy may not count them; only
   * read when a target asks) and spans that overlap a maintenance window (index seeks per window).
   * `until` is null while a span lasts (or lasts past `end`).
   *
   * The cost follows neither the changes nor the days of the range: the daily rows keep the longest
   * and shortest down span started on each day, and component_status_blocks the same per 16 days.
   * Both are exact for every day before the day of the component's last change before `end` (the
   * spans started then are over by then): the whole blocks in between are read as blocks, the days
   * at the two edges as days. As changes, only that last day's, the span in force when the range
   * opens, and those of days that hold an outage shorter than the policy's minimum are read.
   */
  async spans(pageId: number, from: number, end: number, minOutageMs: number) {
    const next = (row: string) =>
      sql`(SELECT x.at FROM component_status_history x WHERE x.component_id = ${sql.ref(`${row}.component_id`)} AND x.at > ${sql.ref(`${row}.at`)} ORDER BY x.at, x.id LIMIT 1)`
    const fn = engineSql(this.db)
    const fromDay = Math.floor(from / DAY_MS)
    const firstBlock = Math.ceil(fromDay / BLOCK_DAYS)
    // Per component: the day of its last change before `end` (materialised: read once, not per row),
    // and where whole blocks end before it.
    const edges = sql`WITH edges AS MATERIALIZED (
      SELECT c.id AS component_id, (
        SELECT x.at FROM component_status_history x WHERE x.component_id = c.id AND x.at < ${end} ORDER BY x.at DESC, x.id DESC LIMIT 1
      ) / ${DAY_MS} AS last_day FROM components c WHERE c.page_id = ${pageId})`
    // The days before the first whole block, and those from the last block's start to the last day
    // (together: every day of the range when it holds no whole block).
    const head = sql`d.component_id = e.component_id AND d.day >= ${fromDay} AND d.day < ${fn.least(sql`${firstBlock * BLOCK_DAYS}`, sql`e.last_day`)}`
    const tail = sql`d.component_id = e.component_id AND d.day >= ${fn.greatest(sql`e.last_day / ${BLOCK_DAYS} * ${BLOCK_DAYS}`, sql`${fromDay}`)} AND d.day < e.last_day`
    const wholeBlocks = sql`b.component_id = e.component_id AND b.block >= ${firstBlock} AND b.block < e.last_day / ${BLOCK_DAYS}`
    type Change = { component_id: number; status: ComponentStatus; at: number; until: number | null }
    type Longest = { component_id: number; head: number | null; tail: number | null; middle: number | null }
    const [opening, days, lastDay, shortDays] = await Promise.all([
      // The span in force when the range opens, when it is an outage.
      sql<Change>`SELECT h.component_id, h.status, h.at, ${next('h')} AS until FROM components c
        JOIN component_status_history h ON h.id = (
          SELECT x.id FROM component_status_history x WHERE x.component_id = c.id AND x.at < ${from} ORDER BY x.at DESC, x.id DESC LIMIT 1)
        WHERE c.page_id = ${pageId} AND h.status = 'down'`.execute(this.db),
      // Correlated maxima read each component's rows through the primary keys (a join would sort them).
      sql<Longest>`${edges}
        SELECT e.component_id,
          (SELECT max(d.longest_down_ms) FROM component_status_daily d WHERE ${head}) AS head,
          (SELECT max(d.longest_down_ms) FROM component_status_daily d WHERE ${tail}) AS tail,
          (SELECT max(b.longest_down_ms) FROM component_status_blocks b WHERE ${wholeBlocks}) AS middle
        FROM edges e`.execute(this.db),
      sql<Change>`${edges}
        SELECT h.component_id, h.status, h.at, ${next('h')} AS until FROM edges e
        JOIN component_status_history h ON h.component_id = e.component_id AND h.at >= e.last_day * ${DAY_MS} AND h.at >= ${from} AND h.at < ${end}
        WHERE h.status = 'down'`.execute(this.db),
      minOutageMs <= 0
        ? { rows: [] as Change[] }
        : sql<Change>`${edges}, short_days AS (
          SELECT d.component_id, d.day FROM edges e JOIN component_status_daily d ON ${head} AND d.shortest_down_ms < ${minOutageMs}
          UNION
          SELECT d.component_id, d.day FROM edges e JOIN component_status_daily d ON ${tail} AND d.shortest_down_ms < ${minOutageMs}
          UNION
          SELECT d.component_id, d.day FROM edges e
          JOIN component_status_blocks b ON ${wholeBlocks} AND b.shortest_down_ms < ${minOutageMs}
          JOIN component_status_daily d ON d.component_id = b.component_id AND d.day >= b.block * ${BLOCK_DAYS} AND d.day < (b.block + 1) * ${BLOCK_DAYS}
            AND d.shortest_down_ms < ${minOutageMs})
        SELECT h.component_id, h.status, h.at, ${next('h')} AS until FROM short_days s
        JOIN component_status_history h ON h.component_id = s.component_id AND h.at >= s.day * ${DAY_MS} AND h.at < (s.day + 1) * ${DAY_MS}
        WHERE h.status = 'down'`.execute(this.db),
    ])
    const longestBy = new Map<number, number>()
    const consider = (componentId: number, ms: number) => {
      if (ms > (longestBy.get(componentId) ?? 0)) longestBy.set(componentId, ms)
    }
    const lengthOf = (change: Change) => (change.until ?? end) - change.at
    const clipped = (change: Change) => Math.min(change.until ?? end, end) - Math.max(change.at, from)
    for (const change of [...opening.rows, ...lastDay.rows]) if (lengthOf(change) >= minOutageMs) consider(change.component_id, clipped(change))
    for (const row of days.rows) {
      const longest = Math.max(row.head ?? 0, row.tail ?? 0, row.middle ?? 0)
      if (longest > 0 && longest >= minOutageMs) consider(row.component_id, longest)
    }
    const longest = [...longestBy].map(([component_id, ms]) => ({ component_id, longest: ms }))
    const short = minOutageMs <= 0 ? [] : [...shortDays.rows, ...lastDay.rows].filter((change) => lengthOf(change) < minOutageMs)
    // Inside each window: the changes in it, and the status in force when it opens.
    const windows = sql`(SELECT start_at, end_at FROM maintenances WHERE page_id = ${pageId} AND end_at > ${from} AND start_at < ${end} LIMIT 1000)`
    const maintained = await sql<{ component_id: number; status: ComponentStatus; at: number; until: number | null }>`
      SELECT h.component_id, h.status, h.at, ${next('h')} AS until FROM ${windows} m
      JOIN component_status_history h ON h.component_id IN (SELECT id FROM components WHERE page_id = ${pageId}) AND h.at >= m.start_at AND h.at < m.end_at
      WHERE h.status != 'up'
      UNION
      SELECT h.component_id, h.status, h.at, ${next('h')} FROM ${windows} m
      JOIN components c ON c.page_id = ${pageId}
      JOIN component_status_history h ON h.id = (
        SELECT x.id FROM component_status_history x WHERE x.component_id = c.id AND x.at < m.start_at ORDER BY x.at DESC, x.id DESC LIMIT 1)
      WHERE h.status != 'up'`.execute(this.db)
    const seen = new Set<string>()
    const spans = [...short, ...maintained.rows]
      .filter((row) => {
        const id = `${row.component_id}:${row.at}`
        return seen.has(id) ? false : (seen.add(id), true)
      })
      .sort((a, b) => a.component_id - b.component_id || a.at - b.at)
    return { longest, spans }
  }

  async maintenances(pageId: number, from: number, end: number) {
    const rows = await this.db
      .selectFrom('maintenances as m')
      .select(['m.id', 'm.title', 'm.start_at', 'm.end_at', sql<string>`(SELECT ${engineSql(this.db).jsonArrayText(sql.ref('component_id'))} FROM maintenance_components WHERE maintenance_id = m.id)`.as('components')])
      .where('m.page_id', '=', pageId)
      .where('m.end_at', '>', from)
      .where('m.start_at', '<', end)
      .orderBy('m.start_at')
      .limit(1000)
      .execute()
    return rows.map((row) => ({ ...row, components: JSON.parse(row.components) as number[] }))
  }

  async incidents(pageId: number, from: number, to: number) {
    const rows = await this.db
      .selectFrom('incidents as i')
      .select(['i.id', 'i.title', 'i.started_at', 'i.resolved_at', sql<string>`(SELECT ${engineSql(this.db).jsonArrayText(sql.ref('component_id'))} FROM incident_components WHERE incident_id = i.id)`.as('components')])
      .where('i.page_id', '=', pageId)
      .where('i.started_at', '<', to)
      .where((eb) => eb.or([eb('i.resolved_at', 'is', null), eb('i.resolved_at', '>', from)]))
      .orderBy('i.started_at')
      .limit(1000)
      .execute()
    return rows.map((row) => ({ ...row, components: JSON.parse(row.components) as number[] }))
  }

  // ---- page settings and the monthly mail ----

  async monthlyReport(pageId: number): Promise<boolean> {
    const row = await this.db.selectFrom('sla_page_settings').select('monthly_report').where('page_id', '=', pageId).executeTakeFirst()
    return row?.monthly_report === 1
  }

  async setMonthlyReport(pageId: number, on: boolean, now: number): Promise<void> {
    await this.db
      .insertInto('sla_page_settings')
      .values({ page_id: pageId, monthly_report: on ? 1 : 0, updated_at: now })
      .onConflict((oc) => oc.column('page_id').doUpdateSet({ monthly_report: on ? 1 : 0, updated_at: now }))
      .execute()
  }

  /** Opted-in pages with no monthly mail recorded for the month starting at `monthStart`, with the team's first owner. */
  monthlyDue(monthStart: number, limit: number) {
    return this.db
      .selectFrom('sla_page_settings as s')
      .innerJoin('status_pages as p', 'p.id', 's.page_id')
      // The team's first owner receives it (the page's owner_id is a team).
      .innerJoin('users as u', (join) =>
        join.on('u.id', '=', (eb) => eb.selectFrom('team_members as m').select((m) => m.fn.min<number>('m.user_id').as('id')).whereRef('m.team_id', '=', 'p.owner_id').where('m.role', '=', 'owner')),
      )
      .select(['p.id as page_id', 'p.name', 'p.slug', 'u.id as owner_id', 'u.email'])
      .where('s.monthly_report', '=', 1)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('sla_monthly_mails as m').select('m.page_id').whereRef('m.page_id', '=', 'p.id').where('m.month_start', '=', monthStart))))
      .orderBy('p.id')
      .limit(limit)
      .execute()
  }

  /** Records the month's mail; false when another run recorded it first. */
  async claimMonthlyMail(pageId: number, monthStart: number, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('sla_monthly_mails')
      .values({ page_id: pageId, month_start: monthStart, sent_at: now })
      .onConflict((oc) => oc.doNothing())
      .returning('sent_at')
      .executeTakeFirst()
    return result !== undefined
  }

  // ---- breach alerts ----

  /** Pages that have at least one target with breach alerts on. */
  pagesWithAlertTargets() {
    return this.db
      .selectFrom('status_pages as p')
      .select(['p.id', 'p.name', 'p.slug'])
      .where((eb) => eb.exists(eb.selectFrom('sla_targets as t').select('t.page_id').whereRef('t.page_id', '=', 'p.id').where('t.breach_alerts', '=', 1)))
      .orderBy('p.id')
      .execute()
  }

  /** Records a threshold for a period; false when it was recorded before (the primary key). */
  async claimAlert(componentId: number, periodStart: number, threshold: number, usedPct: number, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('sla_alerts')
      .values({ component_id: componentId, period_start: periodStart, threshold, used_pct: usedPct, sent_at: now })
      .onConflict((oc) => oc.doNothing())
      .returning('sent_at')
      .executeTakeFirst()
    return result !== undefined
  }

  alertsOf(componentIds: readonly number[]) {
    if (componentIds.length === 0) return Promise.resolve([])
    return this.db.selectFrom('sla_alerts').selectAll().where('component_id', 'in', componentIds).orderBy('sent_at').execute()
  }
}
