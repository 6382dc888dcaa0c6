/** The adapters' pure parts: signatures a receiver checks with the official Standard Webhooks library, escaping, header encoding. */
import { describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { headerText, ntfyRequest } from '../../../src/modules/channels/adapters/ntfy.ts'
import { pagerDutyPayload } from '../../../src/modules/channels/adapters/pagerduty.ts'
import { slackPayload } from '../../../src/modules/channels/adapters/slack.ts'
import { telegramText } from '../../../src/modules/channels/adapters/telegram.ts'
import { webhookRequest } from '../../../src/modules/channels/adapters/webhook.ts'
import type { EventView } from '../../../src/modules/channels/event-view.ts'
import {
  generateSigningSecret, legacySignatureHeader, signingKeyBytes, signRequest, standardSignature, verifyLegacySignature,
} from '../../../src/modules/notify/webhook-signing.ts'
import { cutToBytes } from '../../../src/lib/text.ts'

const AT = Date.UTC(2026, 10, 28, 10, 0, 0)
const view = (over: Partial<EventView> = {}): EventView => ({
  kind: 'component.status_changed',
  at: AT,
  id: 'component:3:1:down',
  title: 'API <is> down & out',
  lines: ['API: operational → down'],
  severity: 'critical',
  page: { id: 7, slug: 'acme', name: 'Acme <Status>', url: 'https://acme.status.example', overall: 'major_outage' },
  link: 'https://acme.status.example',
  alertKey: 'lantern:component:3',
  resolves: false,
  component: { id: 3, name: 'API', from: 'up', to: 'down' },
  details: {},
  ...over,
})

describe('Standard Webhooks signatures', () => {
  test('match the specification\'s published test vector', async () => {
    expect(await standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    )
  })

  test('a signed request passes the official verifier; a changed body, id, time or secret does not', async () => {
    const secret = generateSigningSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const queued = webhookRequest(view(), { url: 'https://hooks.example/x' }, 'https://lantern.example/docs/notifications')
    expect(queued.signed).toBe(true)
    expect(queued.headers['webhook-signature']).toBeUndefined()
    const now = Date.now()
    const signed = await signRequest(queued, { secret }, 'msg_abc', now)
    expect(signed.headers['webhook-id']).toBe('msg_abc')
    expect(signed.headers['webhook-timestamp']).toBe(String(Math.floor(now / 1000)))
    expect(signed.headers['x-lantern-signature']).toBeUndefined()
    const verifier = new Webhook(secret)
    expect(verifier.verify(signed.body, signed.headers)).toEqual(JSON.parse(signed.body))
    expect(() => verifier.verify(signed.body.replace('down', 'fine'), signed.headers)).toThrow()
    expect(() => verifier.verify(signed.body, { ...signed.headers, 'webhook-id': 'msg_other' })).toThrow()
    expect(() => verifier.verify(signed.body, { ...signed.headers, 'webhook-timestamp': String(Math.floor(now / 1000) + 1) })).toThrow()
    expect(() => new Webhook(generateSigningSecret()).verify(signed.body, signed.headers)).toThrow()
    // The official verifier refuses a timestamp older than five minutes: attempts are signed when sent.
    const old = await signRequest(queued, { secret }, 'msg_abc', now - 10 * 60_000)
    expect(() => verifier.verify(old.body, old.headers)).toThrow()
  })

  test('secrets: whsec_ and 16 to 64 bytes of base64, nothing else', () => {
    expect(signingKeyBytes('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')?.length).toBe(24)
    for (const bad of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_short===', 'whsec_not base64 at all!', 'whsec_c2hvcnQ=', `whsec_${btoa('x'.repeat(65))}`]) {
      expect(signingKeyBytes(bad)).toBeUndefined()
    }
  })

  test('the deprecated X-Lantern-Signature, for channels with a secret from before, checks with node:crypto as the guide shows', async () => {
    const legacy = 'whsec-0123456789abcdef'
    const request = await signRequest(webhookRequest(view(), { url: 'https://hooks.example/x' }, 'https://lantern.example/docs'), { secret: generateSigningSecret(), legacySecret: legacy }, 'msg_1', AT)
    const header = request.headers['x-lantern-signature']!
    const [, t, v1] = header.match(/^t=(\d+),v1=([0-9a-f]{64})$/)!
    const expected = createHmac('sha256', legacy).update(`${t}.${request.body}`).digest('hex')
    expect(timingSafeEqual(Buffer.from(expected), Buffer.from(v1!))).toBe(true)
    expect(await verifyLegacySignature(legacy, request.body, header)).toBe(true)
    expect(await verifyLegacySignature(legacy, '{"a":2}', header)).toBe(false)
    expect(await verifyLegacySignature('whsec-other-secret-00', request.body, header)).toBe(false)
    expect(await verifyLegacySignature(legacy, request.body, header.replace(`t=${AT / 1000}`, `t=${AT / 1000 + 1}`))).toBe(false)
    for (const bad of [null, '', 'v1=abc', `t=1,v1=${'z'.repeat(64)}`]) expect(await verifyLegacySignature(legacy, request.body, bad)).toBe(false)
    expect(await legacySignatureHeader(legacy, '{}', AT)).toStartWith(`t=${AT / 1000},v1=`)
  })
})

describe('cutting text by bytes', () => {
  test('never more bytes than asked, never half a character', () => {
    expect(cutToBytes('short', 10)).toBe('short')
    expect(cutToBytes('ééééé', 10)).toBe('ééééé')
    expect(cutToBytes('éééééé', 10)).toBe('ééé…')
    // A family emoji is one character of 25 bytes: it is kept whole or left out.
    expect(cutToBytes('ab👨‍👩‍👧‍👦cd', 20)).toBe('ab…')
    for (let max = 4; max < 60; max++) {
      const cut = cutToBytes('Zürich 🐎 Ørsted 日本語 '.repeat(4), max)
      expect(new TextEncoder().encode(cut).length).toBeLessThanOrEqual(max)
      expect(cut.isWellFormed()).toBe(true)
    }
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
