/**
 * Reordering a page's components in one call (PUT …/components/order) and renaming a group
 * (POST …/component-groups/rename): the public page follows; bad lists are 400 and change nothing;
 * another owner's page is 404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type PageJson, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let alice: { key: string }
let bob: { key: string }
let page: PageJson
let ids: { web: number; api: number; db: number }

beforeAll(async () => {
  ctx = await createTestContext()
  alice = await ctx.createOwner()
  bob = await ctx.createOwner()
  page = await ctx.createPage(alice.key, { slug: 'order', name: 'Order' })
  const add = async (body: Record<string, unknown>) =>
    (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key: alice.key, json: body }))).data.id as number
  ids = { web: await add({ name: 'Website' }), api: await add({ name: 'API', group: 'Backend' }), db: await add({ name: 'Database', group: 'Backend' }) }
})
afterAll(() => ctx.close())

const reorder = (body: unknown, key = alice.key, pageId = page.id) =>
  ctx.request(`/user/api/v1/status-pages/${pageId}/components/order`, { method: 'PUT', key, json: body })
const names = async () =>
  (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { key: alice.key }))).data.map((c: { name: string }) => c.name)
/** Component names in the order the public status page shows them. */
async function publicOrder(): Promise<string[]> {
  const body = await (await ctx.request(`https://${page.slug}.status.test/`)).text()
  return ['Website', 'API', 'Database'].map((name) => ({ name, at: body.indexOf(`>${name}<`) })).sort((a, b) => a.at - b.at).map((x) => x.name)
}

describe('component order', () => {
  test('PUT the ids in a new order: the list and the public page follow', async () => {
    expect(await publicOrder()).toEqual(['Website', 'API', 'Database'])
    const response = await reorder({ ids: [ids.db, ids.api, ids.web] })
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body.data.map((c: { name: string; position: number }) => [c.name, c.position])).toEqual([
      ['Database', 0],
      ['API', 1],
      ['Website', 2],
    ])
    expect(await names()).toEqual(['Database', 'API', 'Website'])
    expect(await publicOrder()).toEqual(['Database', 'API', 'Website'])
  })

  test('a list that is not exactly the page\'s components is 400 and changes nothing', async () => {
    const before = await names()
    const other = await ctx.createPage(bob.key, { slug: 'order-bob', name: 'Bob' })
    const bobs = (await json(await ctx.request(`/user/api/v1/status-pages/${other.id}/components`, { method: 'POST', key: bob.key, json: { name: 'Bob C' } }))).data.id
    const cases: Array<[unknown, string]> = [
      [{ ids: [ids.web, ids.api] }, `ids must list every component of this page (component ${ids.db} is missing)`],
      [{ ids: [ids.web, ids.api, ids.api, ids.db] }, `ids lists component ${ids.api} twice`],
      [{ ids: [ids.web, ids.api, ids.db, bobs] }, `ids holds ${bobs}, which is not a component of this page`],
      [{ ids: [ids.web, 0, ids.db] }, 'ids must contain positive integer ids'],
      [{ ids: 'x' }, 'ids must contain positive integer ids'],
      [{}, 'ids is required'],
      [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'ids must be an array of at most 1000 component ids'],
    ]
    for (const [body, error] of cases) {
      const response = await reorder(body)
      expect({ body, status: response.status, error: (await json(response)).error }).toEqual({ body, status: 400, error })
    }
    expect(await names()).toEqual(before)
  })

  test("another owner's page is 404 and its order stays", async () => {
    const before = await names()
    const response = await reorder({ ids: [ids.web, ids.api, ids.db] }, bob.key)
    expect(response.status).toBe(404)
    expect(await names()).toEqual(before)
    expect((await reorder({ ids: [] }, alice.key, 999999)).status).toBe(404)
  })
})

describe('group rename', () => {
  const rename = (body: unknown, key = alice.key) =>
    ctx.request(`/user/api/v1/status-pages/${page.id}/component-groups/rename`, { method: 'POST', key, json: body })
  const groups = async () =>
    (await json(await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { key: alice.key }))).data.map((c: { group: string | null }) => c.group)

  test('moves every member to the new name; an unknown group, bad names and another owner are refused', async () => {
    const before = await groups()
    expect((await rename({ from: 'Nope', to: 'X' })).status).toBe(400)
    expect((await json(await rename({ from: 'Nope', to: 'X' }))).error).toBe('from names no group of this page')
    expect((await json(await rename({ from: 'Backend', to: '  ' }))).error).toBe('to must not be empty')
    expect((await rename({ from: 'Backend', to: 'x'.repeat(101) })).status).toBe(400)
    expect((await rename({ from: 'Backend', to: 'Servers' }, bob.key)).status).toBe(404)
    expect(await groups()).toEqual(before)
    const response = await rename({ from: 'Backend', to: 'Servers' })
    expect(await json(response)).toEqual({ data: { moved: 2 } })
    expect((await groups()).filter((g: string | null) => g !== null)).toEqual(['Servers', 'Servers'])
    expect(await json(await rename({ from: 'Servers', to: null }))).toEqual({ data: { moved: 2 } })
    expect(await groups()).toEqual([null, null, null])
  })
})
