/**
 * The domain lookup tools over the real app and a local DNS zone: each tool, recent checks at
 * exactly 3 on Free and more on a paid plan (trimmed in the insert's transaction), the rate limit,
 * the address guard refusing private targets, 400s that keep nothing, and ownership.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ToolChecksRepo } from '../../../src/modules/lookup-tools/repo.ts'
import { FREE_RECENT_CHECKS, LOOKUPS_PER_MINUTE } from '../../../src/modules/lookup-tools/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { dkimRecord, emailAuthZone, startZoneServer, type ZoneServer } from '../email-auth/zone.ts'
import { testDeps } from '../monitors/fixtures.ts'

let ctx: TestContext
let server: ZoneServer
let free: { key: string; user: { id: number } }
let paid: { key: string; user: { id: number } }

beforeAll(async () => {
  server = await startZoneServer(emailAuthZone({ k2048: dkimRecord(2048), k1024: dkimRecord(1024), k512: dkimRecord(512) }))
  // The guard as in production (private targets refused); `internal.test` resolves to a private address.
  const checkDeps = testDeps({ allowPrivate: false, names: { 'internal.test': ['10.0.0.5'] }, dnsServers: [server.address] })
  ctx = await createTestContext({ checkDeps })
  free = await ctx.createOwner('free')
  paid = await ctx.createOwner('pro')
})
afterAll(async () => {
  await ctx.close()
  await server.close()
})

const lookup = (body: Record<string, unknown>, key = paid.key) => ctx.request('/user/api/v1/tools/lookups', { method: 'POST', key, json: body })
const recent = async (key: string) => json(await ctx.request('/user/api/v1/tools/lookups', { key }))

describe('tools', () => {
  test('spf, dkim (split 2048-bit key), dmarc, mx, dns and dnsbl answer a status, a summary and the result', async () => {
    const spf = await lookup({ tool: 'spf', target: 'Deep.Test.' })
    expect(spf.status).toBe(201)
    expect((await json(spf)).data).toMatchObject({ tool: 'spf', target: 'deep.test', status: 'fail', result: { spf: { status: 'fail' } } })

    const dkim = (await json(await lookup({ tool: 'dkim', target: 'good.test', selectors: ['s2048'] }))).data
    expect(dkim).toMatchObject({ target: 's2048 @ good.test', status: 'pass', result: { dkim: { selectors: [{ selector: 's2048', bits: 2048 }] } } })

    expect((await json(await lookup({ tool: 'dmarc', target: 'none.test' }))).data).toMatchObject({ status: 'warning', result: { dmarc: { policy: 'none' } } })
    expect((await json(await lookup({ tool: 'mx', target: 'good.test' }))).data).toMatchObject({ status: 'pass', summary: '10 mx.good.test', result: { hosts: [{ exchange: 'mx.good.test', addresses: ['192.0.2.25'] }] } })

    const dns = (await json(await lookup({ tool: 'dns', target: 'good.test' }))).data
    expect(dns.status).toBe('pass')
    expect(dns.result.records).toMatchObject({ A: ['192.0.2.25'], MX: ['10 mx.good.test'], TXT: ['v=spf1 ip4:192.0.2.0/24 mx -all'] })
    expect((await json(await lookup({ tool: 'dns', target: 'nothing.test' }))).data.status).toBe('missing')

    // Every zone answers NXDOMAIN here: clear everywhere.
    const dnsbl = (await json(await lookup({ tool: 'dnsbl', target: '192.0.2.99' }))).data
    expect(dnsbl).toMatchObject({ tool: 'dnsbl', status: 'pass', result: { kind: 'dnsbl', verdict: 'pass' } })
  })

  test('bad input is a 400 that runs and keeps nothing', async () => {
    const before = (await recent(paid.key)).meta.count
    for (const body of [{ tool: 'whois', target: 'good.test' }, { tool: 'spf', target: 'not a domain' }, { tool: 'dkim', target: 'good.test', selectors: ['bad selector'] }, { tool: 'spf' }]) {
      const response = await lookup(body)
      expect(response.status).toBe(400)
      expect(typeof (await json(response)).error).toBe('string')
    }
    expect((await recent(paid.key)).meta.count).toBe(before)
  })

  test('SSL goes through the address guard: a private literal is refused up front, a name resolving to one at connect time', async () => {
    const literal = await lookup({ tool: 'ssl', target: '127.0.0.1:443' })
    expect(literal.status).toBe(400)
    expect((await json(literal)).error).toBe('target cannot be checked: 127.0.0.1 is a loopback address (MONITOR_PRIVATE_TARGETS=1 allows it)')
    const named = (await json(await lookup({ tool: 'ssl', target: 'internal.test' }))).data
    expect(named.status).toBe('fail')
    expect(named.summary).toContain('internal.test resolves to 10.0.0.5, a private address (MONITOR_PRIVATE_TARGETS=1 allows it)')
  })
})

describe('recent checks', () => {
  test('free: exactly the newest 3 are kept', async () => {
    for (const target of ['good.test', 'none.test', 'ext.test']) expect((await lookup({ tool: 'spf', target }, free.key)).status).toBe(201)
    let list = await recent(free.key)
    expect(list.meta).toEqual({ count: 3, limit: FREE_RECENT_CHECKS, cap: FREE_RECENT_CHECKS })
    expect((await lookup({ tool: 'spf', target: 'plusall.test' }, free.key)).status).toBe(201)
    list = await recent(free.key)
    expect(list.data.map((c: { target: string }) => c.target)).toEqual(['plusall.test', 'ext.test', 'none.test'])
    // Trimmed in the table itself, not only in the list.
    expect(await new ToolChecksRepo(ctx.database.db).count(free.user.id)).toBe(3)
  })

  test('paid: more than 3 are kept, the list says unlimited', async () => {
    const list = await recent(paid.key)
    expect(list.meta.limit).toBeNull()
    expect(list.meta.count).toBeGreaterThan(3)
  })

  test('the trim keeps the newest N in the same transaction as the insert (the sanity cap for paid plans)', async () => {
    const repo = new ToolChecksRepo(ctx.database.db)
    const owner = await ctx.createOwner('pro')
    const row = { user_id: owner.user.id, tool: 'spf', target: 'x.test', status: 'pass', summary: '', result_json: '{}', created_at: 0 }
    for (let i = 0; i < 7; i++) await repo.insertKeeping({ ...row, target: `t${i}.test` }, 5)
    expect((await repo.list(owner.user.id, 100)).map((r) => r.target)).toEqual(['t6.test', 't5.test', 't4.test', 't3.test', 't2.test'])
  })

  test("one check by id; another user's is a 404", async () => {
    const mine = (await recent(free.key)).data[0]
    expect((await ctx.request(`/user/api/v1/tools/lookups/${mine.id}`, { key: free.key })).status).toBe(200)
    expect((await ctx.request(`/user/api/v1/tools/lookups/${mine.id}`, { key: paid.key })).status).toBe(404)
  })
})

describe('rate limit', () => {
  test(`${LOOKUPS_PER_MINUTE} lookups a minute per user, then 429 until the minute is over; other users unaffected`, async () => {
    const owner = await ctx.createOwner('pro')
    for (let i = 0; i < LOOKUPS_PER_MINUTE; i++) expect((await lookup({ tool: 'spf', target: 'plusall.test' }, owner.key)).status).toBe(201)
    const limited = await lookup({ tool: 'spf', target: 'plusall.test' }, owner.key)
    expect(limited.status).toBe(429)
    expect((await json(limited)).error).toContain('too many lookups')
    expect((await lookup({ tool: 'spf', target: 'plusall.test' }, free.key)).status).toBe(201)
    ctx.clock.advance(60_000)
    expect((await lookup({ tool: 'spf', target: 'plusall.test' }, owner.key)).status).toBe(201)
  })
})
