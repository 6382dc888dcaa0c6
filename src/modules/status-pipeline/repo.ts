/**
 * The reads behind a page's status (Kysely only): the page by slug, and everything a snapshot
 * needs in ONE statement: components (with their status history over the uptime window when asked),
 * unresolved incidents with affected components and timeline, maintenance windows not yet over,
 * the windows that overlap the uptime window, and the per-minute response-time sums of the page's
 * components (the per-page roll-up page_check_minutes) when asked. SQLite builds the nested lists
 * as JSON (`json_group_array` over ordered sub-selects), so a cold status answer costs one round trip to
 * the database instead of ten (each Kysely query has a fixed cost of its own).
 */
import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../db/client.ts'
import { engineOf, type Engine } from '../../db/engine.ts'
import { DAY_MS } from '../../lib/time.ts'
import type { Component } from '../components/service.ts'
import type { ComponentStatus, ComponentType } from '../components/tables.ts'
import type { IncidentImpact, IncidentState } from '../incidents/tables.ts'
import type { Maintenance, MaintenanceUpdateStatus } from '../maintenances/service.ts'
import { findPublicPageBySlug } from '../status-pages/public-lookup.ts'
import { compiledOnce } from './compiled-once.ts'

/** Unresolved incidents and open windows read per snapshot, at most (as the modules' public reads). */
export const SNAPSHOT_LIST_LIMIT = 50
/** Windows overlapping an uptime window, at most (as `MaintenancesService.betweenForPage`). */
const UPTIME_WINDOWS_LIMIT = 1000

/** A component as its module holds it (its page is the snapshot's), with its uptime data. */
export interface ComponentRow extends Omit<Component, 'pageId' | 'statusOverride'> {
  /** With an uptime window read from the raw history: the status in force when it opens (undefined: nothing recorded before). */
  statusAtStart: ComponentStatus | undefined
  /** With an uptime window read from the raw history: status changes inside it, oldest first. */
  changes: Array<{ status: ComponentStatus; at: number }>
  /**
   * With an uptime window the daily roll-ups can answer (see `snapshotRows`): their rows inside it
   * (`day` as epoch ms) and the latest change; the raw fields above are empty then.
   */
  rollup?: { rows: Array<{ day: number; upMs: number; degradedMs: number; downMs: number }>; status: ComponentStatus; since: number }
  /** It follows a vendor's status feed that cannot be read now: its status is unknown. */
  feedUnknown: boolean
}

export interface IncidentRow {
  id: number
  title: string
  state: IncidentState
  startedAt: number
  resolvedAt: number | null
  components: Array<{ id: number; name: string }>
  updates: Array<{ id: number; state: IncidentState; message: string; at: number }>
  createdAt: number
  updatedAt: number
  /** The impact its owner chose; null: derived (the snapshot derives it). */
  impactChosen: IncidentImpact | null
}

/** A maintenance window as its module holds it (its page is the snapshot's). */
export type MaintenanceRow = Omit<Maintenance, 'pageId'>

/** A page as public reads see it (status-pages/public-lookup.ts): addresses, visibility, the owner's plan, its default language (the widget's words; not its zone or description: the status site reads those). */
export type PageRow = Omit<NonNullable<Awaited<ReturnType<typeof findPublicPageBySlug>>>, 'time_zone' | 'description'>

export interface SnapshotRows {
  page: PageRow | undefined
  components: ComponentRow[]
  /** Unresolved, newest start first. */
  incidents: IncidentRow[]
  /** Windows that end after `now` (in progress or scheduled), soonest start first. */
  openWindows: MaintenanceRow[]
  /** Windows overlapping [uptimeFrom, now], newest start first; empty without an uptime window. */
  uptimeWindows: MaintenanceRow[]
  /** Check roll-ups of the page's components per minute in [from, to), summed over them; empty unless asked. */
  minutes: Array<{ start: number; timedChecks: number; responseMsSum: number }>
}

