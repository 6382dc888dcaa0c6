import { expect, test } from 'bun:test'
import { FastLane } from '../../src/http/fast-lane.ts'

test('prefix handlers get the path; exact paths win; only GET', () => {
  const lane = new FastLane()
  const seen: string[] = []
  lane.registerPrefix('/badge/', (_request, path) => {
    seen.push(path)
    return path.endsWith('.svg') ? new Response(path) : undefined
  })
  lane.register('/badge/exact', () => new Response('exact'))
  expect(lane.answer(new Request('https://x.test/badge/acme.svg?style=flat'))).toBeInstanceOf(Response)
  expect(lane.answer(new Request('https://x.test/badge/acme'))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/badge/acme.svg', { method: 'HEAD' }))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/badges/acme.svg'))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/badge/exact'))).toBeInstanceOf(Response)
  expect(seen).toEqual(['/badge/acme.svg', '/badge/acme'])
})
