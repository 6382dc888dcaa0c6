/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set, otherwise the
 * SQLite file at DATABASE_PATH (the default, embedded choice).
 */
import type { Config } from '../config.ts'
import { openDatabase, type DatabaseHandle } from './client.ts'
import { openPostgres } from './postgres.ts'

export function openConfiguredDatabase(config: Pick<Config, 'databasePath' | 'databaseUrl'>): DatabaseHandle {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openDatabase(config.databasePath)
}

/** For log lines: the SQLite path, or the PostgreSQL host and database without credentials. */
export function databaseLabel(config: Pick<Config, 'databasePath' | 'databaseUrl'>): string {
  if (!config.databaseUrl) return config.databasePath
  const url = new URL(config.databaseUrl)
  return `postgres://${url.host}${url.pathname}`
}