export interface SnapshotSpans {
  /** The start of the uptime window (it ends at `now`). */
  uptimeFrom?: number
  /** The minutes of response times, [from, to). */
  minutes?: { from: number; to: number }
}

type Tuple = readonly unknown[]

/**
 * The JSON functions of the engine. SQLite: `json_array`, `json_group_array` (which answers `[]` for
 * no rows) and `json(…)` to keep a nested list from being quoted as text. PostgreSQL:
 * `json_build_array`, `json_agg` (NULL for no rows, hence the coalesce) and nesting as it is.
 */
interface JsonSql {
  tuple(...parts: RawBuilder<unknown>[]): RawBuilder<unknown>
  list(element: RawBuilder<unknown>): RawBuilder<unknown>
  nested(value: RawBuilder<unknown>): RawBuilder<unknown>
  /** Compares a page column with the page's id or slug (see the `+?` note below). */
  pageIs(column: RawBuilder<unknown>, value: unknown): RawBuilder<unknown>
}

const sqliteJson: JsonSql = {
  tuple: (...parts) => sql`json_array(${sql.join(parts)})`,
  list: (element) => sql`json_group_array(${element})`,
  nested: (value) => sql`json(${value})`,
  pageIs: (column, value) => sql`${column} = +${value}`,
}

const postgresJson: JsonSql = {
  tuple: (...parts) => sql`json_build_array(${sql.join(parts)})`,
  list: (element) => sql`coalesce(json_agg(${element}), '[]'::json)`,
  nested: (value) => value,
  pageIs: (column, value) => sql`${column} = ${value}`,
}

const columns = (...names: string[]) => names.map((name) => sql.ref(name))

function componentsOfMaintenance(j: JsonSql) {
  return j.nested(sql`(SELECT ${j.list(j.tuple(...columns('s.id', 's.name')))} FROM (
    SELECT c.id, c.name FROM maintenance_components mc JOIN components c ON c.id = mc.component_id
    WHERE mc.maintenance_id = m.id ORDER BY c.position, c.id) AS s)`)
}

/** The window's updates, newest first (the page shows them; uptime does not read them). */
function updatesOfMaintenance(j: JsonSql) {
  return j.nested(sql`(SELECT ${j.list(j.tuple(...columns('s.id', 's.status', 's.message', 's.at')))} FROM (
    SELECT u.id, u.status, u.message, u.at FROM maintenance_updates u WHERE u.maintenance_id = m.id ORDER BY u.at DESC, u.id DESC) AS s)`)
}

function maintenanceTuple(j: JsonSql, withUpdates = false) {
  const base = [...columns('m.id', 'm.title', 'm.message', 'm.start_at', 'm.end_at', 'm.created_at', 'm.updated_at'), componentsOfMaintenance(j), ...columns('m.series_id', 'm.sequence')]
  return j.tuple(...base, ...(withUpdates ? [updatesOfMaintenance(j)] : []))
}

const pairs = (list: Tuple) => (list as Array<[number, string]>).map(([id, name]) => ({ id, name }))

function maintenanceRow(t: Tuple): MaintenanceRow {
  const [id, title, message, startAt, endAt, createdAt, updatedAt, components, seriesId, sequence, updates] = t as [number, string, string, number, number, number, number, Tuple, number | null, number, Tuple | undefined]
  const timeline = ((updates ?? []) as Array<[number, MaintenanceUpdateStatus, string, number]>).map(([id, status, message, at]) => ({ id, status, message, at }))
  return { id, title, message, startAt, endAt, components: pairs(components), createdAt, updatedAt, seriesId, sequence, updates: timeline }
}

function incidentRow(t: Tuple): IncidentRow {
  const [id, title, state, startedAt, resolvedAt, createdAt, updatedAt, components, updates, impactChosen] = t as [
    number, string, IncidentState, number, number | null, number, number, Tuple, Tuple, IncidentImpact | null,
  ]
  const timeline = (updates as Array<[number, IncidentState, string, number]>).map(([id, state, message, at]) => ({ id, state, message, at }))
  return { id, title, state, startedAt, resolvedAt, components: pairs(components), updates: timeline, createdAt, updatedAt, impactChosen }
}

