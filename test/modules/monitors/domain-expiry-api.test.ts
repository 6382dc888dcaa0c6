/** Domain expiry monitors over the real API: created with their 12-hour default, bad domains refused with a 400 naming the target. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext()
  ;({ key } = await ctx.createOwner('pro'))
})
afterAll(() => ctx.close())

const create = (body: Record<string, unknown>) => ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'Domain', type: 'domain_expiry', ...body } })

describe('domain_expiry over the API', () => {
  test('a registered domain is saved, checked every 12 hours unless told otherwise', async () => {
    const created = await create({ target: 'example.com' })
    expect(created.status).toBe(201)
    expect((await json(created)).data).toMatchObject({ type: 'domain_expiry', target: 'example.com', interval_seconds: 43_200, state: 'pending' })
  })

  test('what is not a domain is a 400 naming the target, and nothing is saved', async () => {
    const before = (await json(await ctx.request('/user/api/v1/monitors', { key }))).meta.count
    for (const target of ['https://example.com/', 'localhost', '10.0.0.1', 'no spaces.com']) {
      const refused = await create({ target })
      expect({ target, status: refused.status }).toEqual({ target, status: 400 })
      expect(JSON.stringify(await json(refused))).toContain('target: must be a registered domain name')
    }
    expect((await json(await ctx.request('/user/api/v1/monitors', { key }))).meta.count).toBe(before)
  })
})
