/**
 * The server entry: the only place that reads the environment, opens the database, migrates,
 * listens and starts background jobs. `bun run start` runs it; `lantern serve` calls startServer.
 */
import { createApp } from './app.ts'
import { LARGEST_BODY_LIMIT_BYTES } from './http/body-limit.ts'
import { backgroundJobs, startJobs } from './jobs.ts'
import { createAccountsService } from './services.ts'
import { nodeDnsResolver } from './lib/dns/index.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { databaseLabel, openConfiguredDatabase } from './db/open.ts'
import { bridgeChangesOverPostgres } from './db/postgres-changes.ts'
import { watchExternalChanges } from './db/external-changes.ts'
import { migrateToLatest } from './db/migrate.ts'
import { ChangeFeed } from './lib/change-feed.ts'
import type { Clock } from './lib/clock.ts'
import { stopOnSignals } from './modules/operations/signals.ts'
import { announceFirstRunSetup } from './modules/accounts/setup.ts'
import { systemClock } from './lib/clock.ts'
import { argon2idHasher } from './lib/password.ts'
import { superviseWorkers, WORKER_ENV } from './modules/operations/workers.ts'
import { MonitorScheduler } from './modules/monitors/run/index.ts'
import type { DnsResolver } from './modules/status-pages/dns-check.ts'


export interface RunningServer {
  url: string
  port: number
  app: ReturnType<typeof createApp>
  /** While the database has no users: the line with the first-run setup link (printed at start). */
  setupLine?: string
  /** This process runs the monitor scheduler (with WORKERS=N, worker 1 only). */
  schedulesMonitors: boolean
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
  /** The application's time (default the system clock); tests pin it so they never depend on the hour. */
  clock?: Clock
  /** Run the monitor scheduler here (default: yes, unless this is a worker other than the first). */
  monitors?: boolean
  /** DNS lookups of the custom-domain check (default node:dns); tests pass a zone of their own. */
  dns?: DnsResolver
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const database = openConfiguredDatabase(config)
  await migrateToLatest(database.db)
  const changes = new ChangeFeed()
  const app = createApp({ db: database.db, config, changes, publicCache: options.publicCache, clock: options.clock, workerId: options.workerId, log: options.log, dns: options.dns ?? nodeDnsResolver })
  // Writes by the CLI or another worker on the same file reach this process's caches within a poll;
  // on PostgreSQL, writes by other app servers arrive through LISTEN/NOTIFY (db/postgres-changes.ts).
  const watcher = watchExternalChanges(database.dataVersion, () => changes.publish({ kind: 'all' }), options.externalChangePollMs ?? 500)
  const bridge = config.databaseUrl ? bridgeChangesOverPostgres(config.databaseUrl, changes) : undefined
  await bridge?.ready
  // Monitors: exactly one process schedules them. With WORKERS=N that is worker 1 (a restarted
  // worker 1 takes over: next runs are in the database, so nothing is lost or doubled).
  const scheduleMonitors = options.monitors ?? (options.workerId === undefined || options.workerId === 1)
  const monitorScheduler = scheduleMonitors
    ? new MonitorScheduler({
        repo: app.services.monitorsRepo,
        recorder: app.services.monitorRecorder,
        clock: app.services.clock,
        checkDeps: app.services.checkDeps,
        onError: (error) => console.error('[lantern] monitor scheduler:', error),
        observer: app.services.metrics?.monitors.schedulerObserver,
      })
    : undefined
  monitorScheduler?.start()
  // The outbox loop runs in the same one process (claims are safe anyway; this one process may free
  // the leases a killed predecessor left, so their rows go out at once instead of after the lease).
  const outboxWorker = app.services.outboxWorker
  if (scheduleMonitors) await outboxWorker.start()
  // The timers (src/jobs.ts); the process that schedules monitors is their leader.
  const jobs = startJobs(backgroundJobs(app.services), {
    leader: scheduleMonitors,
    onError: (name, error) => console.error(`[lantern] ${name}:`, error),
  })
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // The largest body any path takes; each path's own limit is the edge's (http/body-limit.ts).
    maxRequestBodySize: LARGEST_BODY_LIMIT_BYTES,
    development: false,
    // Several workers share one port (WORKERS=N); the kernel spreads connections over them.
    reusePort: config.operations.workers > 1,
    // The front door (src/http/front.ts); the peer address is read only when something needs it.
    fetch: (request, server) => app.fetch(request, () => server.requestIP(request)?.address),
  })
  let stopping: Promise<void> | undefined
  // Workers leave this to their supervisor, which prints one link for all of them.
  const setupLine = options.workerId === undefined ? await announceFirstRunSetup(app.services.accounts, config.baseUrl) : undefined
  return {
    url: server.url.toString(),
    port: server.port ?? config.port,
    app,
    setupLine,
    schedulesMonitors: scheduleMonitors,
    stop() {
      stopping ??= (async () => {
        watcher.stop()
        // No job starts again; a run in progress finishes before the database closes.
        await jobs.stop()
        // Finished runs are written; unfinished ones are dropped and run again on the next start.
        await monitorScheduler?.stop({ abandon: true })
        // Deliveries in flight get a moment to finish; the rest go back to the queue.
        await outboxWorker.stop()
        // A long synchronous write (a big import) delays the signal handler, and requests that arrived
        // meanwhile still wait in their sockets; one turn of the event loop takes them in, so they
        // count as in flight instead of being cut off with the connection.
        await new Promise((resolve) => setTimeout(resolve, 0))
        await server.stop()
        // Each answered write waited for its audit row; rows queued by anything else go in now.
        await app.services.audit.flush()
        await app.services.pageViews.flush()
        await bridge?.stop()
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
    const database = openConfiguredDatabase(config)
    await migrateToLatest(database.db)
    const accounts = createAccountsService({ db: database.db, config, clock: systemClock, changes: new ChangeFeed(), passwords: argon2idHasher })
    const setupLine = await announceFirstRunSetup(accounts, config.baseUrl)
    await database.close()
    const supervisor = superviseWorkers({
      count: config.operations.workers,
      env,
      log: (line) => console.error(line),
      onAllGone: () => process.exit(1),
    })
    console.log(`lantern: ${config.operations.workers} workers on ${config.host}:${config.port} (service ${config.baseUrl}, database ${databaseLabel(config)})`)
    if (setupLine) console.log(setupLine)
    // SIGINT is passed on as SIGTERM: a worker treats both alike.
    stopOnSignals(() => supervisor.stop('SIGTERM'), (reason) => console.log(`lantern: ${reason}, stopping the workers`))
    return
  }
  let running: RunningServer
  try {
    running = await startServer(config, { workerId })
  } catch (error) {
    // Settings that only fail when used (an unreadable SMTP_TLS_CA_FILE) end in the same one line.
    if (error instanceof ConfigError) {
      console.error(`lantern: ${error.message}`)
      process.exit(1)
    }
    throw error
  }
  const who = workerId === undefined ? 'lantern' : `lantern worker ${workerId}`
  console.log(`${who}: listening on ${config.host}:${running.port} (service ${config.baseUrl}, database ${databaseLabel(config)})`)
  if (running.setupLine) console.log(running.setupLine)
  const shutdown = stopOnSignals(() => running.stop(), (reason) => console.log(`${who}: ${reason}, finishing requests in flight`))
  if (workerId !== undefined) {
    // A worker whose supervisor is gone (killed hard) stops too, instead of holding the port.
    const parent = process.ppid
    setInterval(() => process.ppid !== parent && shutdown('supervisor exit'), 1000).unref()
  }
}

if (import.meta.main) await runFromEnvironment(process.env)
