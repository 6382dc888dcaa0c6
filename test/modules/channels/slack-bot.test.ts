/**
 * A Slack channel with a bot instead of an incoming webhook: one outage is one message, posted with
 * chat.postMessage and edited with chat.update on recovery. Against the chat hub answering as Slack's
 * Web API documents it (200 with `ok`, the message's `channel` and `ts`; 200 with `"ok": false` and
 * an `error` code when it refuses), with a real monitor, scheduler and outbox worker on the injected
 * clock. A refused post is a failed delivery naming Slack's error; a message Slack no longer has
 * makes the recovery a new message.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from '../monitors/scheduling.ts'
import { OutageDriver } from './outage-driver.ts'

const TOKEN = 'xoxb-1111111111-2222222222222-abcdefghijklmnopqrstuvwx'
const CHANNEL = 'C0123456789'
const TS = '1765100000.000100'
const POST = '/chat.postMessage'
const UPDATE = '/chat.update'

let hub: ChatHub
let ctx: TestContext
let key: string
let scheduler: ReturnType<typeof schedulerFor>
let monitorId = 0
let channelId = 0
let driver: OutageDriver

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => driver.api(path, init)
const post = (path: string, body: unknown) => driver.post(path, body)
const step = (times = 1) => driver.step(times)
const fresh = () => driver.fresh()
const posted = (ts = TS) => ({ status: 200, body: JSON.stringify({ ok: true, channel: CHANNEL, ts, message: { type: 'message', text: '' } }) })
const refused = (error: string) => ({ status: 200, body: JSON.stringify({ ok: false, error }) })

beforeAll(async () => {
  hub = await startChatHub()
  hub.answer(POST, [posted()])
  hub.answer(UPDATE, [posted()])
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1', SLACK_API_URL: hub.url } })
  scheduler = schedulerFor(ctx, { perHostCap: 100, globalCap: 100 })
  ;({ key } = await ctx.createOwner('enterprise'))
  driver = new OutageDriver(ctx, key, scheduler, hub)
  const siteUrl = driver.serve()
  monitorId = (await post('/monitors', { name: 'Checkout', type: 'http', target: siteUrl, interval_seconds: 60, retries: 0, confirm_failures: 1, confirm_successes: 1 })).id
})

afterAll(async () => {
  await scheduler.stop()
  driver.down()
  await ctx.close()
  await hub.close()
})

describe('a Slack bot channel', () => {
  test('is saved with its token masked; its test send is a chat.postMessage with the token as a bearer, and verifies it', async () => {
    const channel = await post('/notification-channels', { type: 'slack', name: 'Ops <b>Slack</b>', bot_token: TOKEN, chat_id: CHANNEL })
    channelId = channel.id
    expect(channel.settings).toEqual({ bot_token: `…${TOKEN.slice(-4)}`, chat_id: CHANNEL })
    expect(JSON.stringify(channel)).not.toContain(TOKEN)
    await post(`/notification-channels/${channelId}/test`, {})
    await ctx.app.services.outboxWorker.drain()
    const [sent] = fresh()
    expect(sent!.path).toBe(POST)
    expect(sent!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`)
    expect(sent!.json()).toMatchObject({ channel: CHANNEL, unfurl_links: false })
    expect(sent!.json().blocks[0].type).toBe('header')
    const got = (await json(await api(`/notification-channels/${channelId}`))).data
    expect(got.verified).toBe(true)
    expect((await api(`/monitors/${monitorId}/alerts`, { method: 'PATCH', json: { channel_ids: [channelId] } })).status).toBe(200)
    await step()
    fresh()
  })

  test('an outage is one message: posted when the monitor goes down, edited with chat.update when it is back', async () => {
    driver.down()
    await step()
    const down = fresh()
    expect(down.map((r) => r.path)).toEqual([POST])
    expect(down[0]!.json().text).toStartWith('Monitor "Checkout" is down')
    driver.serve()
    await step()
    const up = fresh()
    expect(up.map((r) => r.path)).toEqual([UPDATE])
    const edit = up[0]!.json()
    expect(edit).toMatchObject({ channel: CHANNEL, ts: TS })
    expect(edit.text).toMatch(/^Monitor "Checkout" is up again after \d+ min/)
    expect(up[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`)
  })

  test("a message Slack no longer has (ok: false, message_not_found): the recovery is a new message, and counts once as sent", async () => {
    hub.answer(POST, [posted('1765100999.000200')])
    driver.down()
    await step()
    expect(fresh().map((r) => r.path)).toEqual([POST])
    hub.answer(UPDATE, [refused('message_not_found')])
    driver.serve()
    await step()
    const sent = fresh()
    expect(sent.map((r) => r.path)).toEqual([UPDATE, POST])
    expect(sent[0]!.json().ts).toBe('1765100999.000200')
    expect(sent[1]!.json().text).toContain('is up again after')
    const row = await ctx.database.db.selectFrom('outbox').select(['status', 'attempts']).where('target', '=', `channel:${channelId}`).orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'sent', attempts: 1 })
  })

  test("a post Slack refuses with 200 and ok: false is a failed delivery naming Slack's error, retried later", async () => {
    hub.answer(POST, [refused('not_in_channel')])
    await post(`/notification-channels/${channelId}/test`, {})
    await ctx.app.services.outboxWorker.drain()
    expect(fresh().map((r) => r.path)).toEqual([POST])
    const log = (await json(await api(`/notification-channels/${channelId}/deliveries`))).data
    expect(log[0]).toMatchObject({ status: 'queued', attempts: 1, status_code: 200 })
    expect(log[0].error).toContain('not_in_channel')
  })

  test('a change may switch to an incoming webhook (the bot settings go) and back', async () => {
    const hook = `${hub.url}/slack-hook`
    let response = await api(`/notification-channels/${channelId}`, { method: 'PATCH', json: { url: hook } })
    expect(response.status).toBe(200)
    expect(Object.keys((await json(response)).data.settings)).toEqual(['url'])
    response = await api(`/notification-channels/${channelId}`, { method: 'PATCH', json: { bot_token: TOKEN } })
    expect(response.status).toBe(400)
    expect((await json(response)).error).toContain('chat_id is required for slack channels')
    response = await api(`/notification-channels/${channelId}`, { method: 'PATCH', json: { bot_token: TOKEN, chat_id: CHANNEL } })
    expect(response.status).toBe(200)
    expect((await json(response)).data.settings).toEqual({ bot_token: `…${TOKEN.slice(-4)}`, chat_id: CHANNEL })
  })
})
