/** Listing and revoking API keys through the management API (the CLI side is in test/cli.test.ts). */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let alice: { key: string; user: { id: number } }
let bob: { key: string; user: { id: number } }

const API = '/user/api/v1/api-keys'
const PAGES = '/user/api/v1/status-pages'
const secretOf = (key: string) => key.slice('lnt_'.length + 12 + 1)
const prefixOf = (key: string) => key.slice(0, 'lnt_'.length + 12)

beforeAll(async () => {
  ctx = await createTestContext()
  alice = await ctx.createOwner()
  bob = await ctx.createOwner()
})
afterAll(() => ctx.close())

describe('GET /user/api/v1/api-keys', () => {
  test('lists the caller\'s keys: prefix, name, created, last used, state; never the secret or its hash', async () => {
    const second = await ctx.app.services.accounts.createApiKey(alice.user.id, 'deploy')
    ctx.clock.advance(60_000)
    expect((await ctx.request(PAGES, { key: alice.key })).status).toBe(200) // marks the first key used
    const response = await ctx.request(API, { key: alice.key })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const text = await response.text()
    const hashes = await ctx.database.db.selectFrom('api_keys').select('secret_hash').execute()
    for (const key of [alice.key, second.key]) expect(text).not.toContain(secretOf(key))
    for (const { secret_hash } of hashes) expect(text).not.toContain(secret_hash)
    const body = JSON.parse(text)
    expect(body.meta).toEqual({ count: 2 })
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      prefix: prefixOf(alice.key),
      name: 'test',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      last_used_at: new Date(ctx.clock.now()).toISOString(),
      revoked_at: null,
      state: 'active',
      role: 'owner',
    })
    expect(body.data[1]).toMatchObject({ prefix: prefixOf(second.key), name: 'deploy', last_used_at: null, state: 'active' })
    // Bob sees only his own.
    const bobs = await json(await ctx.request(API, { key: bob.key }))
    expect(bobs.data.map((k: { prefix: string }) => k.prefix)).toEqual([prefixOf(bob.key)])
  })

  test('without credentials: 401', async () => {
    expect((await ctx.request(API)).status).toBe(401)
    expect((await ctx.request(`${API}/1`, { method: 'DELETE' })).status).toBe(401)
  })
})

describe('DELETE /user/api/v1/api-keys/:id', () => {
  test('a revoked key answers 401 from then on and stays listed as revoked', async () => {
    const spare = await ctx.app.services.accounts.createApiKey(alice.user.id, 'spare')
    expect((await ctx.request(PAGES, { key: spare.key })).status).toBe(200)
    const revoked = await ctx.request(`${API}/${spare.info.id}`, { method: 'DELETE', key: alice.key })
    expect(revoked.status).toBe(200)
    const { data } = await json(revoked)
    expect(data).toMatchObject({ id: spare.info.id, prefix: prefixOf(spare.key), name: 'spare', state: 'revoked', revoked_at: new Date(ctx.clock.now()).toISOString() })
    expect((await ctx.request(PAGES, { key: spare.key })).status).toBe(401)
    const listed = (await json(await ctx.request(API, { key: alice.key }))).data.find((k: { id: number }) => k.id === spare.info.id)
    expect(listed).toMatchObject({ state: 'revoked' })
    // Revoking again changes nothing and says so: the same answer.
    const again = await ctx.request(`${API}/${spare.info.id}`, { method: 'DELETE', key: alice.key })
    expect(again.status).toBe(200)
    expect((await json(again)).data).toEqual(data)
  })

  test("someone else's key, an unknown id and a bad id: 404, 404, 400; nothing changes", async () => {
    const [bobsKey] = await ctx.app.services.accounts.listApiKeys(bob.user.id)
    const refused = await ctx.request(`${API}/${bobsKey!.id}`, { method: 'DELETE', key: alice.key })
    expect(refused.status).toBe(404)
    expect(await json(refused)).toEqual({ error: 'not found' })
    expect((await ctx.request(PAGES, { key: bob.key })).status).toBe(200)
    expect((await ctx.request(`${API}/999999`, { method: 'DELETE', key: alice.key })).status).toBe(404)
    const bad = await ctx.request(`${API}/abc`, { method: 'DELETE', key: alice.key })
    expect(bad.status).toBe(400)
    expect(await json(bad)).toEqual({ error: 'id must be a positive integer' })
  })

  test('revoking the key in use is allowed: this answer succeeds, the next request is 401', async () => {
    const own = await ctx.createOwner()
    const [info] = await ctx.app.services.accounts.listApiKeys(own.user.id)
    const response = await ctx.request(`${API}/${info!.id}`, { method: 'DELETE', key: own.key })
    expect(response.status).toBe(200)
    expect((await json(response)).data.state).toBe('revoked')
    expect((await ctx.request(API, { key: own.key })).status).toBe(401)
  })

  test('both routes are in the OpenAPI document', async () => {
    const doc = await json(await ctx.request('/swagger/json'))
    expect(doc.paths['/user/api/v1/api-keys'].get).toBeDefined()
    expect(doc.paths['/user/api/v1/api-keys/{id}'].delete).toBeDefined()
  })
})
