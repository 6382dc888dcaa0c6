/**
 * One text rule for every text field: a lone surrogate (`\ud800` in JSON, which no UTF-8 text can
 * carry) is a 400 naming the field, and nothing is stored. Bodies are sent as raw JSON text, the
 * way a client would write the escape.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number
let componentId: number
let templateId: number

const send = (method: string, path: string, raw: string) =>
  ctx.request(path, { method, body: raw, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } })

beforeAll(async () => {
  ctx = await createTestContext()
  key = (await ctx.createOwner('enterprise')).key
  pageId = (await ctx.createPage(key, { slug: 'unicode', name: 'Unicode Co' })).id
  const component = await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'API', group: 'Core' } })
  componentId = (await json(component)).data.id
  const template = await ctx.request('/user/api/v1/incident-templates', { method: 'POST', key, json: { name: 'Outage', title: 'Down', message: 'x' } })
  templateId = (await json(template)).data.id
})
afterAll(() => ctx.close())

async function expectRefused(response: Response, field: string) {
  expect(response.status).toBe(400)
  expect((await json(response)).error).toBe(`${field} must be valid Unicode text`)
}

describe('lone surrogates in text fields', () => {
  test('status page name: create and update', async () => {
    await expectRefused(await send('POST', '/user/api/v1/status-pages', '{"slug":"lonely","name":"Bad \\ud800 name"}'), 'name')
    expect((await ctx.request('/user/api/v1/status-pages', { key })).status).toBe(200)
    const list = (await json(await ctx.request('/user/api/v1/status-pages', { key }))).data as Array<{ slug: string; name: string }>
    expect(list.map((page) => page.slug)).toEqual(['unicode'])
    await expectRefused(await send('PATCH', `/user/api/v1/status-pages/${pageId}`, '{"name":"\\udfffX"}'), 'name')
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${pageId}`, { key }))).data.name).toBe('Unicode Co')
  })

  test('component name and group: create and update', async () => {
    await expectRefused(await send('POST', `/user/api/v1/status-pages/${pageId}/components`, '{"name":"Web \\ud83d"}'), 'name')
    await expectRefused(await send('POST', `/user/api/v1/status-pages/${pageId}/components`, '{"name":"Web","group":"\\ud800"}'), 'group')
    await expectRefused(await send('PATCH', `/user/api/v1/components/${componentId}`, '{"name":"\\ud800"}'), 'name')
    await expectRefused(await send('PATCH', `/user/api/v1/components/${componentId}`, '{"group":"G\\udc00"}'), 'group')
    const list = (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { key }))).data as Array<{ name: string; group: string }>
    expect(list.map((c) => [c.name, c.group])).toEqual([['API', 'Core']])
  })

  test('share-token label', async () => {
    await expectRefused(await send('POST', `/user/analytics/${pageId}/tokens`, '{"label":"for \\ud800 them"}'), 'label')
    expect((await json(await ctx.request(`/user/analytics/${pageId}/tokens`, { key }))).data).toEqual([])
  })

  test('custom CSS', async () => {
    await expectRefused(await send('PATCH', `/user/api/v1/status-pages/${pageId}/branding`, '{"custom_css":"body { content: \\"\\ud800\\" }"}'), 'custom_css')
    expect((await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/branding`, { key }))).data.custom_css).toBeNull()
  })

  test('incidents, updates, templates and maintenances', async () => {
    await expectRefused(await send('POST', '/user/api/v1/incidents', `{"status_page_id":${pageId},"title":"ok","message":"\\ud800"}`), 'message')
    await expectRefused(await send('POST', '/user/api/v1/incident-templates', '{"name":"n","title":"t","message":"line\\n\\udbff"}'), 'message')
    await expectRefused(await send('PATCH', `/user/api/v1/incident-templates/${templateId}`, '{"name":"\\ud800"}'), 'name')
    await expectRefused(
      await send('POST', '/user/api/v1/maintenances', `{"status_page_id":${pageId},"title":"Upgrade \\ud800","start_at":"2026-12-01T00:00:00Z","end_at":"2026-12-01T01:00:00Z"}`),
      'title',
    )
    expect((await json(await ctx.request(`/user/api/v1/incidents?status_page_id=${pageId}`, { key }))).data).toEqual([])
    expect((await json(await ctx.request(`/user/api/v1/maintenances?status_page_id=${pageId}`, { key }))).data).toEqual([])
    const templates = (await json(await ctx.request('/user/api/v1/incident-templates', { key }))).data as Array<{ name: string }>
    expect(templates.map((template) => template.name)).toEqual(['Outage'])
  })

  test('the gate password, nested values and object keys', async () => {
    await expectRefused(await send('PUT', `/user/api/v1/status-pages/${pageId}/access`, '{"password":"long enough \\ud800"}'), 'password')
    await expectRefused(await send('PATCH', `/user/api/v1/status-pages/${pageId}/branding`, '{"palette":{"primary":"#1f6feb\\ud800"}}'), 'palette.primary')
    await expectRefused(await send('PATCH', `/user/api/v1/status-pages/${pageId}/branding`, '{"palette":{"\\ud800":"#1f6feb"}}'), 'palette')
    await expectRefused(
      await send('POST', `/user/api/v1/components/${componentId}/history`, '{"history":[{"status":"operational","at":"2026-10-01T00:00:00Z\\ud800"}]}'),
      'history[0].at',
    )
  })

  test('well-formed text, emoji included (a surrogate pair), is kept as sent', async () => {
    const response = await send('PATCH', `/user/api/v1/status-pages/${pageId}`, '{"name":"Unicode \\ud83d\\udca1 Co"}')
    expect(response.status).toBe(200)
    expect((await json(response)).data.name).toBe('Unicode 💡 Co')
  })

  test('the services apply the same rule to callers other than HTTP (the CLI)', async () => {
    const { user } = await ctx.createOwner('enterprise')
    const services = ctx.app.services
    await expect(services.accounts.createApiKey(user.id, 'key \ud800')).rejects.toThrow('name must be valid Unicode text')
    await expect(services.accounts.createUser({ email: 'x@example.com', password: 'long enough \udfff' })).rejects.toThrow(
      'password must be valid Unicode text',
    )
    await expect(services.pages.create(user, { slug: 'cli-page', name: 'CLI \ud800' })).rejects.toThrow('name must be valid Unicode text')
  })
})
