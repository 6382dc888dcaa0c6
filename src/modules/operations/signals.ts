/**
 * Stopping on SIGTERM/SIGINT, idempotently. A stop signal often comes more than once: systemd
 * signals every process of the unit's group and the supervisor passes it on to its workers;
 * `bun run` passes it on to the program it started, which got it from the group already. With a
 * one-shot handler the second signal met the default action and killed the process in the middle
 * of its graceful stop. The handlers stay installed, and only the first signal starts the stop.
 */
/** Installs the handlers; the returned function starts the same stop for another reason. */
export function stopOnSignals(stop: () => Promise<void>, log: (line: string) => void): (reason: string) => void {
  let stopping = false
  const begin = (reason: string) => {
    if (stopping) return
    stopping = true
    log(reason)
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('lantern: stopping failed:', error)
        process.exit(1)
      },
    )
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => begin(`${signal} received`))
  return begin
}
