/**
 * Cost of a cache hit by the number of entries (issue 18): a full cache of 10, 1,000, 10,000 and
 * 100,000 entries, churned first (twice its size in new keys, so eviction has run), then one hot key
 * read over and over, as a warm badge is. The largest must cost at most twice the smallest.
 * In process, no I/O; each size is measured in several rounds and the median is kept.
 */
import { ManualClock } from '../helpers/clock.ts'
import { TtlCache } from '../../src/lib/ttl-cache.ts'

const SIZES = [10, 1_000, 10_000, 100_000]
/** Each round reads the hot key in batches until this much time has passed (bounded on a slow cache too). */
const ROUND_NS = 60_000_000
const BATCH = 1_000
const ROUNDS = 7
const LIMIT = 2

function measure(size: number): number {
  const clock = new ManualClock(0)
  const cache = new TtlCache<string>({ maxEntries: size, defaultTtlMs: 60_000, clock })
  // Churn: twice the bound in distinct keys, with reads in between, so evictions have happened.
  for (let i = 0; i < 3 * size; i++) {
    cache.set(`churn:${i}`, { value: 'x' })
    if (i % 3 === 0) cache.get(`churn:${i >> 1}`)
  }
  const hot = 'badge:acme:flat:'
  cache.set(hot, { value: 'svg' })
  let sink = 0
  let hits = 0
  const perHit: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const start = Bun.nanoseconds()
    let elapsed = 0
    let roundHits = 0
    while (elapsed < ROUND_NS) {
      for (let i = 0; i < BATCH; i++) sink += cache.get(hot)!.length
      roundHits += BATCH
      elapsed = Bun.nanoseconds() - start
    }
    hits += roundHits
    perHit.push(elapsed / roundHits)
  }
  if (sink !== 3 * hits || cache.size !== size) throw new Error('the hot key was lost')
  return perHit.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!
}

// Warm the JIT on a mid-sized cache before measuring.
measure(1_000)
const results = SIZES.map((size) => ({ size, ns: measure(size) }))
const smallest = results[0]!.ns
console.log('\n## TtlCache hit cost by number of entries (median of rounds)')
console.log('   entries    ns/hit   vs 10 entries')
for (const { size, ns } of results) {
  console.log(`${String(size).padStart(10)} ${ns.toFixed(1).padStart(9)}   ${(ns / smallest).toFixed(2).padStart(6)}×`)
}
const worst = Math.max(...results.map((r) => r.ns)) / smallest
const met = results.at(-1)!.ns <= LIMIT * smallest
console.log(`largest/smallest ${(results.at(-1)!.ns / smallest).toFixed(2)}× (worst ${worst.toFixed(2)}×; target ≤ ${LIMIT}×: ${met ? 'met' : 'NOT met'})`)
process.exit(met ? 0 : 1)
