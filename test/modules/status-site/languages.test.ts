/**
 * Visitor languages and time zones over real HTTP: the owner sets a page's default language and
 * zone through the API (bad values are 400 and change nothing); the public page, its history and
 * incident pages answer in the visitor's language (`?lang=`, else Accept-Language, else the
 * page's default) with every time in the page's zone, named, or the visitor's with `?tz=`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('pro')).key
  pageId = (await ctx.createPage(key, { slug: 'sprachen', name: 'Sprachen' })).id
})
afterAll(() => ctx.close())

const patch = (id: number, body: Record<string, unknown>) => ctx.request(`/user/api/v1/status-pages/${id}`, { method: 'PATCH', key, json: body })

describe('the owner sets the default language and zone', () => {
  test('a new page reads English and UTC; a chosen language and zone are kept and spelled as IANA does', async () => {
    const fresh = await json(await ctx.request(`/user/api/v1/status-pages/${pageId}`, { key }))
    expect(fresh.data).toMatchObject({ language: 'en', time_zone: 'UTC' })
    const changed = await patch(pageId, { language: 'de', time_zone: 'europe/berlin' })
    expect(changed.status).toBe(200)
    expect((await json(changed)).data).toMatchObject({ language: 'de', time_zone: 'Europe/Berlin' })
    const made = await ctx.createPage(key, { slug: 'nihongo', name: 'Nihongo', language: 'ja', time_zone: 'Asia/Tokyo' })
    expect(made).toMatchObject({ language: 'ja', time_zone: 'Asia/Tokyo' })
  })

  test('an unknown language or zone is a 400 that changes nothing', async () => {
    for (const body of [{ language: 'xx' }, { language: 'de-DE' }, { time_zone: 'Mars/Olympus' }, { time_zone: '../../etc' }, { time_zone: '' }, { language: 'fr', time_zone: 'Nowhere/City' }]) {
      const response = await patch(pageId, body)
      expect(response.status).toBe(400)
      expect((await json(response)).error).toMatch(/language|time_zone/)
    }
    const created = await ctx.request('/user/api/v1/status-pages', { method: 'POST', key, json: { slug: 'bad-zone', name: 'Bad', time_zone: 'Atlantis/Deep' } })
    expect(created.status).toBe(400)
    const after = await json(await ctx.request(`/user/api/v1/status-pages/${pageId}`, { key }))
    expect(after.data).toMatchObject({ language: 'de', time_zone: 'Europe/Berlin' })
    expect((await ctx.request('/user/api/v1/status-pages', { key }).then(json)).data.map((p: { slug: string }) => p.slug)).not.toContain('bad-zone')
  })

  test("someone else's page is a 404", async () => {
    const stranger = (await ctx.createOwner('pro')).key
    const response = await ctx.request(`/user/api/v1/status-pages/${pageId}`, { method: 'PATCH', key: stranger, json: { language: 'fr' } })
    expect(response.status).toBe(404)
  })
})
