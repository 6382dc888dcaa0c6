/**
 * The database a test runs on. By default a fresh SQLite file in the test's folder. With
 * LANTERN_TEST_POSTGRES=postgres://user@host:port (a server the tests may create databases on, as CI
 * starts it), a fresh PostgreSQL database instead: copied from a template migrated once per process,
 * which takes a few milliseconds instead of running every migration again.
 */
import { join } from 'node:path'
import { sql } from 'kysely'
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { openPostgres } from '../../src/db/postgres.ts'

export const testPostgresServer = process.env.LANTERN_TEST_POSTGRES?.replace(/\/+$/, '') || undefined

const TEMPLATE = `lantern_template_${process.pid}`
let template: Promise<void> | undefined
let databaseCounter = 0

/** Test files running side by side (`bun test --parallel`) in one process never pick the same name. */
function uniqueSuffix(): string {
  return crypto.randomUUID().slice(0, 8)
}

async function onServer<T>(work: (admin: DatabaseHandle) => Promise<T>): Promise<T> {
  const admin = openPostgres(`${testPostgresServer}/postgres`, { max: 1 })
  try {
    return await work(admin)
  } finally {
    await admin.close()
  }
}

function migratedTemplate(): Promise<void> {
  template ??= (async () => {
    await onServer(async (admin) => {
      await sql`DROP DATABASE IF EXISTS ${sql.id(TEMPLATE)}`.execute(admin.db)
      await sql`CREATE DATABASE ${sql.id(TEMPLATE)}`.execute(admin.db)
    })
    const handle = openPostgres(`${testPostgresServer}/${TEMPLATE}`, { max: 1 })
    try {
      await migrateToLatest(handle.db)
    } finally {
      await handle.close()
    }
  })()
  return template
}

export interface TestDatabase {
  handle: DatabaseHandle
  /** What DATABASE_PATH or DATABASE_URL a server process for this test would be given. */
  env: Record<string, string>
  /** Closes the connection and, on PostgreSQL, drops the database. */
  dispose(): Promise<void>
}

/** A fresh, migrated database for one test context. */
export async function freshTestDatabase(dir: string): Promise<TestDatabase> {
  if (!testPostgresServer) {
    const databasePath = join(dir, 'lantern.sqlite')
    const handle = openDatabase(databasePath)
    await migrateToLatest(handle.db)
    return { handle, env: { DATABASE_PATH: databasePath }, dispose: () => handle.close() }
  }
  await migratedTemplate()
  const name = `lantern_test_${process.pid}_${++databaseCounter}_${uniqueSuffix()}`
  await onServer((admin) => sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(TEMPLATE)}`.execute(admin.db))
  const url = `${testPostgresServer}/${name}`
  const handle = openPostgres(url)
  return {
    handle,
    env: { DATABASE_URL: url },
    async dispose() {
      await handle.close()
      await onServer((admin) => sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db))
    },
  }
}

/** An empty database with no migrations run (for tests of a migration on data made before it), on the engine the tests run on. */
export async function emptyTestDatabase(dir: string): Promise<TestDatabase> {
  if (!testPostgresServer) {
    const databasePath = join(dir, 'lantern.sqlite')
    const handle = openDatabase(databasePath)
    return { handle, env: { DATABASE_PATH: databasePath }, dispose: () => handle.close() }
  }
  const name = `lantern_empty_${process.pid}_${++databaseCounter}_${uniqueSuffix()}`
  await onServer((admin) => sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db))
  const url = `${testPostgresServer}/${name}`
  const handle = openPostgres(url)
  return {
    handle,
    env: { DATABASE_URL: url },
    async dispose() {
      await handle.close()
      await onServer((admin) => sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db))
    },
  }
}
