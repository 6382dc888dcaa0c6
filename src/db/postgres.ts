/**
 * The PostgreSQL edge (DATABASE_URL=postgres://…): the only module that touches `pg`.
 *
 * Why `pg` and Kysely's own PostgresDialect rather than Bun's built-in SQL client: Bun.SQL returns
 * `bigint`, `count(*)` and `sum()` as strings and its `bigint: false` option does not change that,
 * so every repository would need conversions; `pg` takes a type parser per type, so numbers come back
 * as numbers on both engines from one place. Measured on loopback: sequential
 * primary-key reads cost the same (130 vs 140 µs); Bun.SQL is faster only under thousands of
 * concurrent queries, which the hot path (served from the cache) never issues.
 */
import { Kysely, PostgresDialect } from 'kysely'
import type PgModule from 'pg'
import type { Db, DatabaseHandle } from './client.ts'
import type { Database } from './schema.ts'

const INT8 = 20
const NUMERIC = 1700
let loaded: typeof PgModule | undefined

/**
 * The `pg` driver, loaded the first time a PostgreSQL database is opened: an instance on SQLite never
 * pays its start time or memory. Epoch milliseconds and counts stay far below 2^53, so a JS number
 * holds them exactly.
 */
export function loadPg(): typeof PgModule {
  if (loaded) return loaded
  const pg = require('pg') as typeof PgModule
  pg.types.setTypeParser(INT8, (text) => Number(text))
  pg.types.setTypeParser(NUMERIC, (text) => Number(text))
  return (loaded = pg)
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url)
}

export function openPostgres(url: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = new (loadPg().Pool)({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 10_000 })
  // An idle client that loses its connection emits 'error' on the pool; without a listener the process dies.
  pool.on('error', (error) => console.error('[lantern] postgres pool:', error.message))
  const db: Db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    engine: 'postgres',
    dataVersion: () => 0,
    async close() {
      await db.destroy()
    },
  }
}
