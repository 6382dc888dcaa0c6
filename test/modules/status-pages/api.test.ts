import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let alice: { key: string; user: { id: number; email: string } }
let bob: { key: string; user: { id: number; email: string } }

beforeAll(async () => {
  // Checks the stored password format: argon2id, as in production.
  ctx = await createTestContext({ realPasswords: true })
  alice = await ctx.createOwner('enterprise')
  bob = await ctx.createOwner('enterprise')
})
afterAll(() => ctx.close())

const API = '/user/api/v1/status-pages'

describe('authentication', () => {
  test('no key, a malformed key, a wrong secret and a revoked key are all 401', async () => {
    const valid = alice.key
    const wrongSecret = valid.slice(0, -4) + (valid.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    const attempts: HeadersInit[] = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer not-a-key' },
      { authorization: `Basic ${valid}` },
      { authorization: `Bearer ${wrongSecret}` },
      { 'x-api-key': 'lnt_' + 'x'.repeat(56) },
      { authorization: `Bearer ${valid}x` },
    ]
    for (const headers of attempts) {
      const response = await ctx.request(API, { headers })
      expect(response.status).toBe(401)
      expect(await json(response)).toEqual({ error: 'unauthorized' })
    }
    const { user, key } = await ctx.createOwner()
    expect((await ctx.request(API, { key })).status).toBe(200)
    const [info] = await ctx.app.services.accounts.listApiKeys(user.id)
    await ctx.app.services.accounts.revokeApiKey(user.id, info!.id)
    expect((await ctx.request(API, { key })).status).toBe(401)
  })

  test('Bearer and X-API-Key both work; last use is recorded, at most once a minute', async () => {
    expect((await ctx.request(API, { headers: { 'x-api-key': alice.key } })).status).toBe(200)
    expect((await ctx.request(API, { headers: { authorization: `bearer   ${alice.key}` } })).status).toBe(200)
    const [info] = await ctx.app.services.accounts.listApiKeys(alice.user.id)
    expect(info!.lastUsedAt).toBe(ctx.clock.now())
  })

  test('keys are stored only as hashes', async () => {
    const rows = await ctx.database.db.selectFrom('api_keys').selectAll().execute()
    for (const row of rows) {
      expect(alice.key).not.toContain(row.secret_hash)
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/)
    }
    const users = await ctx.database.db.selectFrom('users').select('password_hash').execute()
    for (const user of users) expect(user.password_hash.startsWith('$argon2id$')).toBe(true)
  })
})

