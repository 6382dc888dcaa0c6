/**
 * The database edge: the only module that touches `bun:sqlite`. One connection per process, WAL
 * so readers never wait for the writer, foreign keys on, and a busy timeout so a second process
 * (the CLI, another worker) waits for the write lock instead of failing.
 */
import { Database as SqliteDatabase, type Statement } from 'bun:sqlite'
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import { CompiledQuery, Kysely, type Driver } from 'kysely'
// The ESM build: the package's main entry is CommonJS, which would load a second copy of Kysely.
import { BunSqliteDialect } from 'kysely-bun-sqlite/dist/index.js'
import type { Database } from './schema.ts'

export type Db = Kysely<Database>

/**
 * Transactions start with `BEGIN IMMEDIATE`. A deferred `BEGIN` reads first and upgrades to a write
 * lock later; SQLite cannot wait (busy_timeout) for such an upgrade, so while another process (the
 * CLI, a backup, another worker) touched the file the write failed at once with SQLITE_BUSY.
 * Taking the write lock up front lets busy_timeout do its job.
 */
class ImmediateTransactionsDialect extends BunSqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver()
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'))
    }
    return driver
  }
}

/** Distinct SQL texts kept compiled; `in (?, ?, …)` lists make one text per length, hence a bound. */
export const STATEMENT_CACHE_SIZE = 500

/**
 * The database as Kysely's driver sees it, with compiled statements kept per SQL text. The driver
 * prepares every query anew, so SQLite parsed and planned the same text on every request; a kept
 * statement skips that (most of a small query's cost). Least recently used texts are
 * finalized beyond the bound. Safe because the driver runs one statement at a time to completion.
 */
function withStatementCache(sqlite: SqliteDatabase): SqliteDatabase {
  const statements = new Map<string, Statement>()
  const prepare = (sql: string): Statement => {
    const kept = statements.get(sql)
    if (kept) {
      // Map order is insertion order: re-inserting marks it the most recently used.
      statements.delete(sql)
      statements.set(sql, kept)
      return kept
    }
    const statement = sqlite.prepare(sql)
    statements.set(sql, statement)
    if (statements.size > STATEMENT_CACHE_SIZE) {
      const [oldest, evicted] = statements.entries().next().value!
      statements.delete(oldest)
      evicted.finalize()
    }
    return statement
  }
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

export interface DatabaseHandle {
  db: Db
  engine: 'sqlite' | 'postgres'
  /** Reads SQLite's `PRAGMA data_version`: it changes when another connection commits. */
  dataVersion(): number
  close(): Promise<void>
}

/**
 * The file holds password, session and key hashes: a new one is created readable by its owner only
 * (SQLite gives the -wal and -shm files the mode of the database file), in a folder that, when we
 * create it, is 0700. Existing files and folders keep their mode: the operator may have chosen it
 * (a group for a backup job, /var/lib itself).
 */
export function createPrivately(path: string): void {
  const folder = dirname(path)
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true, mode: 0o700 })
  try {
    // An empty file is a valid new database for SQLite.
    closeSync(openSync(path, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
}

export function openDatabase(path: string, options: { readonly?: boolean } = {}): DatabaseHandle {
  if (options.readonly) {
    // Inspecting a file (e.g. checking a backup): never create it, never change its journal mode.
    const sqlite = new SqliteDatabase(path, { readonly: true, strict: true })
    const db = new Kysely<Database>({ dialect: new BunSqliteDialect({ database: sqlite }) })
    return { db, engine: 'sqlite', dataVersion: () => 0, close: () => db.destroy() }
  }
  if (path !== ':memory:') createPrivately(path)
  const sqlite = new SqliteDatabase(path, { create: true, strict: true })
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA synchronous = NORMAL')
  // The WAL is copied into the file (and both synced) every 4,000 pages (16 MB) instead of 1,000: a
  // page written again and again between two checkpoints (a monitor's row) is copied once.
  sqlite.exec('PRAGMA wal_autocheckpoint = 4000')
  sqlite.exec('PRAGMA foreign_keys = ON')
  const db = new Kysely<Database>({ dialect: new ImmediateTransactionsDialect({ database: withStatementCache(sqlite) }) })
  const dataVersionQuery = sqlite.query<{ data_version: number }, []>('PRAGMA data_version')
  return {
    db,
    engine: 'sqlite',
    dataVersion: () => dataVersionQuery.get()?.data_version ?? 0,
    async close() {
      await db.destroy()
    },
  }
}
