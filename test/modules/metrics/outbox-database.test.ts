/**
 * The outbox and database families move when work happens: deliveries queued and sent (or failed)
 * through the real outbox worker to the local chat hub, counted by channel kind; queries timed by
 * operation through the API's own requests.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { parseExposition, samplesOf, valueOf, type Sample } from './samples.ts'

const TOKEN = 'metrics-token-0123456789abcdefghijklmnopq'

let ctx: TestContext
let hub: ChatHub
let key: string

const scrape = async (): Promise<Sample[]> => {
  const response = await ctx.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(response.status).toBe(200)
  return parseExposition(await response.text())
}

/** Scrapes until `ready` holds (a delivery is counted once its channel's kind is looked up). */
async function scrapeUntil(ready: (samples: Sample[]) => boolean): Promise<Sample[]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const samples = await scrape()
    if (ready(samples)) return samples
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('the figures never moved')
}

beforeAll(async () => {
  hub = await startChatHub()
  ctx = await createTestContext({ env: { METRICS_TOKEN: TOKEN, MONITOR_PRIVATE_TARGETS: '1' } })
  ;({ key } = await ctx.createOwner('enterprise'))
})
afterAll(async () => {
  await ctx.close()
  await hub.close()
})

describe('outbox', () => {
  test('queued deliveries by channel kind, then attempts by result once the worker sent them', async () => {
    hub.answer('/slack', [500])
    const channel = async (body: Record<string, unknown>) => {
      const response = await ctx.request('/user/api/v1/notification-channels', { method: 'POST', key, json: body })
      expect(response.status).toBe(201)
      return (await json(response)).data.id as number
    }
    const webhook = await channel({ type: 'webhook', name: 'Hook', url: `${hub.url}/hook`, secret: 'whsec-0123456789abcdef' })
    const slack = await channel({ type: 'slack', name: 'Slack', url: `${hub.url}/slack` })
    for (const id of [webhook, slack]) expect((await ctx.request(`/user/api/v1/notification-channels/${id}/test`, { method: 'POST', key })).status).toBe(202)

    const queued = await scrape()
    expect(valueOf(queued, 'lantern_outbox_queued', { channel_kind: 'webhook' })).toBe(1)
    expect(valueOf(queued, 'lantern_outbox_queued', { channel_kind: 'slack' })).toBe(1)
    expect(samplesOf(queued, 'lantern_outbox_deliveries_total')).toEqual([])

    await ctx.app.services.outboxWorker.drain()
    expect(hub.received('/hook')).toHaveLength(1)
    expect(hub.received('/slack')).toHaveLength(1)
    const sent = await scrapeUntil((s) => samplesOf(s, 'lantern_outbox_deliveries_total').length === 2)
    expect(valueOf(sent, 'lantern_outbox_deliveries_total', { channel_kind: 'webhook', result: 'sent' })).toBe(1)
    expect(valueOf(sent, 'lantern_outbox_deliveries_total', { channel_kind: 'slack', result: 'failed' })).toBe(1)
    // The webhook's delivery is done; Slack's waits for its retry.
    expect(valueOf(sent, 'lantern_outbox_queued', { channel_kind: 'webhook' })).toBe(0)
    expect(valueOf(sent, 'lantern_outbox_queued', { channel_kind: 'slack' })).toBe(1)
    for (const sample of samplesOf(sent, 'lantern_outbox_deliveries_total')) expect(sample.labels.channel_kind).not.toContain(String(webhook))
  })
})

describe('database', () => {
  test('query time by operation moves with the requests that query; the scrape’s own reads are not counted', async () => {
    const count = (samples: Sample[], operation: string) => valueOf(samples, 'lantern_database_query_duration_seconds_count', { operation })
    const first = await scrape()
    const idle = await scrape()
    for (const operation of ['select', 'insert', 'update', 'delete']) expect(count(idle, operation)).toBe(count(first, operation))

    const page = await ctx.createPage(key, { slug: 'timed', name: 'Timed' })
    const created = await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } })
    const componentId = (await json(created)).data.id
    expect((await ctx.request(`/user/api/v1/components/${componentId}`, { method: 'PATCH', key, json: { name: 'API v2' } })).status).toBe(200)
    expect((await ctx.request(`/user/api/v1/components/${componentId}`, { method: 'DELETE', key })).status).toBe(200)
    const after = await scrape()
    for (const operation of ['select', 'insert', 'update', 'delete']) expect(count(after, operation)).toBeGreaterThan(count(idle, operation))
    const operations = new Set(samplesOf(after, 'lantern_database_query_duration_seconds_count').map((s) => s.labels.operation))
    expect([...operations].every((operation) => ['select', 'insert', 'update', 'delete', 'other'].includes(operation!))).toBe(true)
    expect(valueOf(after, 'lantern_database_query_duration_seconds_sum', { operation: 'insert' })).toBeGreaterThan(0)
  })
})
