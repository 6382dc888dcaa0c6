import { describe, expect, test } from 'bun:test'
import { ChangeFeed } from '../../src/lib/change-feed.ts'
import { ManualClock } from '../helpers/clock.ts'
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
    expect(() => new TtlCache({ maxEntries: 1, defaultTtlMs: 1, maxBytes: 100 })).toThrow(RangeError)
  })
})

describe('TtlCache eviction order (least recently used)', () => {
  const keysOf = (cache: TtlCache<string>, candidates: string[]) => candidates.filter((k) => cache.get(k) !== undefined)

  test('a long run of hits on one key keeps it while the others rotate out in insertion order', () => {
    const { cache } = make(4, 60_000)
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, { value: k })
    for (let i = 0; i < 1000; i++) cache.get('a')
    cache.set('e', { value: 'e' }) // b goes
    cache.set('f', { value: 'f' }) // c goes
    expect(cache.size).toBe(4)
    // Probe without changing the order under test: every probe below is a hit that is then checked.
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('c')).toBeUndefined()
    expect(keysOf(cache, ['a', 'd', 'e', 'f'])).toEqual(['a', 'd', 'e', 'f'])
  })

  test('the order follows the latest use, hits and refreshes alike', () => {
    const { clock, cache } = make(3, 60_000)
    cache.set('a', { value: 'A' })
    cache.set('b', { value: 'B' })
    cache.set('c', { value: 'C' })
    clock.advance(10)
    cache.get('b') // order, oldest first: a c b
    cache.get('a') // c b a
    cache.set('c', { value: 'C2' }) // a refresh counts as a use: b a c
    cache.set('d', { value: 'D' }) // b goes
    expect(cache.get('b')).toBeUndefined()
    cache.set('e', { value: 'E' }) // order was a c d (the failed probe of b changed nothing): a goes
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('c')).toBe('C2')
    expect(cache.get('d')).toBe('D')
    expect(cache.get('e')).toBe('E')
  })

  test('expired and invalidated entries leave the order intact for the rest', () => {
    const { clock, cache } = make(3, 1000)
    cache.set('short', { value: 'S', ttlMs: 10 })
    cache.set('x', { value: 'X', pageId: 1 })
    cache.set('y', { value: 'Y' })
    clock.advance(10)
    expect(cache.get('short')).toBeUndefined()
    cache.invalidatePage(1)
    expect(cache.size).toBe(1)
    cache.set('p', { value: 'P' })
    cache.set('q', { value: 'Q' })
    cache.set('r', { value: 'R' }) // y is the oldest
    expect(cache.get('y')).toBeUndefined()
    expect(keysOf(cache, ['p', 'q', 'r'])).toEqual(['p', 'q', 'r'])
    cache.clear()
    cache.set('after-clear', { value: 'Z' })
    expect(cache.get('after-clear')).toBe('Z')
    expect(cache.size).toBe(1)
  })
})

describe('TtlCache byte bound', () => {
  const sized = (maxBytes: number, maxEntries = 100) => {
    const clock = new ManualClock(0)
    const cache = new TtlCache<string>({ maxEntries, defaultTtlMs: 60_000, maxBytes, sizeOf: (key, value) => key.length + value.length, clock })
    return { clock, cache }
  }

  test('evicts the least recently used entries to stay under its bound', () => {
    const { cache } = sized(100)
    cache.set('a', { value: 'x'.repeat(39) }) // 40 bytes
    cache.set('b', { value: 'x'.repeat(39) }) // 80
    cache.get('a')
    cache.set('c', { value: 'x'.repeat(29) }) // 110 > 100: b (least recently used) goes
    expect(cache.bytes).toBe(70)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBeDefined()
    expect(cache.get('c')).toBeDefined()
    cache.set('d', { value: 'x'.repeat(89) }) // 160: a and c go
    expect(cache.size).toBe(1)
    expect(cache.bytes).toBe(90)
    for (let i = 0; i < 50; i++) {
      cache.set(`k${i}`, { value: 'x'.repeat(i % 30) })
      expect(cache.bytes).toBeLessThanOrEqual(100)
    }
  })

  test('a value bigger than the whole bound is handed out but not kept', async () => {
    const { cache } = sized(50)
    cache.set('small', { value: 'x' })
    expect(await cache.getOrLoad('huge', async () => ({ value: 'x'.repeat(100) }))).toHaveLength(100)
    expect(cache.get('huge')).toBeUndefined()
    expect(cache.get('small')).toBe('x')
  })

  test('removals give their bytes back', () => {
    const { clock, cache } = sized(1000)
    cache.set('a', { value: 'xxxx', pageId: 1 })
    cache.set('b', { value: 'xxxx', ttlMs: 5 })
    cache.set('c', { value: 'xxxx', negative: true })
    cache.set('a', { value: 'xx', pageId: 1 }) // replaced: 3 bytes, not 5 + 3
    expect(cache.bytes).toBe(13)
    cache.invalidateNegatives()
    clock.advance(5)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.bytes).toBe(3)
    cache.invalidatePage(1)
    expect(cache.bytes).toBe(0)
  })
})

describe('TtlCache negative answers', () => {
  const withNegatives = () => {
    const clock = new ManualClock(0)
    return { clock, cache: new TtlCache<string>({ maxEntries: 10, defaultTtlMs: 60_000, negativeTtlMs: 10_000, clock }) }
  }

  test('are kept no longer than the negative lifetime, whatever the loader asked', async () => {
    const { clock, cache } = withNegatives()
    let loads = 0
    const load = async () => ({ value: `unknown ${++loads}`, negative: true, ttlMs: 60_000 })
    expect(await cache.getOrLoad('badge:nope', load)).toBe('unknown 1')
    clock.advance(9_999)
    expect(await cache.getOrLoad('badge:nope', load)).toBe('unknown 1')
    clock.advance(1)
    expect(await cache.getOrLoad('badge:nope', load)).toBe('unknown 2')
    expect(loads).toBe(2)
  })

  test('a change that affects lookups drops them, and only them; other page changes keep them', () => {
    const { cache } = withNegatives()
    const changes = new ChangeFeed()
    cache.follow(changes)
    cache.set('badge:nope', { value: 'unknown', negative: true })
    cache.set('badge:acme', { value: 'green', pageId: 1 })
    cache.set('badge:other', { value: 'green', pageId: 2 })
    changes.pageChanged(2) // an incident on page 2: nothing becomes findable
    expect(cache.get('badge:nope')).toBe('unknown')
    expect(cache.get('badge:other')).toBeUndefined()
    changes.pageChanged(3, { lookups: true }) // page 3 created
    expect(cache.get('badge:nope')).toBeUndefined()
    expect(cache.get('badge:acme')).toBe('green')
    changes.publish({ kind: 'all' })
    expect(cache.size).toBe(0)
  })

  test('a negative load that raced with a page creation is not stored', async () => {
    const { cache } = withNegatives()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const stale = cache.getOrLoad('md:new', async () => {
      await gate
      return { value: 'unknown', negative: true }
    })
    cache.invalidateNegatives()
    release()
    expect(await stale).toBe('unknown')
    expect(cache.get('md:new')).toBeUndefined()
    expect(await cache.getOrLoad('md:new', async () => ({ value: 'found', pageId: 4 }))).toBe('found')
  })
})
