/**
 * A component in partial outage on every public surface, and an incident's impact: the owner sets
 * the status through the API, and the page (banner, row, group), the status JSON the widget reads
 * (overall and its uptime figures), the badge (orange "Partial Outage"), the v2 JSON (component
 * status, indicator, incident impact) and the incident page all follow. Real app, real SQLite,
 * HTTP through `app.handle`, a fixed clock.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { STATUS_COLOURS } from '../../../src/modules/status-pipeline/colours.ts'

let ctx: TestContext
let key: string
let pageId: number
let api: number
let web: number
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const HOUR = 3_600_000

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW - 2 * 86_400_000 })
  key = (await ctx.createOwner('business')).key
  pageId = (await ctx.createPage(key, { slug: 'halfway', name: 'Halfway' })).id
  const create = async (name: string) =>
    (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name, group: 'Core' } }))).data.id as number
  api = await create('API')
  web = await create('Web')
  ctx.clock.set(NOW - HOUR)
})
afterAll(() => ctx.close())

const call = async (path: string, method: string, body?: unknown) => {
  const response = await ctx.request(`/user/api/v1${path}`, { method, key, json: body })
  return { status: response.status, body: response.status === 204 ? undefined : await json(response) }
}

test('the component API takes partial and refuses made-up words with a 400 naming the choices', async () => {
  const bad = await call(`/components/${api}`, 'PATCH', { status: 'half' })
  expect(bad.status).toBe(400)
  expect(JSON.stringify(bad.body)).toContain('status must be one of up, degraded, partial, down')
  const ok = await call(`/components/${api}`, 'PATCH', { status: 'partial' })
  expect(ok.status).toBe(200)
  expect(ok.body.data.status).toBe('partial')
  const history = await call(`/components/${api}/history`, 'GET')
  expect(history.body.data.map((c: { status: string }) => c.status)).toContain('partial')
})

test('every public surface shows the partial outage', async () => {
  ctx.clock.set(NOW)
  const page = await (await ctx.request('https://halfway.status.test/')).text()
  expect(/class="banner banner--([a-z_]+)"/.exec(page)?.[1]).toBe('partial_outage')
  expect(page).toContain('<span class="component__name">API</span>')
  expect(page).toMatch(/component__name">API<\/span>.*?<span class="status status--partial_outage">Partial outage<\/span>/s)
  expect(page).toContain('<span class="status status--partial_outage">Partial outage</span></div>') // the group's head too

  // The status JSON (what the widget reads): overall, and partial time counts as available in `upd`.
  const status = await json(await ctx.request('/api/embed/status?slug=halfway&upd=2'))
  expect(status.overall).toBe('partial_outage')
  expect(status.upd).toEqual([100, 100])

  const svg = await (await ctx.request('/badge/halfway.svg')).text()
  expect(/<title>([^<]*)<\/title>/.exec(svg)?.[1]).toBe('Halfway: Partial Outage')
  expect(svg).toContain(`fill="${STATUS_COLOURS.partial_outage.light}"`)

  const summary = await json(await ctx.request('https://halfway.status.test/api/v2/summary.json'))
  expect(summary.status).toEqual({ indicator: 'major', description: 'Partial System Outage' })
  const byName = (name: string) => summary.components.find((c: { name: string }) => c.name === name)
  expect(byName('API').status).toBe('partial_outage')
  expect(byName('Web').status).toBe('operational')
  expect(byName('Core')).toMatchObject({ group: true, status: 'partial_outage' })
})

test('a maintenance window does not hide a partial outage', async () => {
  const window = await call('/maintenances', 'POST', { status_page_id: pageId, title: 'Upgrade', start_at: new Date(NOW - HOUR).toISOString(), end_at: new Date(NOW + HOUR).toISOString() })
  expect(window.status).toBe(201)
  const summary = await json(await ctx.request('https://halfway.status.test/api/v2/summary.json'))
  expect(summary.components.find((c: { name: string }) => c.name === 'API').status).toBe('partial_outage')
  expect(summary.components.find((c: { name: string }) => c.name === 'Web').status).toBe('under_maintenance')
  expect((await json(await ctx.request('/api/embed/status?slug=halfway'))).overall).toBe('partial_outage')
  await call(`/maintenances/${window.body.data.id}`, 'DELETE')
})

test('an incident’s impact: derived from its components, or the owner’s; shown in the API, the v2 JSON and on its page', async () => {
  const opened = await call('/incidents', 'POST', { status_page_id: pageId, component_ids: [api], title: 'Slow API', message: 'Some calls fail' })
  expect(opened.status).toBe(201)
  const id = opened.body.data.id as number
  expect(opened.body.data).toMatchObject({ impact: 'major', impact_chosen: false })

  const v2Impact = async () => {
    const incidents = (await json(await ctx.request('https://halfway.status.test/api/v2/incidents.json'))).incidents
    return incidents.find((i: { id: string }) => i.id === String(id)).impact
  }
  const pageImpact = async () => /Impact: <strong class="impact impact-([a-z]+)">([^<]+)<\/strong>/.exec(await (await ctx.request(`https://halfway.status.test/incidents/${id}`)).text())?.slice(1)
  expect(await v2Impact()).toBe('major')
  expect(await pageImpact()).toEqual(['major', 'Major'])

  // The component goes down: the derived impact follows.
  await call(`/components/${api}`, 'PATCH', { status: 'down' })
  expect((await call(`/incidents/${id}`, 'GET')).body.data.impact).toBe('critical')
  expect(await v2Impact()).toBe('critical')

  // The owner chooses one: it stays whatever the components do, until cleared with null.
  const chosen = await call(`/incidents/${id}`, 'PATCH', { impact: 'minor' })
  expect(chosen.body.data).toMatchObject({ impact: 'minor', impact_chosen: true })
  expect(await v2Impact()).toBe('minor')
  expect(await pageImpact()).toEqual(['minor', 'Minor'])
  const bad = await call(`/incidents/${id}`, 'PATCH', { impact: 'huge' })
  expect(bad.status).toBe(400)
  expect((await call(`/incidents/${id}`, 'GET')).body.data.impact).toBe('minor')
  const cleared = await call(`/incidents/${id}`, 'PATCH', { impact: null })
  expect(cleared.body.data).toMatchObject({ impact: 'critical', impact_chosen: false })

  // A whole-page incident takes its impact from every component of the page; none may be chosen at once.
  const whole = await call('/incidents', 'POST', { status_page_id: pageId, title: 'Heads-up', impact: 'none' })
  expect(whole.body.data).toMatchObject({ impact: 'none', impact_chosen: true })
  const derivedWhole = await call('/incidents', 'POST', { status_page_id: pageId, title: 'Everything' })
  expect(derivedWhole.body.data.impact).toBe('critical')
  await call(`/components/${api}`, 'PATCH', { status: 'up' })
  await call(`/components/${web}`, 'PATCH', { status: 'partial' })
  expect((await call(`/incidents/${derivedWhole.body.data.id}`, 'GET')).body.data.impact).toBe('major')
})
