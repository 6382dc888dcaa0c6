import { describe, expect, test } from 'bun:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { TtlCache } from '../../src/lib/ttl-cache.ts'

const make = (maxEntries = 3, defaultTtlMs = 1000) => {
  const clock = new ManualClock(0)
  return { clock, cache: new TtlCache<string>({ maxEntries, defaultTtlMs, clock }) }
}

describe('TtlCache', () => {
  test('an entry lives for its time to live and not a millisecond longer', () => {
    const { clock, cache } = make()
    cache.set('a', { value: 'A' })
    cache.set('b', { value: 'B', ttlMs: 5000 })
    clock.advance(999)
    expect(cache.get('a')).toBe('A')
    clock.advance(1)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('b')).toBe('B')
    expect(cache.size).toBe(1)
  })

  test('a time to live of 0 hands the value out without keeping it', async () => {
    const { cache } = make()
    expect(await cache.getOrLoad('a', async () => ({ value: 'A', ttlMs: 0 }))).toBe('A')
    expect(cache.get('a')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  test('the bound evicts the least recently used entry first', () => {
    const { cache } = make(3)
    cache.set('a', { value: 'A' })
    cache.set('b', { value: 'B' })
    cache.set('c', { value: 'C' })
    expect(cache.get('a')).toBe('A') // a is now the most recently used
    cache.set('d', { value: 'D' })
    expect(cache.size).toBe(3)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe('A')
    cache.set('e', { value: 'E' }) // c is the oldest now
    expect(cache.get('c')).toBeUndefined()
    expect(cache.get('d')).toBe('D')
  })

  test('setting an existing key replaces it and refreshes its lifetime', () => {
    const { clock, cache } = make()
    cache.set('a', { value: 'old' })
    clock.advance(900)
    cache.set('a', { value: 'new' })
    clock.advance(900)
    expect(cache.get('a')).toBe('new')
    expect(cache.size).toBe(1)
  })

  test('invalidation by key and by page', () => {
    const { cache } = make(10)
    cache.set('md:a', { value: 'A', pageId: 1 })
    cache.set('badge:a', { value: 'A2', pageId: 1 })
    cache.set('md:b', { value: 'B', pageId: 2 })
    cache.set('plain', { value: 'P' })
    cache.invalidate('plain')
    expect(cache.get('plain')).toBeUndefined()
    cache.invalidatePage(1)
    expect(cache.get('md:a')).toBeUndefined()
    expect(cache.get('badge:a')).toBeUndefined()
    expect(cache.get('md:b')).toBe('B')
    cache.invalidatePage(99) // unknown page: nothing happens
    cache.clear()
    expect(cache.size).toBe(0)
  })

  test('concurrent misses share one load', async () => {
    const { cache } = make()
    let loads = 0
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const load = async () => {
      loads++
      await gate
      return { value: `v${loads}` }
    }
    const all = Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load), cache.getOrLoad('k', load)])
    release()
    expect(await all).toEqual(['v1', 'v1', 'v1'])
    expect(loads).toBe(1)
    expect(await cache.getOrLoad('k', load)).toBe('v1')
    expect(loads).toBe(1)
  })

  test('a failed load is shared by its waiters and not cached', async () => {
    const { cache } = make()
    let loads = 0
    const failing = async () => {
      loads++
      throw new Error('db down')
    }
    const results = await Promise.allSettled([cache.getOrLoad('k', failing), cache.getOrLoad('k', failing)])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(loads).toBe(1)
    expect(await cache.getOrLoad('k', async () => ({ value: 'ok' }))).toBe('ok')
  })

  test('a load that raced with an invalidation is not stored, and later callers load afresh', async () => {
    const { cache } = make()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const stale = cache.getOrLoad('k', async () => {
      await gate
      return { value: 'stale', pageId: 7 }
    })
    cache.invalidatePage(7)
    const fresh = cache.getOrLoad('k', async () => ({ value: 'fresh', pageId: 7 }))
    release()
    expect(await stale).toBe('stale')
    expect(await fresh).toBe('fresh')
    expect(cache.get('k')).toBe('fresh')
  })

  test('refuses a bound that is not a positive integer', () => {
    expect(() => new TtlCache({ maxEntries: 0, defaultTtlMs: 1 })).toThrow(RangeError)
  })
})
