/**
 * Group commit for rows that many requests write at once (the audit log): `add` queues a row and
 * answers when it is written; the queue is written at the next turn of the event loop, every row
 * queued by then in one `write` (one statement, one commit), and rows queued while a write runs go
 * in the next one. A caller who awaits `add` knows its row is committed, as with a write of its own,
 * but a hundred concurrent writers pay for a few commits instead of a hundred.
 *
 * `write` must be all or nothing (one statement, or one transaction). When a batch fails, each of
 * its rows is written again alone, so one bad row fails only its own caller; every other failure
 * reaches the caller of `add` too. Nothing is dropped silently.
 */

export interface BatchedWriterOptions<T> {
  /** Writes the rows in this order, all or none. */
  write: (rows: readonly T[]) => Promise<void>
  /** Runs `task` at the next turn of the event loop (default setImmediate, else setTimeout 0). */
  schedule?: (task: () => void) => void
  /** The most rows one `write` gets (default 256). */
  maxRows?: number
}

interface Queued<T> {
  row: T
  resolve: () => void
  reject: (error: unknown) => void
}

// setImmediate where the runtime has it: setTimeout 0 waits a millisecond, a request's whole time.
const nextTurn = (task: () => void): void => {
  const immediate = (globalThis as { setImmediate?: (task: () => void) => unknown }).setImmediate
  if (immediate) immediate(task)
  else setTimeout(task, 0)
}

export class BatchedWriter<T> {
  private queue: Queued<T>[] = []
  private scheduled = false
  /** True from the first write of a drain until the queue is found empty (in the same turn). */
  private draining = false
  private drained: Promise<void> = Promise.resolve()

  constructor(private readonly options: BatchedWriterOptions<T>) {}

  /** Queues `row`; resolves once it is written, rejects with the error that kept it out. */
  add(row: T): Promise<void> {
    const { promise, resolve, reject } = Promise.withResolvers<void>()
    this.queue.push({ row, resolve, reject })
    // A drain in progress takes the row in its next write; otherwise the next turn starts one.
    if (!this.draining && !this.scheduled) {
      this.scheduled = true
      ;(this.options.schedule ?? nextTurn)(() => {
        this.scheduled = false
        this.drain()
      })
    }
    return promise
  }

  /** Rows queued and not yet written. */
  get pending(): number {
    return this.queue.length
  }

  /** Writes everything queued now and waits for writes in progress (at shutdown). Never throws: each row's caller hears its outcome. */
  async flush(): Promise<void> {
    while (this.draining || this.queue.length > 0) {
      this.drain()
      await this.drained
    }
  }

  private drain(): void {
    if (this.draining || this.queue.length === 0) return
    this.draining = true
    this.drained = this.writeAll()
  }

  private async writeAll(): Promise<void> {
    const maxRows = this.options.maxRows ?? 256
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, maxRows)
        try {
          await this.options.write(batch.map((queued) => queued.row))
          for (const queued of batch) queued.resolve()
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.reject(error)
            continue
          }
          // Which row failed is unknown: each alone, in order, so the others still land.
          for (const queued of batch) {
            try {
              await this.options.write([queued.row])
              queued.resolve()
            } catch (alone) {
              queued.reject(alone)
            }
          }
        }
      }
    } finally {
      // The empty queue was seen in this same turn: a row added after this line schedules a drain.
      this.draining = false
    }
  }
}

/**
 * `rows` in chunks whose sizes are powers of two, largest first, none above `largest` (a power of
 * two): 37 rows are 32 + 4 + 1. A statement of n rows is one SQL text per size, so a handful of
 * prepared statements serve every batch.
 */
export function powerOfTwoChunks<T>(rows: readonly T[], largest = 64): T[][] {
  const chunks: T[][] = []
  let at = 0
  while (at < rows.length) {
    let size = largest
    while (size > rows.length - at) size /= 2
    chunks.push(rows.slice(at, at + size))
    at += size
  }
  return chunks
}