function componentRow(t: Tuple): ComponentRow {
  const [id, name, type, group, status, position, createdAt, updatedAt, statusAtStart, changes, rolled, feedState, description] = t as [
    number, string, ComponentType, string | null, ComponentStatus, number, number, number, ComponentStatus | null, Tuple | null, Tuple | null, string | null, string,
  ]
  const list = ((changes ?? []) as Array<[ComponentStatus, number]>).map(([status, at]) => ({ status, at }))
  const row: ComponentRow = { id, name, type, group, status, description, position, createdAt, updatedAt, statusAtStart: statusAtStart ?? undefined, changes: list, feedUnknown: feedState === 'unknown' }
  if (rolled) {
    const [latest, since] = rolled as [ComponentStatus, number]
    row.rollup = { rows: [], status: latest, since }
  }
  return row
}

/** Hands the page's roll-up rows (component, day number, ms up / degraded / down) to the components the roll-ups answer for. */
function attachStatusDays(components: ComponentRow[], days: Tuple[]): void {
  const byId = new Map(components.map((c) => [c.id, c]))
  for (const [id, day, upMs, degradedMs, downMs] of days as Array<[number, number, number, number, number]>) {
    byId.get(id)?.rollup?.rows.push({ day: day * DAY_MS, upMs, degradedMs, downMs })
  }
}

type SnapshotSlot = 'page' | 'now' | 'from' | 'fromDay' | 'nowDay' | 'minutesFrom' | 'minutesTo'
type SnapshotResult = PageRow & { components: string; status_days: string; incidents: string; open_windows: string; uptime_windows: string; minutes: string }

/** The snapshot statement per engine and shape (bit 1: uptime window, 2: minutes, 4: page by id), each compiled once. */
const snapshotStatements: Record<Engine, Array<ReturnType<typeof snapshotStatement>>> = { sqlite: [], postgres: [] }

