/** The public page of one incident: found by id among the page's incidents, however many there are. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('enterprise')).key
  pageId = (await ctx.createPage(key, { slug: 'many', name: 'Many' })).id
})
afterAll(() => ctx.close())

test('the oldest of many incidents opened in the same millisecond has its page; other pages\' incidents do not', async () => {
  const ids: number[] = []
  for (let i = 0; i < 105; i++) {
    const response = await ctx.request('/user/api/v1/incidents', { method: 'POST', key, json: { status_page_id: pageId, title: `Incident ${i}`, incident_state_id: '4' } })
    ids.push((await json(response)).data.id)
  }
  const oldest = await ctx.request(`https://many.status.test/incidents/${ids[0]}`)
  expect(oldest.status).toBe(200)
  expect(await oldest.text()).toContain('Incident 0')
  expect((await ctx.request(`https://many.status.test/incidents/${ids.at(-1)}`)).status).toBe(200)

  const other = (await ctx.createPage(key, { slug: 'other-many', name: 'Other' })).id
  const theirs = (await json(await ctx.request('/user/api/v1/incidents', { method: 'POST', key, json: { status_page_id: other, title: 'Elsewhere' } }))).data.id
  expect((await ctx.request(`https://many.status.test/incidents/${theirs}`)).status).toBe(404)
  expect((await ctx.request(`https://other-many.status.test/incidents/${theirs}`)).status).toBe(200)
  expect((await ctx.request('https://many.status.test/incidents/999999')).status).toBe(404)
})
