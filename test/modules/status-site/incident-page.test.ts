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

test('the archive pages through incidents that share a start time without skipping any', async () => {
  const page = (await ctx.createPage(key, { slug: 'ties', name: 'Ties' })).id
  const titles: string[] = []
  const open = async (title: string) => {
    titles.push(title)
    expect((await ctx.request('/user/api/v1/incidents', { method: 'POST', key, json: { status_page_id: page, title, incident_state_id: '4' } })).status).toBe(201)
  }
  for (let i = 0; i < 5; i++) await open(`Old ${i}`)
  ctx.clock.advance(60_000)
  for (let i = 0; i < 30; i++) await open(`Same ${i}`) // one millisecond for all 30: more than a page
  ctx.clock.advance(60_000)
  for (let i = 0; i < 10; i++) await open(`New ${i}`)
  const seen = new Set<string>()
  let url: string | undefined = 'https://ties.status.test/history'
  for (let round = 0; url && round < 10; round++) {
    const body: string = await (await ctx.request(url)).text()
    for (const title of titles) if (body.includes(`>${title}<`)) seen.add(title)
    const next: string | undefined = /href="(\/history\?before=\d+)"/.exec(body)?.[1]
    url = next ? `https://ties.status.test${next}` : undefined
  }
  expect(titles.filter((title) => !seen.has(title))).toEqual([])
})

test('made-up incident ids and archive cursors are answered but not kept in the cache', async () => {
  const host = "https://many.status.test"
  expect((await ctx.request(`${host}/history`)).status).toBe(200)
  const before = ctx.app.publicCache!.size
  for (let i = 0; i < 50; i++) {
    expect((await ctx.request(`${host}/incidents/${900_000 + i}`)).status).toBe(404)
    expect((await ctx.request(`${host}/history?before=${Date.UTC(2026, 0, 1) + i}`)).status).toBe(200)
  }
  expect(ctx.app.publicCache!.size).toBe(before)
})
