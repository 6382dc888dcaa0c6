/**
 * A status change reaches every public read on its next request: the badge, the widget's JSON,
 * the status JSON, the Statuspage-style v2 JSON and the page. Each answer is cached first (read
 * twice), and a client that kept it (its ETag) and asks again gets the new status; every answer
 * tells clients and proxies to ask again before reusing it (`no-cache`), so none of them can keep
 * showing the old status for minutes. Changes through the API and through a monitor's result.
 * One colour per status: the badge draws the colours of the table the page and the widget use.
 * Real app, real SQLite, requests through the front door, a fixed clock.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { STATUS_COLOURS, toneVariables } from '../../../src/modules/status-pipeline/colours.ts'
import { DISPLAY_STATUSES } from '../../../src/modules/status-pipeline/status.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
let key: string
let pageId: number
let apiId: number
const HOST = 'https://live.status.test'

const SURFACES = {
  badge: '/badge/live.svg',
  widget: '/api/embed/status?slug=live&inc=1&rtm=60&upd=7',
  status: '/api/embed/status?slug=live',
  v2: `${HOST}/api/v2/summary.json`,
  page: `${HOST}/`,
} as const
type Surface = keyof typeof SURFACES

/** The overall status each surface states, in the one vocabulary of the status JSON. */
const V2_INDICATOR: Record<string, string> = { none: 'operational', minor: 'degraded_performance', major: 'partial_outage', critical: 'major_outage', maintenance: 'under_maintenance' }
const BADGE_TEXT: Record<string, string> = { Operational: 'operational', Degraded: 'degraded_performance', 'Partial Outage': 'partial_outage', Down: 'major_outage', Maintenance: 'under_maintenance' }

async function statusIn(surface: Surface, body: string): Promise<string | undefined> {
  if (surface === 'badge') return BADGE_TEXT[/<title>Live: ([^<]*)<\/title>/.exec(body)?.[1] ?? '']
  if (surface === 'widget' || surface === 'status') return JSON.parse(body).overall
  if (surface === 'v2') return V2_INDICATOR[JSON.parse(body).status.indicator]
  return /class="banner banner--([a-z_]+)"/.exec(body)?.[1]
}

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 10, 27, 12) })
  key = (await ctx.createOwner('growth')).key
  pageId = (await ctx.createPage(key, { slug: 'live', name: 'Live' })).id
  const add = async (name: string) => (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name } }))).data.id as number
  apiId = await add('API')
  await add('Web')
})
afterAll(() => ctx.close())

/** Reads every surface twice (so it is cached) and keeps what a client would: the status and the ETag. */
async function cachedEverywhere() {
  const kept = {} as Record<Surface, { etag: string; status: string | undefined }>
  for (const surface of Object.keys(SURFACES) as Surface[]) {
    await ctx.request(SURFACES[surface])
    const response = await ctx.request(SURFACES[surface])
    expect(`${surface} ${response.status} ${response.headers.get('cache-control')}`).toBe(`${surface} 200 public, no-cache`)
    kept[surface] = { etag: response.headers.get('etag')!, status: await statusIn(surface, await response.text()) }
  }
  return kept
}

/** What a client holding `kept` sees on its next request (a conditional one, as caches send). */
async function nextRequest(kept: Awaited<ReturnType<typeof cachedEverywhere>>) {
  const seen = {} as Record<Surface, string | undefined>
  for (const surface of Object.keys(SURFACES) as Surface[]) {
    const response = await ctx.request(SURFACES[surface], { headers: { 'if-none-match': kept[surface].etag } })
    seen[surface] = response.status === 304 ? kept[surface].status : await statusIn(surface, await response.text())
  }
  return seen
}

const all = (status: string) => Object.fromEntries(Object.keys(SURFACES).map((surface) => [surface, status])) as Record<Surface, string | undefined>

test('a status change through the API: every surface shows it on the next request', async () => {
  const kept = await cachedEverywhere()
  expect(Object.values(kept).map((k) => k.status)).toEqual(Object.values(all('operational')))
  // Nothing changed: every surface answers 304.
  expect(await nextRequest(kept)).toEqual(all('operational'))
  const changed = await ctx.request(`/user/api/v1/components/${apiId}`, { method: 'PATCH', key, json: { status: 'down' } })
  expect(changed.status).toBe(200)
  expect(await nextRequest(kept)).toEqual(all('partial_outage'))
  await ctx.request(`/user/api/v1/components/${apiId}`, { method: 'PATCH', key, json: { status: 'up' } })
  expect(await nextRequest(kept)).toEqual(all('operational'))
})

test("a status change through a monitor's results: every surface shows it on the next request", async () => {
  const monitor = await json(await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'Nightly job', type: 'push', interval_seconds: 3600, component_id: apiId } }))
  const push = (status: string) => ctx.request(`${monitor.data.push_url}?status=${status}&msg=exit%201`)
  expect((await push('up')).status).toBe(200)
  const kept = await cachedEverywhere()
  expect(kept.badge.status).toBe('operational')
  // The monitor confirms the failure (it may take more than one result) and moves the component.
  for (let i = 0; i < 5 && (await json(await ctx.request(`/user/api/v1/components/${apiId}`, { key }))).data.status !== 'down'; i++) {
    expect((await push('down')).status).toBe(200)
    ctx.clock.advance(1_000)
  }
  expect(await nextRequest(kept)).toEqual(all('partial_outage'))
  for (let i = 0; i < 5 && (await json(await ctx.request(`/user/api/v1/components/${apiId}`, { key }))).data.status !== 'up'; i++) {
    expect((await push('up')).status).toBe(200)
    ctx.clock.advance(1_000)
  }
  expect(await nextRequest(kept)).toEqual(all('operational'))
})

test('one colour per status: the badge draws the colour the page and the widget use for it', async () => {
  const css = await (await ctx.request(`${HOST}${/href="(\/_lantern\/page\.css[^"]*)"/.exec(await (await ctx.request(SURFACES.page)).text())![1]}`)).text()
  // The page's stylesheet holds the table, light and dark; the widget's script is built from it too.
  expect(css).toContain(toneVariables('light'))
  expect(css).toContain(toneVariables('dark'))
  const widget = await (await ctx.request('/static/embed/v1/status.js')).text()
  for (const status of DISPLAY_STATUSES) {
    expect(widget).toContain(STATUS_COLOURS[status].light)
    expect(widget).toContain(STATUS_COLOURS[status].dark)
    expect(css).toContain(`.banner--${status}{background:var(--st-${status})}`)
  }
  // The badge in each status it can show.
  const fill = async () => {
    const svg = await (await ctx.request(SURFACES.badge)).text()
    return svg.match(/fill="(#[0-9a-f]{6})"/g)?.map((f) => f.slice(6, -1)) ?? []
  }
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['operational', async () => {}],
    ['degraded_performance', () => ctx.request(`/user/api/v1/components/${apiId}`, { method: 'PATCH', key, json: { status: 'degraded' } })],
    ['partial_outage', () => ctx.request(`/user/api/v1/components/${apiId}`, { method: 'PATCH', key, json: { status: 'down' } })],
  ]
  for (const [status, change] of steps) {
    await change()
    expect(await fill()).toContain(STATUS_COLOURS[status as keyof typeof STATUS_COLOURS].light)
  }
  await ctx.request(`/user/api/v1/components/${apiId}`, { method: 'PATCH', key, json: { status: 'up' } })
})
