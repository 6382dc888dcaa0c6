/**
 * A fixed-window attempt counter per key (e.g. login attempts per email and per client address),
 * in memory, with an injected clock and a bound on the number of keys it remembers.
 */
import type { Clock } from './clock.ts'

export interface RateLimitOptions {
  /** Attempts allowed per window. */
  limit: number
  windowMs: number
  clock: Clock
  /** Keys remembered at most; the oldest windows are forgotten first. */
  maxKeys?: number
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()
  private readonly maxKeys: number

  constructor(private readonly options: RateLimitOptions) {
    this.maxKeys = options.maxKeys ?? 10_000
  }

  /** Milliseconds until `key` may try again, or 0 when it is under the limit. */
  retryAfterMs(key: string): number {
    const window = this.current(key)
    if (!window || window.count < this.options.limit) return 0
    return window.start + this.options.windowMs - this.options.clock.now()
  }

  /** Counts one attempt. */
  hit(key: string): void {
    const now = this.options.clock.now()
    const window = this.current(key)
    if (window) {
      window.count++
      return
    }
    this.windows.set(key, { start: now, count: 1 })
    if (this.windows.size > this.maxKeys) {
      const oldest = this.windows.keys().next().value
      if (oldest !== undefined) this.windows.delete(oldest)
    }
  }

  reset(key: string): void {
    this.windows.delete(key)
  }

  private current(key: string) {
    const window = this.windows.get(key)
    if (!window) return undefined
    if (this.options.clock.now() - window.start >= this.options.windowMs) {
      this.windows.delete(key)
      return undefined
    }
    return window
  }
}
