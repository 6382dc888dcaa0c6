/**
 * The one overall-status rule (status-pipeline/overall.ts) reaches every surface alike: the banner of
 * the public page, the status JSON, the badge and the Statuspage-shaped v2 JSON. Real app, real
 * SQLite, HTTP through `app.handle`, a fixed clock.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number
let componentId: number
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const HOUR = 3_600_000

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW })
  key = (await ctx.createOwner('business')).key
  pageId = (await ctx.createPage(key, { slug: 'agree', name: 'Agree' })).id
  const created = await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'API' } })
  componentId = (await json(created)).data.id
})
afterAll(() => ctx.close())

const api = async (path: string, method: string, body?: unknown) => {
  const response = await ctx.request(`/user/api/v1${path}`, { method, key, json: body })
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response.status === 204 ? undefined : json(response)
}

/** What each surface says, in its own words. */
async function surfaces() {
  const page = await (await ctx.request('https://agree.status.test/')).text()
  const banner = /class="banner banner--([a-z_]+)"/.exec(page)?.[1]
  const statusJson = (await json(await ctx.request('/api/embed/status?slug=agree'))).overall
  const svg = await (await ctx.request('/badge/agree.svg')).text()
  const badge = /<title>([^<]*)<\/title>/.exec(svg)?.[1]
  const v2 = (await json(await ctx.request('https://agree.status.test/api/v2/status.json'))).status.indicator
  return { banner, statusJson, badge, v2 }
}

const expected = (overall: string, badge: string, indicator: string) => ({ banner: overall, statusJson: overall, badge: `Agree: ${badge}`, v2: indicator })

test('maintenance, then an incident during it, then an outage: the four surfaces agree at every step', async () => {
  expect(await surfaces()).toEqual(expected('operational', 'Operational', 'none'))

  const window = await api('/maintenances', 'POST', {
    status_page_id: pageId,
    title: 'Database upgrade',
    start_at: new Date(NOW - HOUR).toISOString(),
    end_at: new Date(NOW + HOUR).toISOString(),
  })
  expect(await surfaces()).toEqual(expected('under_maintenance', 'Maintenance', 'maintenance'))

  // An open incident outranks the maintenance: it is news that the planned work does not explain.
  const incident = await api('/incidents', 'POST', { status_page_id: pageId, component_ids: [componentId], title: 'Errors', message: 'Looking into it' })
  expect(await surfaces()).toEqual(expected('degraded_performance', 'Degraded', 'minor'))

  await api(`/components/${componentId}`, 'PATCH', { status: 'down' })
  expect(await surfaces()).toEqual(expected('major_outage', 'Down', 'critical'))

  await api(`/components/${componentId}`, 'PATCH', { status: 'up' })
  await api(`/incidents/${incident.data.id}`, 'PATCH', { state: 'resolved', message: 'Fixed' })
  expect(await surfaces()).toEqual(expected('under_maintenance', 'Maintenance', 'maintenance'))

  await api(`/maintenances/${window.data.id}`, 'DELETE')
  expect(await surfaces()).toEqual(expected('operational', 'Operational', 'none'))
})
