/**
 * The MCP endpoint through the official SDK's own client over real HTTP: the tools an agent sees,
 * an outage run end to end (report, update, resolve, maintenance) that the public side shows,
 * monitors listed, paused, resumed and read, and the refusals (no key, a cookie, another origin,
 * someone else's ids, bad arguments) that change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { json } from '../../helpers/context.ts'
import { listenTestContext, type ListeningContext } from '../../helpers/listening.ts'

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0)

let server: ListeningContext
let key: string
let otherKey: string
let pageId: number
let slug: string
let componentId: number
let monitorId: number
let otherPageId: number

async function connect(apiKey: string | undefined, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'lantern-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
    requestInit: { headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers } },
  })
  await client.connect(transport)
  return client
}

type ToolAnswer = { content: Array<{ type: string; text: string }>; isError?: boolean }
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args })) as ToolAnswer
}
const data = (answer: ToolAnswer) => {
  expect(answer.isError).toBeFalsy()
  return JSON.parse(answer.content[0]!.text)
}

beforeAll(async () => {
  server = await listenTestContext({ now: NOW })
  const ctx = server.ctx
  ;({ key } = await ctx.createOwner('enterprise'))
  ;({ key: otherKey } = await ctx.createOwner('enterprise'))
  slug = `mcp-${crypto.randomUUID().slice(0, 6)}`
  pageId = (await ctx.createPage(key, { slug, name: 'Agents <Inc>' })).id
  otherPageId = (await ctx.createPage(otherKey, { slug: `other-${crypto.randomUUID().slice(0, 6)}`, name: 'Other' })).id
  componentId = (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'API' } }))).data.id
  monitorId = (await json(await ctx.request('/user/api/v1/monitors', { method: 'POST', key, json: { name: 'Nightly job', type: 'push', interval_seconds: 3600, component_id: componentId } }))).data.id
})
afterAll(() => server?.close())

describe('MCP through the SDK client', () => {
  test('the tools an agent sees, with their input schemas and hints', async () => {
    const client = await connect(key)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([
      'list_pages',
      'page_status',
      'report_incident',
      'post_incident_update',
      'resolve_incident',
      'schedule_maintenance',
      'list_monitors',
      'pause_monitor',
      'resume_monitor',
      'monitor_results',
    ])
    const report = tools.find((t) => t.name === 'report_incident')!
    expect(report.inputSchema.required).toEqual(['page_id', 'title'])
    expect(report.annotations?.readOnlyHint).toBe(false)
    expect(tools.find((t) => t.name === 'list_pages')!.annotations?.readOnlyHint).toBe(true)
    await client.close()
  })

  test('an outage through the tools: report, update, resolve; the public side follows', async () => {
    const client = await connect(key)
    const pages = data(await call(client, 'list_pages'))
    expect(pages).toEqual([expect.objectContaining({ id: pageId, name: 'Agents <Inc>', slug, overall: 'operational', open_incidents: [] })])

    const opened = data(await call(client, 'report_incident', { page_id: pageId, title: 'API errors', message: 'Looking into it', component_ids: [componentId] }))
    expect(opened).toMatchObject({ page_id: pageId, title: 'API errors', state: 'investigating', components: [{ id: componentId, name: 'API' }] })
    const status = data(await call(client, 'page_status', { page_id: pageId }))
    expect(status.open_incidents).toEqual([expect.objectContaining({ id: opened.id, title: 'API errors', state: 'investigating' })])
    expect(status.components).toEqual([{ id: componentId, name: 'API', group: null, status: 'operational' }])

    const updated = data(await call(client, 'post_incident_update', { incident_id: opened.id, message: 'Found it', state: 'identified' }))
    expect(updated.state).toBe('identified')
    const resolved = data(await call(client, 'resolve_incident', { incident_id: opened.id }))
    expect(resolved.state).toBe('resolved')
    expect(resolved.updates.map((u: { message: string }) => u.message)).toEqual(['Looking into it', 'Found it', 'This incident has been resolved.'])
    const page = await (await server.ctx.request(`${server.statusHost(slug)}/incidents/${opened.id}`)).text()
    expect(page).toContain('Found it')

    const window = data(await call(client, 'schedule_maintenance', { page_id: pageId, title: 'Upgrade', start_at: '2026-11-21T22:00:00Z', end_at: '2026-11-21T23:00:00Z' }))
    expect(window).toMatchObject({ page_id: pageId, title: 'Upgrade', start_at: '2026-11-21T22:00:00.000Z' })
    await client.close()
  })

  test('monitors: listed, paused, resumed, their (empty) results read', async () => {
    const client = await connect(key)
    const monitors = data(await call(client, 'list_monitors', { page_id: pageId }))
    expect(monitors).toEqual([expect.objectContaining({ id: monitorId, name: 'Nightly job', type: 'push', enabled: true })])
    expect(data(await call(client, 'list_monitors', { page_id: otherPageId }))).toEqual([])
    expect(data(await call(client, 'pause_monitor', { monitor_id: monitorId })).enabled).toBe(false)
    expect((await json(await server.ctx.request(`/user/api/v1/monitors/${monitorId}`, { key }))).data.enabled).toBe(false)
    expect(data(await call(client, 'resume_monitor', { monitor_id: monitorId })).enabled).toBe(true)
    // No ping has come yet: no result.
    expect(data(await call(client, 'monitor_results', { monitor_id: monitorId, limit: 5 }))).toEqual([])
    await client.close()
  })

  test("someone else's ids and bad arguments are refused and change nothing", async () => {
    const client = await connect(otherKey)
    const refused = await call(client, 'report_incident', { page_id: pageId, title: 'Hijack' })
    expect(refused.isError).toBe(true)
    expect(refused.content[0]!.text).toStartWith('Not found')
    expect((await call(client, 'pause_monitor', { monitor_id: monitorId })).isError).toBe(true)
    const bad = await call(client, 'page_status', { page_id: 'one' })
    expect(bad.isError).toBe(true)
    expect(bad.content[0]!.text).toContain('page_id')
    const tooLong = await call(client, 'report_incident', { page_id: otherPageId, title: 'x'.repeat(500) })
    expect(tooLong.isError).toBe(true)
    await client.close()
    const incidents = (await json(await server.ctx.request(`/user/api/v1/incidents?status_page_id=${pageId}`, { key }))).data
    expect(incidents.map((i: { title: string }) => i.title)).toEqual(['API errors'])
    expect((await json(await server.ctx.request(`/user/api/v1/monitors/${monitorId}`, { key }))).data.enabled).toBe(true)
  })

  test('no key, a session cookie alone, or another origin: refused before any tool', async () => {
    await expect(connect(undefined)).rejects.toThrow()
    await expect(connect('lnt_not-a-key')).rejects.toThrow()
    await expect(connect(key, { origin: 'https://evil.example' })).rejects.toThrow()
    const raw = (headers: Record<string, string>) =>
      fetch(`${server.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    expect((await raw({})).status).toBe(401)
    expect((await raw({ cookie: 'lantern_session=whatever' })).status).toBe(401)
    expect((await raw({ authorization: `Bearer ${key}`, origin: 'https://evil.example' })).status).toBe(403)
    expect((await fetch(`${server.base}/mcp`)).status).toBe(405)
    const garbage = await fetch(`${server.base}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"jsonrpc":' })
    expect(garbage.status).toBeGreaterThanOrEqual(400)
    expect(garbage.status).toBeLessThan(500)
  })
})
