/**
 * Notices writes made by another process on the same SQLite file (the CLI, another worker) by
 * polling `PRAGMA data_version`, which only moves when a different connection commits.
 */
export interface ExternalChangeWatcher {
  /** Checks once, now; returns true (and calls onChange) when another connection wrote. */
  check(): boolean
  stop(): void
}

export function watchExternalChanges(
  readDataVersion: () => number,
  onChange: () => void,
  intervalMs = 500,
): ExternalChangeWatcher {
  let last = readDataVersion()
  const check = (): boolean => {
    const current = readDataVersion()
    if (current === last) return false
    last = current
    onChange()
    return true
  }
  const timer = setInterval(check, intervalMs)
  return {
    check,
    stop: () => clearInterval(timer),
  }
}
