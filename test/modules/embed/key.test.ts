/** `snippetsKey(url)`: the one cache key of the snippets, shared by their route and the fast lane. */
import { expect, test } from 'bun:test'
import { snippetsKey, snippetsRequest } from '../../../src/modules/embed/cached-reads.ts'

const at = (query: string) => `http://lantern.test/api/embed/markdown?${query}`

test('equivalent URLs share a key: the slug\'s case, its encoding, other parameters', () => {
  const key = snippetsKey(at('slug=acme'))
  expect(key).toBeDefined()
  expect(snippetsKey(at('slug=ACME'))).toBe(key)
  expect(snippetsKey(at('slug=%61cme'))).toBe(key)
  expect(snippetsKey(at('cb=1&slug=acme'))).toBe(key)
  expect(snippetsKey(at('slug=other'))).not.toBe(key)
})

test('missing, empty or repeated slugs are a 400 and a slug no page can have a 404, all without a key', () => {
  for (const [query, status] of [['', 400], ['slug=', 400], ['slug=acme&slug=acme', 400], ['slug=a_b', 404]] as const) {
    expect(snippetsKey(at(query))).toBeUndefined()
    const read = snippetsRequest(at(query))
    expect('refused' in read && read.refused.status).toBe(status)
  }
})