/** The statement `PageStatusRepo.snapshotRows` runs, for one shape, with its values in slots. */
function snapshotStatement(shape: number, j: JsonSql) {
  const withUptime = (shape & 1) !== 0
  const withMinutes = (shape & 2) !== 0
  const byId = (shape & 4) !== 0
  return compiledOnce<SnapshotSlot, SnapshotResult>((v) => {
    const { now, from } = v
    // History columns are NULL without an uptime window: SQLite never runs those sub-selects then.
    const rawHistory = sql`(p.has_windows OR cs.since IS NULL OR cs.since > ${now})`
    const history = withUptime
      ? sql`CASE WHEN ${rawHistory} THEN (SELECT h.status FROM component_status_history h WHERE h.component_id = c.id AND h.at < ${from} ORDER BY h.at DESC, h.id DESC LIMIT 1) END,
        CASE WHEN ${rawHistory} THEN ${j.nested(sql`(SELECT ${j.list(j.tuple(...columns('s.status', 's.at')))} FROM (
          SELECT h.status, h.at FROM component_status_history h
          WHERE h.component_id = c.id AND h.at >= ${from} AND h.at <= ${now} ORDER BY h.at, h.id) AS s)`)} END,
        CASE WHEN NOT ${rawHistory} THEN ${j.tuple(...columns('cs.status', 'cs.since'))} END`
      : sql`NULL, NULL, NULL`
    // The roll-up rows of all the page's components in one list: a sub-select per component costs
    // more (~25 µs of the statement for 20 components, measured).
    const statusDays = withUptime
      ? sql`(SELECT ${j.list(j.tuple(...columns('d.component_id', 'd.day', 'd.up_ms', 'd.degraded_ms', 'd.down_ms')))} FROM component_status_daily d
          WHERE d.component_id IN (SELECT id FROM components WHERE page_id = p.id) AND d.day >= ${v.fromDay} AND d.day <= ${v.nowDay})`
      : sql`'[]'`
    const cursor = withUptime ? sql`LEFT JOIN component_status_cursor cs ON cs.component_id = c.id` : sql``
    const hasWindows = withUptime ? sql`EXISTS (SELECT 1 FROM maintenances m WHERE m.page_id = sp.id AND m.end_at > ${from} AND m.start_at <= ${now})` : sql`0`
    const uptimeWindows = withUptime
      ? sql`(SELECT ${j.list(j.nested(sql.ref('s.t')))} FROM (
          SELECT ${maintenanceTuple(j)} AS t FROM maintenances m
          WHERE m.page_id = p.id AND m.end_at > ${from} AND m.start_at <= ${now}
          ORDER BY m.start_at DESC, m.id DESC LIMIT ${sql.lit(UPTIME_WINDOWS_LIMIT)}) AS s)`
      : sql`'[]'`
    const minuteSums = withMinutes
      ? sql`(SELECT ${j.list(j.tuple(...columns('s.minute', 's.timed_checks', 's.response_ms_sum')))} FROM (
          SELECT minute, timed_checks, response_ms_sum FROM page_check_minutes
          WHERE page_id = p.id AND minute >= ${v.minutesFrom} AND minute < ${v.minutesTo} ORDER BY minute) AS s)`
      : sql`'[]'`
    // The page as `+?` and the LIMITs as literals: with a bare `sp.slug = ?` or a bound LIMIT, SQLite
    // recompiled this statement on every execution (each alone cost ~170 µs of a ~250 µs statement
    // in the bench fixture, measured by inlining one parameter at a time); the plan is the same.
    const which = j.pageIs(sql.ref(byId ? 'sp.id' : 'sp.slug'), v.page)
    // A vendor component whose feed cannot be read (vendor-feeds): shown as unknown, not counted.
    const feedState = sql`(SELECT vf.state FROM vendor_feeds vf WHERE vf.component_id = c.id)`
    const incidentComponents = j.nested(sql`(SELECT ${j.list(j.tuple(...columns('s.id', 's.name')))} FROM (
            SELECT c.id, c.name FROM incident_components ic JOIN components c ON c.id = ic.component_id
            WHERE ic.incident_id = i.id ORDER BY c.position, c.id) AS s)`)
    const incidentUpdates = j.nested(sql`(SELECT ${j.list(j.tuple(...columns('s.id', 's.state', 's.message', 's.at')))} FROM (
            SELECT u.id, u.state, u.message, u.at FROM incident_updates u WHERE u.incident_id = i.id ORDER BY u.at, u.id) AS s)`)
    return sql<SnapshotResult>`
    WITH p AS (
      SELECT sp.id, sp.slug, sp.name, sp.custom_domain, sp.custom_domain_state, sp.visibility, sp.blocked, sp.updated_at, sp.language, tm.plan, ${hasWindows} AS has_windows
      FROM status_pages sp JOIN teams tm ON tm.id = sp.owner_id WHERE ${which})
    SELECT p.id, p.slug, p.name, p.custom_domain, p.custom_domain_state, p.visibility, p.blocked, p.updated_at, p.language, p.plan,
      (SELECT ${j.list(j.nested(sql.ref('s.t')))} FROM (
        SELECT ${j.tuple(...columns('c.id', 'c.name', 'c.type', 'c.group_name', 'c.status', 'c.position', 'c.created_at', 'c.updated_at'), history, feedState, ...columns('c.description'))} AS t
        FROM components c ${cursor} WHERE c.page_id = p.id ORDER BY c.position, c.id) AS s) AS components,
      ${statusDays} AS status_days,
      (SELECT ${j.list(j.nested(sql.ref('s.t')))} FROM (
        SELECT ${j.tuple(...columns('i.id', 'i.title', 'i.state', 'i.started_at', 'i.resolved_at', 'i.created_at', 'i.updated_at'), incidentComponents, incidentUpdates, ...columns('i.impact'))} AS t
        FROM incidents i WHERE i.page_id = p.id AND i.state != 'resolved'
        ORDER BY i.started_at DESC, i.id DESC LIMIT ${sql.lit(SNAPSHOT_LIST_LIMIT)}) AS s) AS incidents,
      (SELECT ${j.list(j.nested(sql.ref('s.t')))} FROM (
        SELECT ${maintenanceTuple(j, true)} AS t FROM maintenances m WHERE m.page_id = p.id AND m.end_at > ${now}
        ORDER BY m.start_at, m.id LIMIT ${sql.lit(SNAPSHOT_LIST_LIMIT)}) AS s) AS open_windows,
      ${uptimeWindows} AS uptime_windows,
      ${minuteSums} AS minutes
    FROM p`
  })
}

