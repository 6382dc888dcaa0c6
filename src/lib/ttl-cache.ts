/**
 * A small in-process cache for public read paths.
 *
 * - bounded: at most `maxEntries`; the least recently used entry goes first (Map keeps insertion
 *   order, and a hit re-inserts its key at the end);
 * - every entry has its own time to live, measured on an injected clock;
 * - one load in flight per key: concurrent misses share one promise;
 * - invalidation by key, by page (entries remember the page they were built from) or all at once.
 *   A load that was running while anything was invalidated is handed to its waiters but not stored,
 *   so a cache never keeps a value read before a change it was told about.
 */
import { systemClock, type Clock } from './clock.ts'

export type PageId = number

/** What a loader produces: the value and what the cache should know about it. */
export interface CacheFill<V> {
  value: V
  /** Overrides the cache's default time to live for this entry; 0 hands the value out without keeping it. */
  ttlMs?: number
  /** The page this value was built from, for `invalidatePage`. */
  pageId?: PageId
}

interface Entry<V> {
  value: V
  expiresAt: number
  pageId: PageId | undefined
}

export interface TtlCacheOptions {
  maxEntries: number
  defaultTtlMs: number
  clock?: Clock
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly keysByPage = new Map<PageId, Set<string>>()
  private readonly inFlight = new Map<string, Promise<V>>()
  /** Bumped by every invalidation; a load that started under an older epoch is not stored. */
  private epoch = 0
  private readonly maxEntries: number
  private readonly defaultTtlMs: number
  private readonly clock: Clock

  constructor(options: TtlCacheOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer')
    }
    this.maxEntries = options.maxEntries
    this.defaultTtlMs = options.defaultTtlMs
    this.clock = options.clock ?? systemClock
  }

  get size(): number {
    return this.entries.size
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= this.clock.now()) {
      this.remove(key, entry)
      return undefined
    }
    // Re-insert to mark as most recently used.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  set(key: string, fill: CacheFill<V>): void {
    const existing = this.entries.get(key)
    if (existing) this.remove(key, existing)
    const ttlMs = fill.ttlMs ?? this.defaultTtlMs
    if (ttlMs <= 0) return
    const entry: Entry<V> = {
      value: fill.value,
      expiresAt: this.clock.now() + ttlMs,
      pageId: fill.pageId,
    }
    this.entries.set(key, entry)
    if (entry.pageId !== undefined) {
      let keys = this.keysByPage.get(entry.pageId)
      if (!keys) this.keysByPage.set(entry.pageId, (keys = new Set()))
      keys.add(key)
    }
    while (this.entries.size > this.maxEntries) {
      const oldestKey = this.entries.keys().next().value as string
      this.remove(oldestKey, this.entries.get(oldestKey)!)
    }
  }

  /** The cached value, or the result of `load` (shared with any concurrent caller for the same key). */
  getOrLoad(key: string, load: () => Promise<CacheFill<V>>): Promise<V> {
    const hit = this.get(key)
    if (hit !== undefined) return Promise.resolve(hit)
    const pending = this.inFlight.get(key)
    if (pending) return pending
    const startedAt = this.epoch
    const promise = load().then(
      (fill) => {
        if (this.inFlight.get(key) === promise) this.inFlight.delete(key)
        if (this.epoch === startedAt) this.set(key, fill)
        return fill.value
      },
      (error: unknown) => {
        if (this.inFlight.get(key) === promise) this.inFlight.delete(key)
        throw error
      },
    )
    this.inFlight.set(key, promise)
    return promise
  }

  invalidate(key: string): void {
    this.epoch++
    this.inFlight.delete(key)
    const entry = this.entries.get(key)
    if (entry) this.remove(key, entry)
  }

  invalidatePage(pageId: PageId): void {
    this.epoch++
    // Which in-flight loads belong to the page is only known once they finish: drop them all.
    this.inFlight.clear()
    const keys = this.keysByPage.get(pageId)
    if (!keys) return
    for (const key of [...keys]) {
      const entry = this.entries.get(key)
      if (entry) this.remove(key, entry)
    }
  }

  clear(): void {
    this.epoch++
    this.inFlight.clear()
    this.entries.clear()
    this.keysByPage.clear()
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key)
    if (entry.pageId === undefined) return
    const keys = this.keysByPage.get(entry.pageId)
    keys?.delete(key)
    if (keys?.size === 0) this.keysByPage.delete(entry.pageId)
  }
}
