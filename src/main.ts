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
import { createEdge } from './modules/operations/edge.ts'
import { createHostRouter } from './modules/public-pages/host-router.ts'
import { superviseWorkers, WORKER_ENV } from './modules/operations/workers.ts'

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
  /** Set when this process is one of several workers (WORKERS=N), 1-based. */
  workerId?: number
  /** Where request log lines go (default stdout). */
  log?: (line: string) => void
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const database = openDatabase(config.databasePath)
  await migrateToLatest(database.db)
  const changes = new ChangeFeed()
  const app = createApp({ db: database.db, config, changes, publicCache: options.publicCache, workerId: options.workerId })
  // Writes by the CLI or another worker on the same file reach this process's caches within a poll.
  const watcher = watchExternalChanges(database.dataVersion, () => changes.publish({ kind: 'all' }), options.externalChangePollMs ?? 500)
  // Page views are buffered in memory and written in batches.
  const pageViewFlush = setInterval(() => void app.services.pageViews.flush(), 5_000)
  // Check results out of retention are pruned on each ingestion; this catches components that stopped reporting.
  const pruneChecks = setInterval(() => void app.services.checks.pruneAll().catch((error) => console.error('[lantern] pruning checks:', error)), 3_600_000)
  const hostRouter = createHostRouter(config)
  // Rate limits, security headers, request log (src/modules/operations/edge.ts).
  const edge = createEdge((request) => app.handle(request), {
    operations: config.operations,
    serviceOrigin: config.baseUrl,
    isServiceHost: (host) => hostRouter.route(host).kind === 'service',
    workerId: options.workerId,
    log: options.log,
  })
  // Cache hits are answered before the edge: they already carry their security headers, and rate
  // limits protect the work behind the cache, which a hit does not reach. With the request log on,
  // every request goes through the edge so that each one is logged.
  const worker = options.workerId === undefined ? undefined : String(options.workerId)
  const fromCache = config.operations.requestLog
    ? undefined
    : worker === undefined
      ? app.answerFromCache
      : (request: Request) => {
          const hit = app.answerFromCache(request)
          hit?.headers.set('x-lantern-worker', worker)
          return hit
        }
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    development: false,
    // Several workers share one port (WORKERS=N); the kernel spreads connections over them.
    reusePort: config.operations.workers > 1,
    fetch: (request, server) => fromCache?.(request) ?? edge(request, () => server.requestIP(request)?.address),
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
  const workerId = env[WORKER_ENV] ? Number(env[WORKER_ENV]) : undefined
  if (config.operations.workers > 1 && workerId === undefined) {
    // The supervisor: migrate once, then run the workers (each of them runs this function too).
    const database = openDatabase(config.databasePath)
    await migrateToLatest(database.db)
    await database.close()
    const supervisor = superviseWorkers({
      count: config.operations.workers,
      env,
      log: (line) => console.error(line),
      onAllGone: () => process.exit(1),
    })
    console.log(`lantern: ${config.operations.workers} workers on ${config.host}:${config.port} (service ${config.baseUrl}, database ${config.databasePath})`)
    const stopAll = async (signal: NodeJS.Signals) => {
      console.log(`lantern: ${signal} received, stopping the workers`)
      await supervisor.stop('SIGTERM') // a worker treats both alike; SIGINT twice would kill it
      process.exit(0)
    }
    process.once('SIGTERM', () => void stopAll('SIGTERM'))
    process.once('SIGINT', () => void stopAll('SIGINT'))
    return
  }
  const running = await startServer(config, { workerId })
  const who = workerId === undefined ? 'lantern' : `lantern worker ${workerId}`
  console.log(`${who}: listening on ${config.host}:${running.port} (service ${config.baseUrl}, database ${config.databasePath})`)
  const shutdown = async (signal: string) => {
    console.log(`${who}: ${signal} received, finishing requests in flight`)
    await running.stop()
    process.exit(0)
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
  process.once('SIGINT', () => void shutdown('SIGINT'))
  if (workerId !== undefined) {
    // A worker whose supervisor is gone (killed hard) stops too, instead of holding the port.
    const parent = process.ppid
    setInterval(() => process.ppid !== parent && void shutdown('supervisor exit'), 1000).unref()
  }
}

if (import.meta.main) await runFromEnvironment(process.env)