export class PageStatusRepo {
  constructor(private readonly db: Db) {}

  /** What public reads need about a page: addresses, visibility, name and the owner's plan. */
  findPageBySlug(slug: string) {
    return findPublicPageBySlug(this.db, slug)
  }

  /**
   * One statement for the whole snapshot of a page (by id or slug) at `now`, the page's row
   * included (undefined, with empty lists, when there is no such page). With `uptimeFrom`, each
   * component also carries its status at that instant and its changes in [uptimeFrom, now], and
   * the windows overlapping that span come along (maintenance is left out of uptime). With
   * `minutes`, the response-time sums per minute of the page's components come along too.
   *
   * Uptime reads the daily status roll-ups (analytics: a row per component and day, and a cursor
   * with the latest change) instead of every change in the span (bench fixture, 20 components over
   * 7 days: 140 rows instead of 560 changes, the statement's CPU ~275 → ~230 µs), unless they
   * cannot answer exactly: a maintenance window overlaps the span (it cuts holes by time of day),
   * the component has no cursor (history older than the roll-ups), or its latest change is after
   * `now`. Then the raw history is read.
   */
  async snapshotRows(page: { id: number } | { slug: string }, now: number, spans: SnapshotSpans = {}): Promise<SnapshotRows> {
    const { uptimeFrom, minutes } = spans
    const from = uptimeFrom ?? 0
    const shape = (uptimeFrom !== undefined ? 1 : 0) | (minutes ? 2 : 0) | ('id' in page ? 4 : 0)
    const engine = engineOf(this.db)
    const statement = (snapshotStatements[engine][shape] ??= snapshotStatement(shape, engine === 'postgres' ? postgresJson : sqliteJson))
    const values: Record<SnapshotSlot, unknown> = {
      page: 'id' in page ? page.id : page.slug,
      now,
      from,
      fromDay: Math.floor(from / DAY_MS),
      nowDay: Math.floor(now / DAY_MS),
      minutesFrom: minutes?.from ?? 0,
      minutesTo: minutes?.to ?? 0,
    }
    const result = await this.db.executeQuery(statement(this.db, values))
    const row = result.rows[0]
    if (!row) return { page: undefined, components: [], incidents: [], openWindows: [], uptimeWindows: [], minutes: [] }
    // SQLite hands JSON back as text; the PostgreSQL driver has already parsed it.
    const list = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Tuple[]
    const { id, slug, name, custom_domain, custom_domain_state, visibility, blocked, updated_at, language, plan } = row
    const components = list(row.components).map(componentRow)
    attachStatusDays(components, list(row.status_days))
    return {
      page: { id, slug, name, custom_domain, custom_domain_state, visibility, blocked, updated_at, language, plan },
      components,
      incidents: list(row.incidents).map(incidentRow),
      openWindows: list(row.open_windows).map(maintenanceRow),
      uptimeWindows: list(row.uptime_windows).map(maintenanceRow),
      minutes: (list(row.minutes) as Array<[number, number, number]>).map(([start, timedChecks, responseMsSum]) => ({ start, timedChecks, responseMsSum })),
    }
  }
}
