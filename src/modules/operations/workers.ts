/**
 * `WORKERS=N`: the first process migrates the database, then starts N copies of itself that each
 * listen on the same port (`reusePort`, the kernel spreads connections) with the same database
 * file. It passes SIGTERM/SIGINT on, waits for the workers to finish their requests, and restarts
 * a worker that dies unexpectedly (not more than 5 times a minute each).
 */

/** Set by the supervisor in each worker's environment (1-based). */
export const WORKER_ENV = 'LANTERN_WORKER'

/** The command line that starts this same program again: a compiled binary or `bun <script>`. */
function selfCommand(): string[] {
  const compiled = Bun.main.startsWith('/$bunfs/') || /^[A-Z]:\\~BUN\\/i.test(Bun.main)
  return compiled ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, ...process.argv.slice(1)]
}

export interface Supervisor {
  /** Resolves when every worker has exited after stop(). */
  stop(signal?: NodeJS.Signals): Promise<void>
  readonly pids: number[]
}

export function superviseWorkers(options: {
  count: number
  env: Record<string, string | undefined>
  log: (line: string) => void
  command?: string[]
  /** Called when no worker is left running and none will be restarted. */
  onAllGone?: () => void
}): Supervisor {
  const command = options.command ?? selfCommand()
  let stopping = false
  let stoppingAll: Promise<void> | undefined
  const children = new Map<number, ReturnType<typeof Bun.spawn>>()
  const restarts = new Map<number, number[]>()
  const gaveUp = new Set<number>()

  const start = (index: number) => {
    const child = Bun.spawn(command, {
      env: { ...options.env, [WORKER_ENV]: String(index) },
      stdio: ['ignore', 'inherit', 'inherit'],
      onExit: (_proc, exitCode, signalCode) => {
        if (children.get(index) === child) children.delete(index)
        if (stopping) return
        const now = Date.now()
        const recent = (restarts.get(index) ?? []).filter((at) => now - at < 60_000)
        if (recent.length >= 5) {
          options.log(`lantern: worker ${index} keeps failing (exit ${exitCode ?? signalCode}); not restarting it`)
          gaveUp.add(index)
          if (gaveUp.size === options.count) options.onAllGone?.()
          return
        }
        restarts.set(index, [...recent, now])
        options.log(`lantern: worker ${index} exited (${exitCode ?? signalCode}); restarting it`)
        setTimeout(() => !stopping && start(index), 500)
      },
    })
    children.set(index, child)
  }
  for (let i = 1; i <= options.count; i++) start(i)

  return {
    get pids() {
      return [...children.values()].map((child) => child.pid)
    },
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      // Once: a worker is sent the signal one time by its supervisor, however often the supervisor gets it.
      stoppingAll ??= (async () => {
        stopping = true
        const running = [...children.values()]
        for (const child of running) child.kill(signal)
        await Promise.all(running.map((child) => child.exited))
      })()
      return stoppingAll
    },
  }
}