describe('status pages', () => {
  test('create, list, get, patch and delete your own page', async () => {
    const created = await ctx.request(API, { method: 'POST', key: alice.key, json: { slug: 'Alpha', name: '  Alpha Inc  ' } })
    expect(created.status).toBe(201)
    const page = (await json(created)).data
    expect(page).toMatchObject({
      slug: 'alpha',
      name: 'Alpha Inc',
      custom_domain: null,
      visibility: 'public',
      blocked: false,
      url: 'https://alpha.status.test',
    })
    expect(page.created_at).toBe(new Date(ctx.clock.now()).toISOString())

    const list = await json(await ctx.request(API, { key: alice.key }))
    expect(list.meta.count).toBe(list.data.length)
    expect(list.data.map((p: { slug: string }) => p.slug)).toContain('alpha')

    expect((await json(await ctx.request(`${API}/${page.id}`, { key: alice.key }))).data.slug).toBe('alpha')
    ctx.clock.advance(1000)
    const patched = await json(
      await ctx.request(`${API}/${page.id}`, { method: 'PATCH', key: alice.key, json: { name: 'Alpha 2', visibility: 'private' } }),
    )
    expect(patched.data).toMatchObject({ name: 'Alpha 2', visibility: 'private', slug: 'alpha' })
    expect(patched.data.updated_at).not.toBe(patched.data.created_at)

    expect((await ctx.request(`${API}/${page.id}`, { method: 'DELETE', key: alice.key })).status).toBe(200)
    expect((await ctx.request(`${API}/${page.id}`, { key: alice.key })).status).toBe(404)
  })

  test("someone else's page is 404 for every verb and stays unchanged", async () => {
    const page = await ctx.createPage(alice.key, { slug: 'alice-only', name: 'Alice' })
    for (const [method, body] of [['GET'], ['PATCH', { name: 'pwned' }], ['DELETE']] as const) {
      const response = await ctx.request(`${API}/${page.id}`, { method, key: bob.key, json: body })
      expect(response.status).toBe(404)
      expect(await json(response)).toEqual({ error: 'not found' })
    }
    const components = await ctx.request(`${API}/${page.id}/components`, { method: 'POST', key: bob.key, json: { name: 'x' } })
    expect(components.status).toBe(404)
    expect((await json(await ctx.request(`${API}/${page.id}`, { key: alice.key }))).data.name).toBe('Alice')
    const bobsList = await json(await ctx.request(API, { key: bob.key }))
    expect(bobsList.data.map((p: { id: number }) => p.id)).not.toContain(page.id)
  })

  test('ids that are not positive integers are 400, unknown ids 404', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '1e3x', '%00']) {
      const response = await ctx.request(`${API}/${id}`, { key: alice.key })
      expect([400, 404]).toContain(response.status)
      expect((await json(response)).error).toBeString()
    }
    expect((await ctx.request(`${API}/abc`, { key: alice.key })).status).toBe(400)
    // Not an integer: refused before any query (PostgreSQL would reject it as a bigint).
    expect((await ctx.request(`${API}/1.5`, { key: alice.key })).status).toBe(400)
    expect((await ctx.request(`${API}/999999999`, { key: alice.key })).status).toBe(404)
    expect((await ctx.request(`${API}/99999999999999999999999`, { key: alice.key })).status).toBe(400)
  })

  test('bad input is a 400 naming the field, and changes nothing', async () => {
    const before = (await json(await ctx.request(API, { key: alice.key }))).meta.count
    const cases: Array<[unknown, string]> = [
      [{ name: 'x' }, 'slug is required'],
      [{ slug: 'ok-slug' }, 'name is required'],
      [{ slug: '', name: 'x' }, 'slug is required'],
      [{ slug: 'www', name: 'x' }, 'slug "www" is reserved'],
      [{ slug: 'bad slug', name: 'x' }, 'slug may contain only letters, digits and inner hyphens (a DNS label)'],
      [{ slug: 'x'.repeat(5000), name: 'x' }, 'slug must be a string of letters, digits and hyphens'],
      [{ slug: 'ok-slug', name: '   ' }, 'name is required'],
      [{ slug: 'ok-slug', name: 'x'.repeat(101) }, 'name must be a string of at most 100 characters'],
      [{ slug: 'ok-slug', name: 'a\u0000b' }, 'name must not contain control characters'],
      [{ slug: 'ok-slug', name: 'x', visibility: 'hidden' }, 'visibility must be "public" or "private"'],
      [{ slug: 'ok-slug', name: 'x', custom_domain: 'http://x.example' }, 'custom_domain must be a bare host name, without scheme, path or credentials'],
      [{ slug: 'ok-slug', name: 'x', custom_domain: 'foo.status.test' }, 'custom_domain must not be the service host or a host under STATUS_DOMAIN'],
      [{ slug: 'ok-slug', name: 'x', custom_domain: 'lantern.test' }, 'custom_domain must not be the service host or a host under STATUS_DOMAIN'],
      [{ slug: 42, name: 'x' }, 'slug must be a string of letters, digits and hyphens'],
    ]
    for (const [body, error] of cases) {
      const response = await ctx.request(API, { method: 'POST', key: alice.key, json: body })
      expect(response.status).toBe(400)
      expect(await json(response)).toEqual({ error })
    }
    const notJson = await ctx.request(API, { method: 'POST', key: alice.key, body: '{nope', headers: { 'content-type': 'application/json' } })
    expect(notJson.status).toBe(400)
    expect((await json(await ctx.request(API, { key: alice.key }))).meta.count).toBe(before)
  })

  test('slug and custom domain are unique across owners (409), and markup in names is kept as text', async () => {
    await ctx.createPage(alice.key, { slug: 'taken', name: '<img src=x onerror=alert(1)>', custom_domain: 'status.taken.example' })
    const sameSlug = await ctx.request(API, { method: 'POST', key: bob.key, json: { slug: 'TAKEN', name: 'x' } })
    expect(sameSlug.status).toBe(409)
    expect(await json(sameSlug)).toEqual({ error: 'slug is already taken' })
    const sameDomain = await ctx.request(API, {
      method: 'POST',
      key: bob.key,
      json: { slug: 'other', name: 'x', custom_domain: 'STATUS.taken.example.' },
    })
    expect(sameDomain.status).toBe(409)
    expect(await json(sameDomain)).toEqual({ error: 'custom_domain is already used by another page' })
    const page = (await json(await ctx.request(API, { key: alice.key }))).data.find((p: { slug: string }) => p.slug === 'taken')
    expect(page.name).toBe('<img src=x onerror=alert(1)>')
  })

  test('custom domains and private pages need a plan that has them', async () => {
    const free = await ctx.createOwner('free')
    const domain = await ctx.request(API, { method: 'POST', key: free.key, json: { slug: 'freebie', name: 'F', custom_domain: 'status.free.example' } })
    expect(domain.status).toBe(403)
    expect(await json(domain)).toEqual({ error: 'Custom domains require Pro plan or higher' })
    const priv = await ctx.request(API, { method: 'POST', key: free.key, json: { slug: 'freebie', name: 'F', visibility: 'private' } })
    expect(priv.status).toBe(403)
    expect(await json(priv)).toEqual({ error: 'Private pages require Pro plan or higher' })
    expect((await ctx.request(API, { method: 'POST', key: free.key, json: { slug: 'freebie', name: 'F' } })).status).toBe(201)
  })
})

describe('OpenAPI document', () => {
  test('lists the management and embed routes with their schemas', async () => {
    const response = await ctx.request('/swagger/json')
    expect(response.status).toBe(200)
    const doc = await json(response)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/embed/markdown',
        '/user/api/v1/status-pages',
        '/user/api/v1/status-pages/{id}',
        '/user/api/v1/status-pages/{id}/components',
        '/user/api/v1/components/{id}',
        '/user/api/v1/components/{id}/history',
        '/healthz',
      ]),
    )
    const create = doc.paths['/user/api/v1/status-pages'].post
    expect(create.requestBody.content['application/json'].schema.properties).toHaveProperty('slug')
    expect(create.responses).toHaveProperty('201')
    expect(doc.components.securitySchemes).toHaveProperty('bearerAuth')
    expect((await ctx.request('/swagger')).status).toBe(200)
  })
})

test('GET /healthz answers ok after a database round trip; unknown routes are JSON 404s', async () => {
  const health = await ctx.request('/healthz')
  expect(health.status).toBe(200)
  expect(await json(health)).toEqual({ status: 'ok' })
  const missing = await ctx.request('/no/such/route')
  expect(missing.status).toBe(404)
  expect(await json(missing)).toEqual({ error: 'not found' })
})
