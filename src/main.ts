/**
 * The server entry: the only place that reads the environment, opens the database, migrates,
 * listens and starts background jobs. `bun run start` runs it; `lantern serve` calls startServer.
 */
import { createApp } from './app.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { openDatabase } from './db/client.ts'
import { watchExternalChanges } from './db/external-changes.ts'
import { migrateToLatest } from './db/migrate.ts'
import { ChangeFeed } from './lib/change-feed.ts'
import { rememberPeerAddress } from './modules/public-pages/context.ts'

/** Request bodies larger than this are refused before they reach a route. */
const MAX_REQUEST_BODY_BYTES = 2 * 1024 * 1024

export interface RunningServer {
  url: string
  port: number
  app: ReturnType<typeof createApp>
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  stop(): Promise<void>
}

export interface StartOptions {
  /** How often to look for writes by other processes (default 500 ms). */
  externalChangePollMs?: number
  /** Off only for measuring the uncached path. */
  publicCache?: boolean
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const database = openDatabase(config.databasePath)
  await migrateToLatest(database.db)
  const changes = new ChangeFeed()
  const app = createApp({ db: database.db, config, changes, publicCache: options.publicCache })
  // Writes by the CLI or another worker on the same file reach this process's caches within a poll.
  const watcher = watchExternalChanges(database.dataVersion, () => changes.publish({ kind: 'all' }), options.externalChangePollMs ?? 500)
  // Page views are buffered in memory and written in batches.
  const pageViewFlush = setInterval(() => void app.services.pageViews.flush(), 5_000)
  // Check results out of retention are pruned on each ingestion; this catches components that stopped reporting.
  const pruneChecks = setInterval(() => void app.services.checks.pruneAll().catch((error) => console.error('[lantern] pruning checks:', error)), 3_600_000)
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    development: false,
    fetch: (request, server) => {
      rememberPeerAddress(request, server.requestIP(request)?.address)
      return app.handle(request)
    },
  })
  let stopping: Promise<void> | undefined
  return {
    url: server.url.toString(),
    port: server.port ?? config.port,
    app,
    stop() {
      stopping ??= (async () => {
        watcher.stop()
        clearInterval(pruneChecks)
        await server.stop()
        clearInterval(pageViewFlush)
        await app.services.pageViews.flush()
        await database.close()
      })()
      return stopping
    },
  }
}

/** Runs the server until SIGTERM or SIGINT, then shuts down gracefully. */
export async function runFromEnvironment(env: Record<string, string | undefined>): Promise<void> {
  let config: Config
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`lantern: ${error.message}`)
      process.exit(1)
    }
    throw error
  }
  const running = await startServer(config)
  console.log(`lantern: listening on ${config.host}:${running.port} (service ${config.baseUrl}, database ${config.databasePath})`)
  const shutdown = async (signal: string) => {
    console.log(`lantern: ${signal} received, finishing requests in flight`)
    await running.stop()
    process.exit(0)
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
  process.once('SIGINT', () => void shutdown('SIGINT'))
}

if (import.meta.main) await runFromEnvironment(process.env)
