/**
 * A fixed-window attempt counter per key (login attempts per email and client, gate attempts per
 * page...), in memory, on an injected clock, with a bound on the number of keys it remembers.
 *
 * Bounded without ever forgetting a live counter: every window has the same length and a key's new
 * window is appended, so the table is ordered by the end of its windows. When it is full, windows
 * that have ended are dropped from the front; if every window is still live, a NEW key is told to
 * wait until the oldest one ends (fail closed) instead of pushing out a counter that is holding
 * someone back. Keys already counted are never affected by a flood of others.
 */
import type { Clock } from './clock.ts'

export interface RateLimitOptions {
  /** Attempts allowed per window. */
  limit: number
  windowMs: number
  clock: Clock
  /** Keys remembered at most (default 100 000). */
  maxKeys?: number
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()
  private readonly maxKeys: number

  constructor(private readonly options: RateLimitOptions) {
    this.maxKeys = options.maxKeys ?? 100_000
  }

  get size(): number {
    return this.windows.size
  }

  /**
   * Milliseconds until `key` may try again, or 0 when it may try now. A key without a window
   * waits only when the table is full of live windows (until the oldest of them ends).
   */
  retryAfterMs(key: string): number {
    const now = this.options.clock.now()
    const window = this.current(key, now)
    if (window) return window.count < this.options.limit ? 0 : window.start + this.options.windowMs - now
    return this.roomFor(now) ? 0 : this.oldestEnd() - now
  }

  /** Counts one attempt (ask `retryAfterMs` first, in the same turn). Never evicts a live window. */
  hit(key: string): void {
    const now = this.options.clock.now()
    const window = this.current(key, now)
    if (window) {
      window.count++
      return
    }
    if (this.roomFor(now)) this.windows.set(key, { start: now, count: 1 })
  }

  /** Gives one attempt back (an attempt that turned out right should not count against a shared budget). */
  refund(key: string): void {
    const window = this.current(key, this.options.clock.now())
    if (window && window.count > 0) window.count--
  }

  reset(key: string): void {
    this.windows.delete(key)
  }

  private current(key: string, now: number) {
    const window = this.windows.get(key)
    if (!window) return undefined
    if (now - window.start >= this.options.windowMs) {
      this.windows.delete(key)
      return undefined
    }
    return window
  }

  /** True when a new key fits, after dropping the windows that have ended (they sit at the front). */
  private roomFor(now: number): boolean {
    if (this.windows.size < this.maxKeys) return true
    for (const [key, window] of this.windows) {
      if (now - window.start < this.options.windowMs) break
      this.windows.delete(key)
    }
    return this.windows.size < this.maxKeys
  }

  private oldestEnd(): number {
    const oldest = this.windows.values().next().value
    return oldest ? oldest.start + this.options.windowMs : this.options.clock.now()
  }
}
