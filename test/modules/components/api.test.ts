import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type PageJson, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let alice: { key: string }
let bob: { key: string }
let page: PageJson

beforeAll(async () => {
  ctx = await createTestContext()
  alice = await ctx.createOwner()
  bob = await ctx.createOwner()
  page = await ctx.createPage(alice.key, { slug: 'comp', name: 'Comp' })
})
afterAll(() => ctx.close())

const create = (body: unknown, key = alice.key, pageId = page.id) =>
  ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: body })
const history = (id: number, key = alice.key) => ctx.request(`/user/api/v1/components/${id}/history?limit=1000`, { key })

describe('components', () => {
  test('create with defaults, list in order, and the first status is recorded', async () => {
    const first = await json(await create({ name: 'Website' }))
    expect(first.data).toMatchObject({ page_id: page.id, name: 'Website', type: 'site', group: null, status: 'up', position: 0 })
    const second = await json(await create({ name: 'API', type: 'api', group: 'Backend', status: 'degraded' }))
    expect(second.data).toMatchObject({ type: 'api', group: 'Backend', status: 'degraded', position: 1 })
    const list = await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { key: alice.key }))
    expect(list.data.map((c: { name: string }) => c.name)).toEqual(['Website', 'API'])
    expect(list.meta.count).toBe(2)
    expect((await json(await history(second.data.id))).data).toEqual([{ status: 'degraded', at: new Date(ctx.clock.now()).toISOString() }])
  })

  test('a status change through PATCH is recorded with its time; other edits are not', async () => {
    const { data: component } = await json(await create({ name: 'DNS', type: 'dns' }))
    ctx.clock.advance(60_000)
    await ctx.request(`/user/api/v1/components/${component.id}`, { method: 'PATCH', key: alice.key, json: { status: 'down' } })
    ctx.clock.advance(60_000)
    await ctx.request(`/user/api/v1/components/${component.id}`, { method: 'PATCH', key: alice.key, json: { name: 'DNS servers', group: null } })
    ctx.clock.advance(60_000)
    const patched = await json(
      await ctx.request(`/user/api/v1/components/${component.id}`, { method: 'PATCH', key: alice.key, json: { status: 'up' } }),
    )
    expect(patched.data).toMatchObject({ name: 'DNS servers', status: 'up' })
    const changes = (await json(await history(component.id))).data
    expect(changes.map((c: { status: string }) => c.status)).toEqual(['up', 'down', 'up'])
  })

  test('bad input is 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'name is required'],
      [{ name: '' }, 'name must not be empty'],
      [{ name: 'x', type: 'ftp' }, 'type must be one of site, api, dns'],
      [{ name: 'x', status: 'sideways' }, 'status must be one of up, degraded, partial, down'],
      [{ name: 'x', group: 'g'.repeat(101) }, 'group must be a string of at most 100 characters or null'],
      [{ name: 'x'.repeat(2000) }, 'name must be a string of at most 100 characters'],
    ]
    for (const [body, error] of cases) {
      const response = await create(body)
      expect(response.status).toBe(400)
      expect(await json(response)).toEqual({ error })
    }
  })

  test("someone else's component is 404 everywhere and unchanged", async () => {
    const { data: component } = await json(await create({ name: 'Private' }))
    const paths: Array<[string, string, unknown?]> = [
      ['GET', `/user/api/v1/components/${component.id}`],
      ['PATCH', `/user/api/v1/components/${component.id}`, { status: 'down' }],
      ['DELETE', `/user/api/v1/components/${component.id}`],
      ['GET', `/user/api/v1/components/${component.id}/history`],
      ['POST', `/user/api/v1/components/${component.id}/history`, [{ status: 'down', at: '2026-01-01T00:00:00Z' }]],
      ['GET', `/user/api/v1/status-pages/${page.id}/components`],
    ]
    for (const [method, path, body] of paths) {
      const response = await ctx.request(path, { method, key: bob.key, json: body })
      expect(response.status).toBe(404)
    }
    const still = await json(await ctx.request(`/user/api/v1/components/${component.id}`, { key: alice.key }))
    expect(still.data.status).toBe('up')
    expect((await json(await history(component.id))).data).toHaveLength(1)
  })

  test('deleting a page deletes its components and their history', async () => {
    const other = await ctx.createPage(alice.key, { slug: 'short-lived', name: 'Short' })
    const { data: component } = await json(await create({ name: 'Temp' }, alice.key, other.id))
    await ctx.request(`/user/api/v1/status-pages/${other.id}`, { method: 'DELETE', key: alice.key })
    expect((await ctx.request(`/user/api/v1/components/${component.id}`, { key: alice.key })).status).toBe(404)
    const rows = await ctx.database.db.selectFrom('component_status_history').where('component_id', '=', component.id).selectAll().execute()
    expect(rows).toEqual([])
  })
})

