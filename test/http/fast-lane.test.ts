import { expect, test } from 'bun:test'
import { FastLane, requestPath } from '../../src/http/fast-lane.ts'
import { prepareWithoutEtag } from '../../src/lib/http-cache.ts'

test('requestPath reads the path of absolute URLs', () => {
  expect(requestPath('http://localhost:3000/api/embed/markdown?slug=a')).toBe('/api/embed/markdown')
  expect(requestPath('https://x.io/')).toBe('/')
  expect(requestPath('https://x.io')).toBe('/')
  expect(requestPath('https://x.io/a/b')).toBe('/a/b')
  expect(requestPath('https://x.io?q=/a')).toBe('/')
})

test('answers only GET requests on registered paths, and only when the handler has an answer', () => {
  const lane = new FastLane()
  const cached = prepareWithoutEtag(200, 'cached', { contentType: 'text/plain', cacheControl: 'no-store' })
  lane.register('/hot', (_request, url) => (url.endsWith('?hit') ? cached : undefined))
  expect(lane.answer(new Request('https://x.test/hot?hit'))).toBe(cached)
  expect(lane.answer(new Request('https://x.test/hot?miss'))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/hot?hit', { method: 'POST' }))).toBeUndefined()
  expect(lane.answer(new Request('https://x.test/cold?hit'))).toBeUndefined()
})

test('a registered miss reader answers GETs the cache did not (a Promise), and nothing else', async () => {
  const lane = new FastLane()
  lane.register(
    '/hot',
    () => undefined,
    (request) => (request.url.endsWith('?bad') ? undefined : Promise.resolve(new Response('loaded'))),
  )
  lane.register('/cache-only', () => undefined)
  const loaded = lane.miss(new Request('https://x.test/hot?ok'))
  expect(loaded).toBeInstanceOf(Promise)
  expect(await (await loaded!).text()).toBe('loaded')
  // The reader leaves what it does not answer (a refused query) to the route; so do other methods and paths.
  expect(lane.miss(new Request('https://x.test/hot?bad'))).toBeUndefined()
  expect(lane.miss(new Request('https://x.test/hot?ok', { method: 'HEAD' }))).toBeUndefined()
  expect(lane.miss(new Request('https://x.test/cache-only'))).toBeUndefined()
  expect(lane.miss(new Request('https://x.test/cold'))).toBeUndefined()
})
