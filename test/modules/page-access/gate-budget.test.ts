/**
 * The gate of a private page cannot be brute-forced by rotating client addresses: besides the
 * budget per client (IPv6: per /64) there is one per page, bounded in time, from which clients
 * that opened the page before are exempt. New gate passwords need 8 characters; shorter ones set
 * before keep working.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { GATE_ATTEMPTS, GATE_PAGE_ATTEMPTS, GATE_PAGE_WINDOW_MS, GATE_WINDOW_MS } from '../../../src/modules/page-access/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'


let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('pro')).key
})
afterAll(() => ctx.close())

async function privatePage(slug: string, password: string): Promise<number> {
  const page = await ctx.createPage(key, { slug, name: slug, visibility: 'private' })
  const set = await ctx.request(`/user/api/v1/status-pages/${page.id}/access`, { method: 'PUT', key, json: { password } })
  expect(set.status).toBe(200)
  return page.id
}

function attempt(slug: string, password: string, client: string) {
  return ctx.request(`https://${slug}.status.test/_lantern/access`, {
    method: 'POST',
    body: new URLSearchParams({ password, next: '/' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
  })
}

describe('gate budgets', () => {
  test('100 guesses from 100 IPv6 networks: the page budget stops them, for a bounded time', async () => {
    await privatePage('rotated', 'the real password')
    await privatePage('bystander', 'the real password')
    const regular = '192.0.2.10'
    expect((await attempt('rotated', 'the real password', regular)).status).toBe(303)
    const statuses: number[] = []
    for (let i = 0; i < 100; i++) statuses.push((await attempt('rotated', `guess ${i}`, `2001:db8:${i.toString(16)}::1`)).status)
    expect(statuses.filter((s) => s === 401).length).toBe(GATE_PAGE_ATTEMPTS)
    expect(statuses.filter((s) => s === 429).length).toBe(100 - GATE_PAGE_ATTEMPTS)
    // A newcomer with the right password waits too (otherwise the answer would tell the guesser).
    const held = await attempt('rotated', 'the real password', '198.51.100.77')
    expect(held.status).toBe(429)
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(held.headers.get('retry-after'))).toBeLessThanOrEqual(GATE_PAGE_WINDOW_MS / 1000)
    // A visitor who opened the page from this address before is not locked out; other pages are untouched.
    expect((await attempt('rotated', 'the real password', regular)).status).toBe(303)
    expect((await attempt('bystander', 'the real password', '198.51.100.77')).status).toBe(303)
    ctx.clock.advance(GATE_PAGE_WINDOW_MS)
    expect((await attempt('rotated', 'the real password', '198.51.100.77')).status).toBe(303)
  })

  test('addresses of one IPv6 /64 share one client budget', async () => {
    await privatePage('prefix', 'the real password')
    for (let i = 0; i < GATE_ATTEMPTS; i++) expect((await attempt('prefix', `guess ${i}`, `2001:db8:aa:bb::${i + 1}`)).status).toBe(401)
    expect((await attempt('prefix', 'the real password', '2001:db8:aa:bb:1234::9')).status).toBe(429)
    expect((await attempt('prefix', 'the real password', '2001:db8:aa:bc::1')).status).toBe(303)
    ctx.clock.advance(GATE_WINDOW_MS)
  })
})

describe('gate password length', () => {
  test('a new gate password needs at least 8 characters', async () => {
    const page = await ctx.createPage(key, { slug: 'short', name: 'Short', visibility: 'private' })
    const short = await ctx.request(`/user/api/v1/status-pages/${page.id}/access`, { method: 'PUT', key, json: { password: 'seven77' } })
    expect(short.status).toBe(400)
    expect((await json(short)).error).toBe('password must be at least 8 characters')
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/access`, { key }))).data.password_set).toBe(false)
    const ok = await ctx.request(`/user/api/v1/status-pages/${page.id}/access`, { method: 'PUT', key, json: { password: 'eight888' } })
    expect(ok.status).toBe(200)
  })

  test('a shorter password stored before the rule still opens the gate', async () => {
    const page = await ctx.createPage(key, { slug: 'legacy', name: 'Legacy', visibility: 'private' })
    // A row as an older Lantern wrote it (4 characters were enough then).
    await ctx.database.db
      .insertInto('page_access')
      .values({ page_id: page.id, password_hash: await ctx.passwords.hash('abc123'), embed_token_hash: null, updated_at: ctx.clock.now() })
      .execute()
    expect((await attempt('legacy', 'abc12', '192.0.2.60')).status).toBe(401)
    const opened = await attempt('legacy', 'abc123', '192.0.2.60')
    expect(opened.status).toBe(303)
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!
    expect((await ctx.request('https://legacy.status.test/', { headers: { cookie } })).status).toBe(200)
  })
})
