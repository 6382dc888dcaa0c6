import { describe, expect, test } from 'bun:test'
import { ManualClock } from '../helpers/clock.ts'
import { createPublicCache, etagFor, NEGATIVE_TTL_MS, preparedSize, prepareResponse, prepareWithoutEtag } from '../../src/lib/http-cache.ts'

const svg = (body: string) => prepareResponse(200, body, { contentType: 'image/svg+xml; charset=utf-8', cacheControl: 'public, max-age=300' })

describe('the public cache', () => {
  test('an entry is estimated from its body, key and headers plus a fixed overhead', async () => {
    const prepared = await svg('x'.repeat(1000))
    const headerChars = Object.entries(prepared.headers).reduce((sum, [name, value]) => sum + name.length + value.length, 0)
    expect(preparedSize('badge:acme:flat:', prepared)).toBe(1000 + 2 * 'badge:acme:flat:'.length + headerChars + 512)
    // Bytes, not characters: a multi-byte body counts what it occupies.
    expect((await svg('é'.repeat(100))).body.byteLength).toBe(200)
    expect(preparedSize('k', await svg('é'.repeat(100)))).toBeGreaterThan(preparedSize('k', await svg('e'.repeat(100))))
  })

  test('stays under its byte bound when answers are large, keeping the most recently used', async () => {
    const cache = createPublicCache({ clock: new ManualClock(0), maxBytes: 1024 * 1024 })
    const big = await svg('x'.repeat(100_000))
    for (let i = 0; i < 30; i++) {
      cache.set(`page:${i}`, { value: big })
      cache.get('page:0') // the hot one
      expect(cache.bytes).toBeLessThanOrEqual(1024 * 1024)
    }
    expect(cache.size).toBe(10) // ten answers of ~100 KB fit in 1 MiB
    expect(cache.get('page:0')).toBe(big)
    expect(cache.get('page:1')).toBeUndefined()
    expect(cache.get('page:29')).toBe(big)
  })

  test('keeps negative answers for NEGATIVE_TTL_MS at most', () => {
    const clock = new ManualClock(0)
    const cache = createPublicCache({ clock })
    const notFound = prepareWithoutEtag(404, '{"error":"not found"}', { contentType: 'application/json', cacheControl: 'no-store' })
    cache.set('status:nobody:0:0:0', { value: notFound, negative: true, ttlMs: 15_000 })
    clock.advance(NEGATIVE_TTL_MS - 1)
    expect(cache.get('status:nobody:0:0:0')).toBe(notFound)
    clock.advance(1)
    expect(cache.get('status:nobody:0:0:0')).toBeUndefined()
  })
})

describe('etagFor', () => {
  const bytes = (text: string) => new TextEncoder().encode(text)

  test('answers synchronously (no crypto round trip on a cold read) and is stable for equal bytes', () => {
    const tag = etagFor(bytes('{"page":"acme"}'))
    expect(typeof tag).toBe('string')
    expect(tag).toMatch(/^"[0-9a-z]+-[0-9a-f]{16}"$/)
    // Equal bytes, even in another buffer at another offset, give the same tag.
    const padded = new Uint8Array(40)
    padded.set(bytes('{"page":"acme"}'), 3)
    expect(etagFor(padded.subarray(3, 3 + 15))).toBe(tag)
    // A known value: tags must not change between releases or processes (clients hold them).
    expect(tag).toBe('"f-0f32e7d2dc238385"')
    expect(etagFor(bytes(''))).toBe('"0-ec506c0958935aed"')
  })

  test('tells apart bodies that differ in one bit, in their tail bytes, in length or by a swap', () => {
    const seen = new Set<string>()
    const base = bytes('x'.repeat(1003))
    seen.add(etagFor(base))
    for (let i = 0; i < base.length; i++) {
      for (const bit of [1, 64]) {
        const copy = base.slice()
        copy[i]! ^= bit
        seen.add(etagFor(copy))
      }
    }
    for (let n = 0; n < 9; n++) seen.add(etagFor(base.subarray(0, n)))
    seen.add(etagFor(bytes('ab'.repeat(100))))
    seen.add(etagFor(bytes('ba'.repeat(100))))
    seen.add(etagFor(new Uint8Array(4)))
    seen.add(etagFor(new Uint8Array(8)))
    expect(seen.size).toBe(1 + 2 * 1003 + 9 + 4)
  })

  test('has no collisions over many similar small bodies (status JSON that differ in one figure)', () => {
    const tags = new Set<string>()
    for (let i = 0; i < 50_000; i++) tags.add(etagFor(bytes(`{"rtm":[${i % 500},${Math.floor(i / 500)}],"upd":[99.9]}`)))
    expect(tags.size).toBe(50_000)
  })
})
