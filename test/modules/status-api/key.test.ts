/** `statusKey(url)`: the one cache key of the status JSON, shared by its route and the fast lane. */
import { expect, test } from 'bun:test'
import { statusKey, statusRequest, withoutUpdated } from '../../../src/modules/status-api/cached-reads.ts'

const at = (query: string) => `http://lantern.test/api/embed/status?${query}`

test('equivalent URLs share a key: parameter order, the slug\'s case, inc=0 or absent', () => {
  const key = statusKey(at('slug=acme&inc=1&rtm=60&upd=7'))
  expect(key).toBeDefined()
  expect(statusKey(at('upd=7&rtm=60&inc=1&slug=acme'))).toBe(key)
  expect(statusKey(at('slug=ACME&inc=1&rtm=60&upd=7'))).toBe(key)
  expect(statusKey(at('slug=acme&rtm=060&inc=1&upd=7'))).toBe(key)
  expect(statusKey(at('slug=acme&inc=0'))).toBe(statusKey(at('slug=acme')))
  // Parameters the endpoint does not read do not split the cache.
  expect(statusKey(at('slug=acme&inc=1&rtm=60&upd=7&cb=123'))).toBe(key)
  // Tags that get the same words share one: de-AT reads German; a language we do not have, the page's default.
  expect(statusKey(at('slug=acme&lang=de-AT'))).toBe(statusKey(at('slug=acme&lang=de')))
  expect(statusKey(at('slug=acme&lang=ko'))).toBe(statusKey(at('slug=acme&lang=')))
})

test('different answers get different keys', () => {
  const keys = ['slug=acme', 'slug=acme&inc=1', 'slug=acme&rtm=60', 'slug=acme&upd=7', 'slug=acme&rtm=7', 'slug=acme&upd=60', 'slug=other', 'slug=acme&lang=de', 'slug=acme&lang=ja', 'slug=acme&lang='].map((q) =>
    statusKey(at(q)),
  )
  expect(new Set(keys).size).toBe(keys.length)
})

test('repeated or malformed parameters are refused before any lookup: a 400 naming the parameter', async () => {
  for (const [query, message] of [
    ['slug=acme&slug=acme', 'slug must be given only once'],
    ['slug=acme&inc=1&inc=1', 'inc must be given only once'],
    ['slug=acme&rtm=60&rtm=60', 'rtm must be given only once'],
    ['slug=acme&upd=0', 'upd must be an integer from 1 to 30 (days)'],
    ['inc=1', 'missing slug'],
  ] as const) {
    const read = statusRequest(at(query))
    expect(statusKey(at(query))).toBeUndefined()
    if (!('refused' in read)) throw new Error(`${query} was not refused`)
    expect(read.refused.status).toBe(400)
    expect(JSON.parse(new TextDecoder().decode(read.refused.body))).toEqual({ error: message })
  }
})

test('a slug no page can have is a 404 without a key', () => {
  const read = statusRequest(at('slug=not_a_slug'))
  expect('refused' in read && read.refused.status).toBe(404)
})

test('the ETag input is the body without `updated`, cut from the encoded text', () => {
  const body = {
    page: 'acme',
    page_url: 'https://acme.status.example.com',
    overall: 'operational',
    updated: '2026-11-10T12:00:00.000Z',
    incidents: [{ id: '1', title: 'A "quoted" ,"updated":" title', state: 'investigating', started: '2026-11-10T11:00:00.000Z', component: null }],
    rtm: [1, null],
    upd: [],
    dns_only: false,
  }
  const { updated: _, ...figures } = body
  expect(withoutUpdated(JSON.stringify(body))).toBe(JSON.stringify(figures))
})
