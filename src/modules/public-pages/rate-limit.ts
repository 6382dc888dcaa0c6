/**
 * Counts attempts per key in a fixed window on an injected clock (pure, in memory). Bounded: when
 * full, expired windows are dropped, then the oldest keys.
 */
import type { Clock } from '../../lib/clock.ts'

export interface RateLimitDecision {
  allowed: boolean
  remaining: number
  /** When the window of this key ends (epoch ms). */
  resetAt: number
}

export class AttemptLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()

  constructor(
    private readonly clock: Clock,
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  /** Records one attempt for `key` and says whether it may go ahead. */
  hit(key: string): RateLimitDecision {
    const now = this.clock.now()
    let window = this.windows.get(key)
    if (!window || window.resetAt <= now) {
      this.windows.delete(key)
      window = { count: 0, resetAt: now + this.windowMs }
      this.windows.set(key, window)
      this.prune(now)
    }
    if (window.count >= this.limit) return { allowed: false, remaining: 0, resetAt: window.resetAt }
    window.count++
    return { allowed: true, remaining: this.limit - window.count, resetAt: window.resetAt }
  }

  /** Forgets a key (after a successful attempt). */
  reset(key: string): void {
    this.windows.delete(key)
  }

  private prune(now: number): void {
    if (this.windows.size <= this.maxKeys) return
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key)
    for (const key of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break
      this.windows.delete(key)
    }
  }
}
