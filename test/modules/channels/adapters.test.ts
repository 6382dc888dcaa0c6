/** The adapters' pure parts: signatures a receiver can check with node:crypto, escaping, header encoding. */
import { describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { headerText, ntfyRequest } from '../../../src/modules/channels/adapters/ntfy.ts'
import { pagerDutyPayload } from '../../../src/modules/channels/adapters/pagerduty.ts'
import { slackPayload } from '../../../src/modules/channels/adapters/slack.ts'
import { telegramText } from '../../../src/modules/channels/adapters/telegram.ts'
import { signatureHeader, signWebhookRequest, verifyWebhookSignature, webhookRequest } from '../../../src/modules/channels/adapters/webhook.ts'
import type { EventView } from '../../../src/modules/channels/event-view.ts'

const AT = Date.UTC(2026, 10, 28, 10, 0, 0)
const view = (over: Partial<EventView> = {}): EventView => ({
  kind: 'component.status_changed',
  at: AT,
  id: 'component:3:1:down',
  title: 'API <is> down & out',
  lines: ['API: operational → down'],
  severity: 'critical',
  page: { id: 7, name: 'Acme <Status>', url: 'https://acme.status.example' },
  link: 'https://acme.status.example',
  alertKey: 'lantern:component:3',
  resolves: false,
  component: { id: 3, name: 'API', from: 'up', to: 'down' },
  details: {},
  ...over,
})

describe('webhook signature', () => {
  test('a receiver checks it with node:crypto exactly as the guide shows', async () => {
    const secret = 'whsec-0123456789abcdef'
    const queued = webhookRequest(view(), { url: 'https://hooks.example/x' })
    // Queued unsigned; the worker signs each attempt with the channel's secret at that time.
    expect(queued.signed).toBe(true)
    expect(queued.headers['x-lantern-signature']).toBeUndefined()
    const request = await signWebhookRequest(queued, secret, AT)
    const header = request.headers['x-lantern-signature']!
    expect(header).toBe(`t=${AT / 1000},v1=${createHmac('sha256', secret).update(`${AT / 1000}.${request.body}`).digest('hex')}`)
    const [, t, v1] = header.match(/^t=(\d+),v1=([0-9a-f]{64})$/)!
    const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex')
    expect(timingSafeEqual(Buffer.from(expected), Buffer.from(v1!))).toBe(true)
    expect(await verifyWebhookSignature(secret, request.body, header)).toBe(true)
  })

  test('a changed body, another secret, another timestamp or a malformed header fail', async () => {
    const secret = 'whsec-0123456789abcdef'
    const header = await signatureHeader(secret, '{"a":1}', AT)
    expect(await verifyWebhookSignature(secret, '{"a":2}', header)).toBe(false)
    expect(await verifyWebhookSignature('whsec-other-secret-00', '{"a":1}', header)).toBe(false)
    expect(await verifyWebhookSignature(secret, '{"a":1}', header.replace(`t=${AT / 1000}`, `t=${AT / 1000 + 1}`))).toBe(false)
    for (const bad of [null, '', 'v1=abc', `t=1,v1=${'z'.repeat(64)}`]) expect(await verifyWebhookSignature(secret, '{"a":1}', bad)).toBe(false)
  })
})

describe('escaping and encoding', () => {
  test('Telegram HTML: every text escaped, only our own tags', () => {
    const text = telegramText(view({ lines: ['<a href="x">click</a> & more'] }))
    expect(text).toBe('<b>API &lt;is&gt; down &amp; out</b>\n&lt;a href=&quot;x&quot;&gt;click&lt;/a&gt; &amp; more\n<a href="https://acme.status.example">Acme &lt;Status&gt;</a>')
    // Telegram refuses texts over 4096 characters after entity parsing.
    const long = telegramText(view({ lines: ['<'.repeat(10_000)] }))
    expect(long.replace(/<[^>]+>/g, '').replace(/&(lt|gt|amp|quot);/g, '<').length).toBeLessThanOrEqual(4096)
  })

  test('Slack mrkdwn: <, > and & escaped so a text cannot mention or link', () => {
    const blocks = slackPayload(view({ lines: ['<!channel> <https://evil.example|x>'] })).blocks
    expect((blocks[1] as { text: { text: string } }).text.text).toBe(':red_circle: &lt;!channel&gt; &lt;https://evil.example|x&gt;')
    expect((blocks[2] as { elements: Array<{ text: string }> }).elements[0]!.text).toBe('<https://acme.status.example|Acme &lt;Status&gt;>')
  })

  test('ntfy: ASCII headers (RFC 2047 for anything else), priority 4 down, 3 up', () => {
    expect(headerText('Plain title')).toBe('Plain title')
    expect(headerText('Zürich is down')).toBe(`=?UTF-8?B?${Buffer.from('Zürich is down').toString('base64')}?=`)
    expect(headerText('two\r\nlines')).toBe('two lines')
    const down = ntfyRequest(view(), { topic: 'alerts', access_token: 'tk_secret' }, 'https://ntfy.example')
    expect(down).toMatchObject({ url: 'https://ntfy.example/alerts', headers: { priority: '4', authorization: 'Bearer tk_secret', click: 'https://acme.status.example' } })
    expect(ntfyRequest(view({ severity: 'ok', resolves: true }), { topic: 'alerts' }, 'https://ntfy.example').headers.priority).toBe('3')
  })

  test('PagerDuty: trigger carries the payload, resolve only the same dedup_key', () => {
    expect(pagerDutyPayload(view(), 'rk')).toMatchObject({
      routing_key: 'rk', event_action: 'trigger', dedup_key: 'lantern:component:3',
      payload: { summary: 'API <is> down & out', severity: 'critical', source: 'https://acme.status.example', component: 'API', group: 'Acme <Status>', class: 'component.status_changed' },
    })
    expect((pagerDutyPayload(view({ title: 'x'.repeat(5000) }), 'rk') as { payload: { summary: string } }).payload.summary.length).toBe(1024)
    expect(pagerDutyPayload(view({ resolves: true }), 'rk')).toEqual({ routing_key: 'rk', event_action: 'resolve', dedup_key: 'lantern:component:3' })
  })
})
