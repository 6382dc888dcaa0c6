/** The public cache, counting its hits and the answers it had to build (for `/metrics`). */
import { TtlCache, type CacheFill, type TtlCacheOptions } from '../../lib/ttl-cache.ts'
import type { CacheCounts } from './registry.ts'

export class MeteredCache<V> extends TtlCache<V> {
  constructor(
    options: TtlCacheOptions<V>,
    private readonly counts: CacheCounts,
  ) {
    super(options)
  }

  /** A lookup that finds a fresh value is a hit; one that finds none is not yet a miss (see getOrLoad). */
  override get(key: string): V | undefined {
    const value = super.get(key)
    if (value !== undefined) this.counts.hits++
    return value
  }

  /** A miss is a load that actually runs: callers look up first, and concurrent waiters share one load. */
  override getOrLoad(key: string, load: () => Promise<CacheFill<V>>): Promise<V> {
    return super.getOrLoad(key, () => {
      this.counts.misses++
      return load()
    })
  }
}
