/** `badgeKey(url)`: the one cache key of each badge, shared by its route and the fast lane. */
import { expect, test } from 'bun:test'
import { badgeKey, badgeRequest } from '../../../src/modules/badge/cached-reads.ts'

const at = (pathAndQuery: string) => `http://lantern.test${pathAndQuery}`

test('equivalent status badge URLs share a key: parameter order, the slug\'s case and encoding, labels that draw the same', () => {
  const key = badgeKey(at('/badge/acme.svg?style=flat-square&label=API'))
  expect(key).toBeDefined()
  expect(badgeKey(at('/badge/acme.svg?label=API&style=flat-square'))).toBe(key)
  expect(badgeKey(at('/badge/ACME.svg?style=flat-square&label=API'))).toBe(key)
  expect(badgeKey(at('/badge/%61cme.svg?style=flat-square&label=API'))).toBe(key)
  // Of repeated parameters the last counts, as on the route.
  expect(badgeKey(at('/badge/acme.svg?style=plastic&style=flat-square&label=x&label=API'))).toBe(key)
  // An unknown style draws flat; a label longer than 32 characters is drawn clamped.
  expect(badgeKey(at('/badge/acme.svg?style=nope'))).toBe(badgeKey(at('/badge/acme.svg')))
  expect(badgeKey(at('/badge/acme.svg?style=flat'))).toBe(badgeKey(at('/badge/acme.svg')))
  expect(badgeKey(at(`/badge/acme.svg?label=${'x'.repeat(40)}`))).toBe(badgeKey(at(`/badge/acme.svg?label=${'x'.repeat(50)}`)))
})

test('different badges get different keys', () => {
  const urls = [
    '/badge/acme.svg',
    '/badge/other.svg',
    '/badge/acme.svg?style=plastic',
    '/badge/acme.svg?label=API',
    '/badge/acme/uptime.svg',
    '/badge/acme/uptime.svg?days=7',
    '/badge/acme/uptime.svg?days=7&style=social',
  ]
  const keys = urls.map((url) => badgeKey(at(url)))
  expect(keys.every((key) => key !== undefined)).toBe(true)
  expect(new Set(keys).size).toBe(urls.length)
  // days absent is days=30.
  expect(badgeKey(at('/badge/acme/uptime.svg?days=30'))).toBe(badgeKey(at('/badge/acme/uptime.svg')))
})

test('no key for what is not a badge, and a 400 for a malformed or repeated days', () => {
  for (const path of ['/badge/acme', '/badge/a/b.svg', '/badge/a/b/uptime.svg', '/badge//uptime.svg', '/badges/acme.svg']) {
    expect(badgeKey(at(path))).toBeUndefined()
  }
  for (const query of ['days=0', 'days=91', 'days=7&days=7', 'days=x']) {
    const read = badgeRequest(at(`/badge/acme/uptime.svg?${query}`))
    expect(read !== undefined && 'refused' in read && read.refused.status).toBe(400)
  }
})

test('slugs no page can have share the key of the empty slug, so they share one gray answer', () => {
  expect(badgeKey(at('/badge/no_such.svg'))).toBe(badgeKey(at('/badge/.svg')))
})
