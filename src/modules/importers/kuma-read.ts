/**
 * Reads an Uptime Kuma database (1.23 or 2.x, SQLite) read-only into plain rows. The file is never
 * written: opened with `readonly`, and a file that is not SQLite or not Kuma's is a clear error.
 */
import { Database } from 'bun:sqlite'
import { badRequest } from '../../lib/errors.ts'
import { historiesOf, type StatusChanges } from './kuma-map.ts'

type Row = Record<string, unknown>

export interface KumaData {
  /** `2.x` when the 2.x tables (stat_*) or columns exist, else `1.x`. */
  version: string
  monitors: Row[]
  tags: Row[]
  monitorTags: Row[]
  notifications: Row[]
  monitorNotifications: Row[]
  statusPages: Row[]
  cnames: Row[]
  groups: Row[]
  monitorGroups: Row[]
  maintenances: Row[]
  monitorMaintenances: Row[]
  maintenancePages: Row[]
  incidents: Row[]
  /** Each monitor's status changes, from its heartbeats. */
  histories: Map<number, StatusChanges>
  /** Rows of tables nothing is brought from, by table, for the report. */
  leftOut: Record<string, number>
}

const REQUIRED = ['monitor', 'heartbeat', 'notification', 'monitor_notification', 'status_page', 'group', 'monitor_group', 'tag', 'monitor_tag', 'maintenance']

/** `name` is how errors call the file (an upload's own name rather than its temporary path). */
export function readKumaDatabase(path: string, name: string = path): KumaData {
  let db: Database
  try {
    db = new Database(path, { readonly: true, create: false })
  } catch (error) {
    throw badRequest(`cannot open ${name} as an Uptime Kuma database: ${error instanceof Error ? error.message : String(error)}`)
  }
  try {
    let tables: Set<string>
    try {
      tables = new Set(db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => String((r as Row).name)))
    } catch (error) {
      throw badRequest(`${name} is not a readable SQLite database (${error instanceof Error ? error.message : String(error)})`)
    }
    const missing = REQUIRED.filter((t) => !tables.has(t))
    if (missing.length > 0) throw badRequest(`${name} is not an Uptime Kuma database: it has no ${missing.map((t) => `"${t}"`).join(', ')} table`)
    const all = (sql: string): Row[] => {
      try {
        return db.query(sql).all() as Row[]
      } catch (error) {
        throw badRequest(`${name} could not be read (${error instanceof Error ? error.message : String(error)}); is the file damaged?`)
      }
    }
    const optional = (table: string, sql: string): Row[] => (tables.has(table) ? all(sql) : [])
    const leftOut: Record<string, number> = {}
    for (const table of ['docker_host', 'api_key', 'proxy', 'remote_browser']) {
      if (!tables.has(table)) continue
      const count = Number((all(`SELECT COUNT(*) AS n FROM "${table}"`)[0] as Row).n)
      if (count > 0) leftOut[table] = count
    }
    return {
      version: tables.has('stat_minutely') ? '2.x' : '1.x',
      monitors: all('SELECT * FROM monitor ORDER BY id'),
      tags: all('SELECT * FROM tag ORDER BY id'),
      monitorTags: all('SELECT * FROM monitor_tag ORDER BY id'),
      notifications: all('SELECT * FROM notification ORDER BY id'),
      monitorNotifications: all('SELECT * FROM monitor_notification ORDER BY id'),
      statusPages: all('SELECT * FROM status_page ORDER BY id'),
      cnames: optional('status_page_cname', 'SELECT * FROM status_page_cname ORDER BY id'),
      groups: all('SELECT * FROM "group" ORDER BY status_page_id, weight, id'),
      monitorGroups: all('SELECT * FROM monitor_group ORDER BY group_id, weight, id'),
      maintenances: all('SELECT * FROM maintenance ORDER BY id'),
      monitorMaintenances: optional('monitor_maintenance', 'SELECT * FROM monitor_maintenance ORDER BY id'),
      maintenancePages: optional('maintenance_status_page', 'SELECT * FROM maintenance_status_page ORDER BY id'),
      incidents: optional('incident', 'SELECT * FROM incident ORDER BY id'),
      // Row by row: the heartbeats are most of a Kuma database.
      histories: historiesOf(db.query('SELECT monitor_id, status, time FROM heartbeat ORDER BY monitor_id, time, id').iterate() as Iterable<Row>),
      leftOut,
    }
  } finally {
    db.close()
  }
}