describe('history import', () => {
  const importHistory = (id: number, body: unknown, key = alice.key) =>
    ctx.request(`/user/api/v1/components/${id}/history`, { method: 'POST', key, json: body })

  test('imports past changes in order; the current status follows the latest change', async () => {
    const { data: component } = await json(await create({ name: 'Imported' }))
    const response = await importHistory(component.id, [
      { status: 'up', at: '2026-10-01T00:00:00Z' },
      { status: 'down', at: '2026-10-02T12:00:00+02:00' },
      { status: 'degraded', at: '2026-10-01T06:00:00.5Z' },
    ])
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body.data.imported).toBe(3)
    // The creation record (now) is still the latest change, so the status stays "up".
    expect(body.data.component.status).toBe('up')
    const changes = (await json(await history(component.id))).data
    expect(changes.map((c: { at: string }) => c.at)).toEqual([
      new Date(ctx.clock.now()).toISOString(),
      '2026-10-02T10:00:00.000Z',
      '2026-10-01T06:00:00.500Z',
      '2026-10-01T00:00:00.000Z',
    ])
  })

  test('a component whose latest change is imported takes that status', async () => {
    const { data: component } = await json(await create({ name: 'Later' }))
    ctx.clock.advance(3_600_000)
    const response = await importHistory(component.id, [{ status: 'down', at: new Date(ctx.clock.now() - 1000).toISOString() }])
    expect((await json(response)).data.component.status).toBe('down')
  })

  test('one bad entry rejects the whole batch and nothing is written', async () => {
    const { data: component } = await json(await create({ name: 'Atomic' }))
    const future = new Date(ctx.clock.now() + 60_000).toISOString()
    const cases: Array<[unknown, string]> = [
      [[], 'history must contain at least one entry'],
      [[{ status: 'up', at: '2026-10-01T00:00:00Z' }, { status: 'meh', at: '2026-10-02T00:00:00Z' }], 'history[1].status must be one of up, degraded, partial, down'],
      [[{ status: 'up', at: 'yesterday' }], 'history[0].at must be an RFC 3339 date-time with offset'],
      [[{ status: 'up', at: '2026-10-01T00:00:00' }], 'history[0].at must be an RFC 3339 date-time with offset'],
      [[{ status: 'up', at: '2026-02-30T00:00:00Z' }], 'history[0].at must be an RFC 3339 date-time with offset'],
      [[{ status: 'up', at: future }], 'history[0].at must not be in the future'],
      [
        [{ status: 'up', at: '2026-10-01T00:00:00Z' }, { status: 'down', at: '2026-10-01T02:00:00+02:00' }],
        'history[1].at repeats the time of another entry',
      ],
      [{ status: 'up', at: '2026-10-01T00:00:00Z' }, 'history must be an array of at most 10000 {status, at} entries'],
      [[{ status: 'up' }], 'history[0].at is required'],
      ['up', 'history must be an array of at most 10000 {status, at} entries'],
      [Array.from({ length: 10_001 }, (_, i) => ({ status: 'up', at: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString() })), 'history must be an array of at most 10000 {status, at} entries'],
    ]
    for (const [body, error] of cases) {
      const response = await importHistory(component.id, body)
      expect(response.status).toBe(400)
      expect(await json(response)).toEqual({ error })
    }
    expect((await json(await history(component.id))).data).toHaveLength(1)
  })

  test('imports 10 000 entries at once', async () => {
    const { data: component } = await json(await create({ name: 'Bulk' }))
    const start = Date.UTC(2025, 0, 1)
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      status: i % 3 === 0 ? 'down' : 'up',
      at: new Date(start + i * 60_000).toISOString(),
    }))
    const response = await importHistory(component.id, entries)
    expect(response.status).toBe(200)
    expect((await json(response)).data.imported).toBe(10_000)
    const count = await ctx.database.db
      .selectFrom('component_status_history')
      .where('component_id', '=', component.id)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(10_001)
  })
})
