/**
 * Every cached public answer reflects a change made through the API at once: each answer is read
 * twice first (so it is cached, fast lane included), then the change, then it must differ.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext
let key: string
let email: string
let pageId: number
let componentId: number

const HOST = 'https://fresh.status.test'
const ANSWERS = {
  status: '/api/embed/status?slug=fresh&inc=1',
  markdown: '/api/embed/markdown?slug=fresh',
  badge: '/badge/fresh.svg',
  page: `${HOST}/`,
  history: `${HOST}/history`,
  summary: `${HOST}/api/v2/summary.json`,
  incidents: `${HOST}/api/v2/incidents.json`,
  rss: `${HOST}/history.rss`,
  atom: `${HOST}/history.atom`,
} as const
type Answer = keyof typeof ANSWERS

beforeAll(async () => {
  ctx = await createTestContext()
  const owner = await ctx.createOwner('enterprise')
  key = owner.key
  email = owner.user.email
  pageId = (await ctx.createPage(key, { slug: 'fresh', name: 'Fresh' })).id
  componentId = (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'API' } }))).data.id
})
afterAll(() => ctx.close())

async function read(answer: Answer): Promise<string> {
  const response = await ctx.request(ANSWERS[answer])
  return `${response.status} ${await response.text()}`
}

/** Reads `answers` (twice, to be sure they are cached), runs `change`, and returns those that did not change. */
async function stale(answers: Answer[], change: () => Promise<Response | void>): Promise<Answer[]> {
  const before = new Map<Answer, string>()
  for (const answer of answers) {
    await read(answer)
    before.set(answer, await read(answer))
  }
  const response = await change()
  if (response) expect(response.status).toBeLessThan(300)
  const unchanged: Answer[] = []
  for (const answer of answers) if ((await read(answer)) === before.get(answer)) unchanged.push(answer)
  return unchanged
}

const api = (path: string, method: string, body?: unknown) => ctx.request(`/user/api/v1${path}`, { method, key, json: body })

test('a component status change', async () => {
  expect(await stale(['status', 'badge', 'page', 'summary'], () => api(`/components/${componentId}`, 'PATCH', { status: 'down' }))).toEqual([])
})

test('a new incident and its update', async () => {
  let incident = 0
  expect(
    await stale(['status', 'page', 'history', 'summary', 'incidents', 'rss', 'atom'], async () => {
      const response = await api('/incidents', 'POST', { status_page_id: pageId, title: 'Boom', message: 'Looking' })
      incident = (await json(response.clone())).data.id
      return response
    }),
  ).toEqual([])
  expect(await stale(['page', 'history', 'summary', 'incidents', 'rss', 'atom'], () => api(`/incidents/${incident}/updates`, 'POST', { message: 'Fixed', state: 'resolved' }))).toEqual([])
})

test('a maintenance window that is on now', async () => {
  const body = { status_page_id: pageId, title: 'Upgrade', start_at: '2026-11-01T11:00:00Z', end_at: '2026-11-01T18:00:00Z' }
  expect(await stale(['page', 'summary', 'rss', 'atom'], () => api('/maintenances', 'POST', body))).toEqual([])
})

test('renaming the page and changing its colours', async () => {
  expect(await stale(['badge', 'page', 'summary', 'rss', 'atom'], () => api(`/status-pages/${pageId}`, 'PATCH', { name: 'Freshly' }))).toEqual([])
  expect(await stale(['page'], () => api(`/status-pages/${pageId}/branding`, 'PATCH', { palette: { primary: '#aa0000' } }))).toEqual([])
})

test('a downgrade to free, then private, then deleted', async () => {
  expect(await stale(['status', 'markdown', 'badge'], () => ctx.app.services.accounts.setPlan(email, 'free').then(() => undefined))).toEqual([])
  await ctx.app.services.accounts.setPlan(email, 'enterprise')
  expect(await stale(['status', 'badge', 'page', 'history', 'summary', 'rss'], () => api(`/status-pages/${pageId}`, 'PATCH', { visibility: 'private' }))).toEqual([])
  await api(`/status-pages/${pageId}`, 'PATCH', { visibility: 'public' })
  expect(await stale(Object.keys(ANSWERS) as Answer[], () => api(`/status-pages/${pageId}`, 'DELETE'))).toEqual([])
})

test('a maintenance window starting or ending shows at once on the page, the v2 JSON and the feeds, as on the badge and status JSON', async () => {
  const page = (await ctx.createPage(key, { slug: 'soon', name: 'Soon' })).id
  await api(`/status-pages/${page}/components`, 'POST', { name: 'API' })
  const start = ctx.clock.now() + 5_000
  const end = start + 20_000
  const window = { status_page_id: page, title: 'Upgrade', start_at: new Date(start).toISOString(), end_at: new Date(end).toISOString() }
  expect((await api('/maintenances', 'POST', window)).status).toBe(201)
  const urls = ['https://soon.status.test/', 'https://soon.status.test/api/v2/summary.json', 'https://soon.status.test/history.rss', '/api/embed/status?slug=soon', '/badge/soon.svg']
  const readAll = async () => Promise.all(urls.map(async (url) => (await ctx.request(url)).text()))
  const scheduled = await readAll()
  expect(await readAll()).toEqual(scheduled) // cached, and stable while nothing happens
  ctx.clock.advance(5_000)
  const active = await readAll()
  expect(urls.filter((_, i) => active[i] === scheduled[i])).toEqual([])
  expect(active[1]).toContain('"status":"in_progress"')
  expect(active[2]).toContain('[Maintenance in progress] Upgrade')
  ctx.clock.advance(20_000)
  const over = await readAll()
  expect(urls.filter((_, i) => over[i] === active[i])).toEqual([])
  expect(over[2]).toContain('[Maintenance completed] Upgrade')
})
