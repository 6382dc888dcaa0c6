import { expect, test } from 'bun:test'
import { FastLane, requestPath } from '../../src/http/fast-lane.ts'

test('requestPath reads the path of absolute URLs', () => {
  expect(requestPath('http://localhost:3000/api/embed/markdown?slug=a')).toBe('/api/embed/markdown')
  expect(requestPath('https://x.io/')).toBe('/')
  expect(requestPath('https://x.io')).toBe('/')
  expect(requestPath('https://x.io/a/b')).toBe('/a/b')
  expect(requestPath('https://x.io?q=/a')).toBe('/')
})

test('answers only GET requests on registered paths, and only when the handler has an answer', () => {
  const lane = new FastLane()
  lane.register('/hot', (request) => (request.url.endsWith('?hit') ? new Response('cached') : undefined))
  expect(lane.answer(new Request('https://x.test/hot?hit'))).toBeInstanceOf(Response)
  expect(lane.answer(new Request('https://x.test/hot?miss'))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/hot?hit', { method: 'POST' }))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/cold?hit'))).toBeUndefined()
})
