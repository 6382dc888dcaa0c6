/**
 * A token bucket per client: `perMinute` requests a minute on average, bursts up to `perMinute`.
 * A client is an IPv4 address or an IPv6 /64 (one subscriber holds a whole /64; per address, it
 * could rotate through 2^64 fresh buckets). Bounded: when more than `maxClients` buckets exist, the
 * ones that are full again are dropped (a full bucket is the same as no bucket); past that, under
 * a flood of distinct networks, the oldest half goes. This is a throughput limit, not a count of
 * guesses: a forgotten bucket gives a client at most one more minute's burst, unlike the guess
 * counters (src/lib/attempt-budget.ts), which never forget a live window. It counts per process
 * (per worker, per server): a throughput guard, unlike those, which hold across servers.
 */
import { clientBudgetKey } from '../../lib/address-prefix.ts'
import type { Clock } from '../../lib/clock.ts'

interface Bucket {
  tokens: number
  at: number
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number }

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private readonly perMs: number

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
    private readonly maxClients = 100_000,
  ) {
    this.perMs = perMinute / 60_000
  }

  take(address: string): RateDecision {
    const client = clientBudgetKey(address)
    const now = this.clock.now()
    const bucket = this.buckets.get(client) ?? { tokens: this.perMinute, at: now }
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perMs)
    bucket.at = now
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      this.buckets.set(client, bucket)
      if (this.buckets.size > this.maxClients) this.sweep(now)
      return { ok: true }
    }
    this.buckets.set(client, bucket)
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) }
  }

  get size(): number {
    return this.buckets.size
  }

  private sweep(now: number): void {
    for (const [client, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.perMinute) this.buckets.delete(client)
    }
    // Still too many (a flood of distinct addresses): forget the oldest half.
    if (this.buckets.size > this.maxClients) {
      let drop = this.buckets.size - this.maxClients / 2
      for (const client of this.buckets.keys()) {
        if (drop-- <= 0) break
        this.buckets.delete(client)
      }
    }
  }
}

/** Public APIs that are limited: JSON under /api/ (not badges, the widget script or pages). */
export const isRateLimited = (method: string, pathname: string): boolean => method !== 'OPTIONS' && pathname.startsWith('/api/')
