/**
 * GET /user/api/v1/plan counts what the plan caps: components with automatic incidents (over all
 * pages, against plans/matrix.ts autoIncidentLimit) and subscribers on the fullest page (against
 * subscriberLimit), with the same figures the features themselves enforce.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 23, 12) })
})
afterAll(() => ctx.close())

type UsageLine = { key: string; label: string; used: number; limit: number | null }

test('components with automatic incidents and subscribers per page, each against the plan limit', async () => {
  const { key } = await ctx.createOwner('pro')
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
  const usage = async () => Object.fromEntries(((await json(await api('/plan'))).data.usage as UsageLine[]).map((line) => [line.key, line]))

  const before = await usage()
  expect(before.auto_incident_components).toEqual({ key: 'auto_incident_components', label: 'Components with automatic incidents', used: 0, limit: 5 })
  expect(before.subscribers_per_page).toEqual({ key: 'subscribers_per_page', label: 'Subscribers on your fullest page', used: 0, limit: 1000 })

  const first = await ctx.createPage(key, { name: 'First', slug: 'usage-first' })
  const second = await ctx.createPage(key, { name: 'Second', slug: 'usage-second' })
  const ids: number[] = []
  for (const name of ['API', 'Web', 'DNS']) ids.push((await json(await api(`/status-pages/${first.id}/components`, { method: 'POST', json: { name } }))).data.id)
  expect((await api(`/status-pages/${first.id}/auto-incidents`, { method: 'PATCH', json: { component_ids: ids.slice(0, 2) } })).status).toBe(200)
  for (const [pageId, email] of [[first.id, 'a@example.com'], [second.id, 'b@example.com'], [second.id, 'c@example.com'], [second.id, 'd@example.com']] as const) {
    expect((await api(`/status-pages/${pageId}/subscribers`, { method: 'POST', json: { email, consent: true } })).status).toBe(201)
  }
  // An unsubscribed one no longer counts (as for the subscriber limit).
  const gone = (await json(await api(`/status-pages/${second.id}/subscribers`))).data[0].id
  expect((await api(`/status-pages/${second.id}/subscribers/${gone}`, { method: 'DELETE' })).status).toBe(200)

  const after = await usage()
  expect(after.auto_incident_components).toMatchObject({ used: 2, limit: 5 })
  expect(after.subscribers_per_page).toMatchObject({ used: 2, limit: 1000 })
  // The limits follow the plan: Business has none.
  const business = await ctx.createOwner('business')
  const theirs = Object.fromEntries(((await json(await ctx.request('/user/api/v1/plan', { key: business.key }))).data.usage as UsageLine[]).map((l) => [l.key, l.limit]))
  expect(theirs).toEqual({ pages: null, components: null, components_per_page: null, api_keys: null, auto_incident_components: null, subscribers_per_page: null })
})
