/**
 * Every endpoint made to be read from other sites (the Statuspage v2 JSON and the feeds of status
 * hosts; status JSON, snippets, badges and the widget of the service host) answers a CORS preflight,
 * and its error answers carry `Access-Control-Allow-Origin` too: a widget shows the error (or
 * nothing) instead of a CORS failure.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../helpers/context.ts'

let ctx: TestContext

beforeAll(async () => {
  ctx = await createTestContext()
  const { key } = await ctx.createOwner('enterprise')
  await ctx.createPage(key, { slug: 'open', name: 'Open' })
  const secret = await ctx.createPage(key, { slug: 'secret', name: 'Secret', visibility: 'private' })
  await ctx.request(`/user/api/v1/status-pages/${secret.id}/access`, { method: 'PUT', key, json: { password: 'open sesame' } })
  await ctx.createPage(key, { slug: 'gone', name: 'Gone' })
  await ctx.app.services.pages.setBlocked('gone', true)
})
afterAll(() => ctx.close())

const V2 = ['summary', 'status', 'components', 'incidents', 'incidents/unresolved', 'scheduled-maintenances', 'scheduled-maintenances/upcoming', 'scheduled-maintenances/active'].map((d) => `/api/v2/${d}.json`)
const STATUS_HOST_PATHS = [...V2, '/history.rss', '/history.atom']
const SERVICE_PATHS = ['/api/embed/status?slug=open', '/api/embed/markdown?slug=open', '/badge/open.svg', '/badge/open/uptime.svg', '/static/embed/v1/status.js']

const preflight = (url: string) =>
  ctx.request(url, {
    method: 'OPTIONS',
    headers: { origin: 'https://widget.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-requested-with, if-none-match' },
  })

test('CORS preflights of the status hosts\' JSON and feeds and of the service host\'s embeds are 204s that allow GET from anywhere', async () => {
  const urls = [
    ...STATUS_HOST_PATHS.map((p) => `https://open.status.test${p}`),
    ...STATUS_HOST_PATHS.map((p) => `https://secret.status.test${p}`),
    ...SERVICE_PATHS,
  ]
  const answers: string[] = []
  for (const url of urls) {
    const response = await preflight(url)
    const h = response.headers
    answers.push(`${url} ${response.status} ${h.get('access-control-allow-origin')} ${h.get('access-control-allow-methods')} ${h.get('access-control-allow-headers')}`)
    expect(await response.text()).toBe('')
  }
  expect(answers).toEqual(urls.map((url) => `${url} 204 * GET, HEAD, OPTIONS x-requested-with, if-none-match`))
  // Preflights of anything else are not opened: the management API stays same-origin.
  for (const url of ['/user/api/v1/status-pages', 'https://open.status.test/', 'https://open.status.test/_lantern/access']) {
    expect((await preflight(url)).headers.get('access-control-allow-origin')).toBeNull()
  }
})

test('error answers of CORS-open endpoints carry Access-Control-Allow-Origin', async () => {
  const answers: string[] = []
  const ask = async (url: string, expected: number) => {
    const response = await ctx.request(url)
    answers.push(`${url} ${response.status} ${response.headers.get('access-control-allow-origin')}`)
    return expect(response.status).toBe(expected)
  }
  // A private page without a session or token: 401, readable by the widget.
  for (const path of STATUS_HOST_PATHS) await ask(`https://secret.status.test${path}`, 401)
  // A blocked page: 503.
  for (const path of STATUS_HOST_PATHS) await ask(`https://gone.status.test${path}`, 503)
  // Service host: bad queries, unknown pages.
  await ask('/api/embed/status?slug=open&slug=other', 400)
  await ask('/api/embed/status?slug=nobody', 404)
  await ask('/api/embed/markdown', 400)
  await ask('/badge/open/uptime.svg?days=abc', 400)
  await ask('/badge/open.png', 404)
  expect(answers.filter((a) => !a.endsWith(' *'))).toEqual([])
  const secret = await json(await ctx.request('https://secret.status.test/api/v2/summary.json'))
  expect(secret.error).toContain('private')
})
