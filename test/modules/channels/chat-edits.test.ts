/**
 * One outage, one chat message: Discord and Telegram edit the outage's first message for its
 * recovery instead of posting a second one; Slack incoming webhooks cannot edit, so the recovery
 * follows as its own message. Against the chat hub answering as the services document it (Discord's
 * `?wait=true` answers the message with its `id`; Telegram's sendMessage answers `result.message_id`),
 * with a real monitor, scheduler and outbox worker on the injected clock. Reminders are new
 * messages; a message the service no longer has, or a first one whose answer named nothing, makes
 * the recovery a new message.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub, type HubRequest } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { schedulerFor } from '../monitors/scheduling.ts'
import { OutageDriver } from './outage-driver.ts'

const BOT = '123456789:AAbbccddeeffgghhiijjkkllmmnnooppqq'
const DISCORD = '/api/webhooks/1100000000000000000/webhook-token'
const DISCORD_ID = '1100000000000000042'
const SEND = `/bot${BOT}/sendMessage`
const EDIT = `/bot${BOT}/editMessageText`

let hub: ChatHub
let ctx: TestContext
let key: string
let scheduler: ReturnType<typeof schedulerFor>
let monitorId = 0
let driver: OutageDriver

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => driver.api(path, init)
const post = (path: string, body: unknown) => driver.post(path, body)
const step = (times = 1) => driver.step(times)
const fresh = () => driver.fresh()
const line = (r: HubRequest) => `${r.method} ${r.path}${r.query}`

beforeAll(async () => {
  hub = await startChatHub()
  hub.answer(DISCORD, [{ status: 200, body: JSON.stringify({ id: DISCORD_ID, type: 0, channel_id: '99', content: '' }) }])
  hub.answer(SEND, [{ status: 200, body: JSON.stringify({ ok: true, result: { message_id: 42, chat: { id: -1001 }, date: 1 } }) }])
  hub.answer(EDIT, [{ status: 200, body: JSON.stringify({ ok: true, result: { message_id: 42 } }) }])
  ctx = await createTestContext({ env: { MONITOR_PRIVATE_TARGETS: '1', TELEGRAM_API_URL: hub.url } })
  scheduler = schedulerFor(ctx, { perHostCap: 100, globalCap: 100 })
  ;({ key } = await ctx.createOwner('enterprise'))
  driver = new OutageDriver(ctx, key, scheduler, hub)
  const siteUrl = driver.serve()
  monitorId = (await post('/monitors', { name: 'Checkout', type: 'http', target: siteUrl, interval_seconds: 60, retries: 0, confirm_failures: 1, confirm_successes: 1 })).id
  const channels = [
    await post('/notification-channels', { type: 'discord', name: 'Discord', url: `${hub.url}${DISCORD}` }),
    await post('/notification-channels', { type: 'telegram', name: 'Telegram', bot_token: BOT, chat_id: '-1001' }),
    await post('/notification-channels', { type: 'slack', name: 'Slack', url: `${hub.url}/slack` }),
  ]
  for (const channel of channels) await post(`/notification-channels/${channel.id}/test`, {})
  await ctx.app.services.outboxWorker.drain()
  expect((await json(await api('/notification-channels'))).data.map((c: { verified: boolean }) => c.verified)).toEqual([true, true, true])
  expect((await api(`/monitors/${monitorId}/alerts`, { method: 'PATCH', json: { channel_ids: channels.map((c) => c.id), remind_every_minutes: 2, remind_max: 1 } })).status).toBe(200)
  await step()
  fresh()
})

afterAll(async () => {
  await scheduler.stop()
  driver.down()
  await ctx.close()
  await hub.close()
})

describe('an outage on chat channels', () => {
  test('going down: one message each; Discord is asked to answer the message (?wait=true)', async () => {
    driver.down()
    await step()
    const sent = fresh()
    expect(sent.map(line).sort()).toEqual([`POST ${DISCORD}?wait=true`, `POST ${SEND}`, 'POST /slack'].sort())
    expect(sent.find((r) => r.path === DISCORD)!.json().embeds[0].title).toStartWith('Monitor "Checkout" is down')
    expect(sent.find((r) => r.path === SEND)!.json().text).toContain('Monitor &quot;Checkout&quot; is down')
  })

  test('a reminder is a new message everywhere (an edit would tell nobody)', async () => {
    await step(2)
    expect(await ctx.app.services.monitorAlerts.remind()).toBe(1)
    await ctx.app.services.outboxWorker.drain()
    const sent = fresh()
    expect(sent.map(line).sort()).toEqual([`POST ${DISCORD}`, `POST ${SEND}`, 'POST /slack'].sort())
    expect(sent.find((r) => r.path === SEND)!.json().text).toContain('Still down (reminder 1)')
  })

  test('back up: Discord and Telegram edit the first message; Slack (an incoming webhook) follows with a second one', async () => {
    driver.serve()
    await step()
    const sent = fresh()
    expect(sent.map(line).sort()).toEqual([`PATCH ${DISCORD}/messages/${DISCORD_ID}`, `POST ${EDIT}`, 'POST /slack'].sort())
    const discord = sent.find((r) => r.method === 'PATCH')!.json()
    expect(discord.embeds[0].title).toMatch(/^Monitor "Checkout" is up again after \d+ min/)
    expect(discord.allowed_mentions).toEqual({ parse: [] })
    const telegram = sent.find((r) => r.path === EDIT)!.json()
    expect(telegram).toMatchObject({ chat_id: '-1001', message_id: 42, parse_mode: 'HTML' })
    expect(telegram.text).toContain('is up again after')
    expect(sent.find((r) => r.path === '/slack')!.json().text).toContain('is up again after')
  })

  test('a first message the service no longer has, or one whose answer named nothing: the recovery is a new message', async () => {
    // Discord: the message was deleted meanwhile (404 Unknown Message); Telegram answered without a message id.
    hub.answer(`${DISCORD}/messages/${DISCORD_ID}`, [{ status: 404, body: JSON.stringify({ message: 'Unknown Message', code: 10008 }) }])
    hub.answer(SEND, [{ status: 200, body: 'ok' }])
    driver.down()
    await step()
    expect(fresh().map(line).sort()).toEqual([`POST ${DISCORD}?wait=true`, `POST ${SEND}`, 'POST /slack'].sort())
    driver.serve()
    await step()
    const sent = fresh()
    expect(sent.map(line).sort()).toEqual([`PATCH ${DISCORD}/messages/${DISCORD_ID}`, `POST ${DISCORD}`, `POST ${SEND}`, 'POST /slack'].sort())
    // Each channel's delivery of the recovery counts once, as sent.
    const log = await ctx.database.db.selectFrom('outbox').select(['target', 'status', 'attempts']).where('kind', '=', 'http').orderBy('id', 'desc').limit(3).execute()
    expect(log.map((row) => [row.status, row.attempts])).toEqual([['sent', 1], ['sent', 1], ['sent', 1]])
  })
})
