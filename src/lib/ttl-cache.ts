/**
 * A small in-process cache for public read paths.
 *
 * - bounded by entries and, when given a size function, by bytes: the least recently used entry
 *   goes first. Recency is a doubly linked list through the entries, so a hit only moves two
 *   pointers: re-inserting a key into a large `Map` (the old way) is not constant-time in Bun and
 *   made a hit cost 20 µs at 10,000 entries;
 * - every entry has its own time to live, measured on an injected clock;
 * - one load in flight per key: concurrent misses share one promise;
 * - invalidation by key, by page (entries remember the page they were built from), of every
 *   negative answer (built for something that does not exist), or all at once. A load that was
 *   running while anything was invalidated is handed to its waiters but not stored, so a cache
 *   never keeps a value read before a change it was told about.
 */
import type { Change, ChangeFeed } from './change-feed.ts'
import { systemClock, type Clock } from './clock.ts'

export type PageId = number

/** What a loader produces: the value and what the cache should know about it. */
export interface CacheFill<V> {
  value: V
  /** Overrides the cache's default time to live for this entry; 0 hands the value out without keeping it. */
  ttlMs?: number
  /** The page this value was built from, for `invalidatePage`. */
  pageId?: PageId
  /**
   * An answer about something that does not exist (an unknown slug): kept at most `negativeTtlMs`
   * and dropped by `invalidateNegatives` (a page was created, renamed or shown).
   */
  negative?: boolean
}

interface Entry<V> {
  readonly key: string
  readonly value: V
  readonly expiresAt: number
  readonly pageId: PageId | undefined
  readonly negative: boolean
  readonly bytes: number
  /** Neighbours in the recency list: `newer` toward the most recently used end. */
  newer: Entry<V> | undefined
  older: Entry<V> | undefined
}

export interface TtlCacheOptions<V> {
  maxEntries: number
  defaultTtlMs: number
  /** Upper bound of the sum of `sizeOf` over the entries (needs `sizeOf`); none by default. */
  maxBytes?: number
  /** Approximate memory an entry holds, in bytes: its key, value and bookkeeping. */
  sizeOf?: (key: string, value: V) => number
  /** The longest a negative answer is kept (it also keeps its own `ttlMs` when shorter). */
  negativeTtlMs?: number
  clock?: Clock
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly keysByPage = new Map<PageId, Set<string>>()
  private readonly negativeKeys = new Set<string>()
  private readonly inFlight = new Map<string, Promise<V>>()
  private newest: Entry<V> | undefined
  private oldest: Entry<V> | undefined
  private totalBytes = 0
  /** Bumped by every invalidation; a load that started under an older epoch is not stored. */
  private epoch = 0
  private readonly maxEntries: number
  private readonly maxBytes: number
  private readonly defaultTtlMs: number
  private readonly negativeTtlMs: number
  private readonly sizeOf: ((key: string, value: V) => number) | undefined
  private readonly clock: Clock

  constructor(options: TtlCacheOptions<V>) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer')
    }
    if (options.maxBytes !== undefined && (!(options.maxBytes > 0) || options.sizeOf === undefined)) {
      throw new RangeError('maxBytes must be positive and comes with sizeOf')
    }
    this.maxEntries = options.maxEntries
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY
    this.defaultTtlMs = options.defaultTtlMs
    this.negativeTtlMs = options.negativeTtlMs ?? Number.POSITIVE_INFINITY
    this.sizeOf = options.sizeOf
    this.clock = options.clock ?? systemClock
  }

  get size(): number {
    return this.entries.size
  }

  /** The sum of the entries' `sizeOf` (0 without a size function). */
  get bytes(): number {
    return this.totalBytes
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= this.clock.now()) {
      this.remove(entry)
      return undefined
    }
    if (entry !== this.newest) {
      this.unlink(entry)
      this.linkNewest(entry)
    }
    return entry.value
  }

  set(key: string, fill: CacheFill<V>): void {
    const existing = this.entries.get(key)
    if (existing) this.remove(existing)
    const negative = fill.negative === true
    const ttlMs = Math.min(fill.ttlMs ?? this.defaultTtlMs, negative ? this.negativeTtlMs : Number.POSITIVE_INFINITY)
    if (!(ttlMs > 0)) return
    const bytes = this.sizeOf ? this.sizeOf(key, fill.value) : 0
    // A value larger than the whole bound is handed out without being kept.
    if (bytes > this.maxBytes) return
    const entry: Entry<V> = {
      key,
      value: fill.value,
      expiresAt: this.clock.now() + ttlMs,
      pageId: fill.pageId,
      negative,
      bytes,
      newer: undefined,
      older: undefined,
    }
    this.entries.set(key, entry)
    this.linkNewest(entry)
    this.totalBytes += bytes
    if (negative) this.negativeKeys.add(key)
    if (entry.pageId !== undefined) {
      let keys = this.keysByPage.get(entry.pageId)
      if (!keys) this.keysByPage.set(entry.pageId, (keys = new Set()))
      keys.add(key)
    }
    while (this.oldest && (this.entries.size > this.maxEntries || this.totalBytes > this.maxBytes)) this.remove(this.oldest)
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
    if (entry) this.remove(entry)
  }

  invalidatePage(pageId: PageId): void {
    this.epoch++
    // Which in-flight loads belong to the page is only known once they finish: drop them all.
    this.inFlight.clear()
    this.removeKeys(this.keysByPage.get(pageId))
  }

  /** Drops every negative answer: something that did not exist may exist now. */
  invalidateNegatives(): void {
    this.epoch++
    // A load in flight may be about to store "unknown": it is not stored, and later callers load afresh.
    this.inFlight.clear()
    this.removeKeys(this.negativeKeys)
  }

  clear(): void {
    this.epoch++
    this.inFlight.clear()
    this.entries.clear()
    this.keysByPage.clear()
    this.negativeKeys.clear()
    this.newest = this.oldest = undefined
    this.totalBytes = 0
  }

  /** What a change of the data means for this cache (see ChangeFeed). */
  apply(change: Change): void {
    if (change.kind === 'all') return this.clear()
    this.invalidatePage(change.pageId)
    if (change.lookups) this.invalidateNegatives()
  }

  /** Keeps this cache in step with a change feed; returns the unsubscribe function. */
  follow(changes: ChangeFeed): () => void {
    return changes.subscribe((change) => this.apply(change))
  }

  private removeKeys(keys: Set<string> | undefined): void {
    if (!keys) return
    for (const key of [...keys]) {
      const entry = this.entries.get(key)
      if (entry) this.remove(entry)
    }
  }

  private remove(entry: Entry<V>): void {
    this.entries.delete(entry.key)
    this.unlink(entry)
    this.totalBytes -= entry.bytes
    if (entry.negative) this.negativeKeys.delete(entry.key)
    if (entry.pageId === undefined) return
    const keys = this.keysByPage.get(entry.pageId)
    keys?.delete(entry.key)
    if (keys?.size === 0) this.keysByPage.delete(entry.pageId)
  }

  private linkNewest(entry: Entry<V>): void {
    entry.older = this.newest
    entry.newer = undefined
    if (this.newest) this.newest.newer = entry
    else this.oldest = entry
    this.newest = entry
  }

  private unlink(entry: Entry<V>): void {
    if (entry.newer) entry.newer.older = entry.older
    else this.newest = entry.older
    if (entry.older) entry.older.newer = entry.newer
    else this.oldest = entry.newer
    entry.newer = entry.older = undefined
  }
}
