import { expect, test } from 'bun:test'
import { FastLane } from '../../src/http/fast-lane.ts'
import { prepareWithoutEtag } from '../../src/lib/http-cache.ts'

const prepared = (text: string) => prepareWithoutEtag(200, text, { contentType: 'text/plain', cacheControl: 'no-store' })

test('prefix handlers get the path; exact paths win; only GET', () => {
  const lane = new FastLane()
  const seen: string[] = []
  lane.registerPrefix('/badge/', (_request, path) => {
    seen.push(path)
    return path.endsWith('.svg') ? prepared(path) : undefined
  })
  lane.register('/badge/exact', () => prepared('exact'))
  expect(lane.answer(new Request('https://x.test/badge/acme.svg?style=flat'))).toBeDefined()
  expect(lane.answer(new Request('https://x.test/badge/acme'))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/badge/acme.svg', { method: 'HEAD' }))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/badges/acme.svg'))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/badge/exact'))).toBeDefined()
  expect(seen).toEqual(['/badge/acme.svg', '/badge/acme'])
})
