/**
 * Email channels against the real SMTP harness: the verification link (24 h on the injected clock,
 * single use, stored hashed), resend limits, nothing but the verification mail to an unverified
 * address, then events; the "channel disabled" mail to the owner's account address.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startSmtp, type ReceivedMail, type SmtpHarness } from '../../helpers/smtp.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { sha256Hex } from '../../../src/lib/crypto.ts'
import { RETRY_DELAYS_MIN } from '../../../src/modules/notify/worker.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'

const HOUR = 3_600_000

describe('email channels', () => {
  let smtp: SmtpHarness
  let hub: ChatHub
  let ctx: TestContext
  let key: string
  let pageId: number
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
  const drain = () => ctx.app.services.outboxWorker.drain()
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to === address)
  const linkIn = (mail: ReceivedMail) => /https:\/\/lantern\.test\/user\/notifications\/verify\?token=[^\s"<]+/.exec(mail.text)![0]
  /** Follows a link the way a person does: GET the page, then send its confirm form. */
  const follow = async (link: string) => {
    const page = await ctx.request(link)
    expect(page.status).toBe(200)
    const token = new URL(link).searchParams.get('token')!
    return ctx.request('/user/notifications/verify', {
      method: 'POST',
      headers: { origin: 'https://lantern.test', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    })
  }

  beforeAll(async () => {
    smtp = await startSmtp()
    hub = await startChatHub()
    ctx = await createTestContext({ env: { ...smtp.env, MONITOR_PRIVATE_TARGETS: '1' } })
    ;({ key } = await ctx.createOwner())
    pageId = (await ctx.createPage(key, { name: 'Acme', slug: 'acme-mail' })).id
  })
  afterAll(async () => {
    await ctx.close()
    await smtp.close()
    await hub.close()
  })

  test('the link works for 24 hours (not a second longer), once, and only its hash is stored', async () => {
    const created = await api('/notification-channels', { method: 'POST', json: { type: 'email', name: 'Ops mail', address: 'Ops@Example.com' } })
    expect(created.status).toBe(201)
    const channel = (await json(created)).data
    expect(channel).toMatchObject({ verified: false, settings: { address: 'ops@example.com' } })
    expect(channel.verification_expires_at).toBe(new Date(ctx.clock.now() + 24 * HOUR).toISOString())
    await drain()
    const mail = await smtp.waitFor((m) => m.to === 'ops@example.com')
    expect(mail.subject).toBe('Confirm your address for Lantern notifications')
    expect(mail.secure).toBe(true)
    const link = linkIn(mail)
    const secret = new URL(link).searchParams.get('token')!.split('.')[1]!
    const row = await ctx.database.db.selectFrom('notification_channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow()
    expect(row.verify_token_hash).toBe(await sha256Hex(secret))
    expect(JSON.stringify(row)).not.toContain(secret)

    // Nothing but the verification mail while unverified: an incident, a test.
    await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Unheard' } })
    expect((await api(`/notification-channels/${channel.id}/test`, { method: 'POST' })).status).toBe(409)
    await drain()
    expect(mailsTo('ops@example.com')).toHaveLength(1)

    ctx.clock.advance(24 * HOUR - 1000)
    const confirmed = await follow(link)
    expect(confirmed.status).toBe(200)
    expect(await confirmed.text()).toContain('ops@example.com')
    expect((await json(await api(`/notification-channels/${channel.id}`))).data.verified).toBe(true)
    // Single use.
    expect((await follow(link)).status).toBe(400)

    // Verified: events arrive (one mail per event), and so does a test.
    await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Heard' } })
    await drain()
    const event = await smtp.waitFor((m) => m.to === 'ops@example.com' && m.subject.includes('Heard'))
    expect(event.subject).toBe('[Lantern] Incident opened: Heard')
    expect(event.text).toContain('https://acme-mail.status.test/incidents/')
    expect(mailsTo('ops@example.com')).toHaveLength(2)
  })

  test('a link one second past 24 hours is refused, and resends are limited', async () => {
    const created = await json(await api('/notification-channels', { method: 'POST', json: { type: 'email', name: 'Late', address: 'late@example.com' } }))
    const id = created.data.id
    await drain()
    const first = linkIn(await smtp.waitFor((m) => m.to === 'late@example.com'))
    ctx.clock.advance(24 * HOUR + 1000)
    const expired = await follow(first)
    expect(expired.status).toBe(400)
    expect(await expired.text()).toContain('expired')

    // Five resends in 24 hours, at most one a minute.
    const before = smtp.mails.length
    for (let i = 0; i < 5; i++) {
      expect((await api(`/notification-channels/${id}/resend-verification`, { method: 'POST' })).status).toBe(202)
      const tooSoon = await api(`/notification-channels/${id}/resend-verification`, { method: 'POST' })
      expect(tooSoon.status).toBe(429)
      ctx.clock.advance(60_000)
    }
    const sixth = await api(`/notification-channels/${id}/resend-verification`, { method: 'POST' })
    expect(sixth.status).toBe(429)
    expect((await json(sixth)).error).toContain('at most 5')
    await drain()
    await smtp.waitForCount(before + 5)
    const links = mailsTo('late@example.com').map(linkIn)
    expect(links).toHaveLength(6)
    // Only the newest link works.
    expect((await follow(links[4]!)).status).toBe(400)
    ctx.clock.advance(24 * HOUR)
    expect((await api(`/notification-channels/${id}/resend-verification`, { method: 'POST' })).status).toBe(202)
    await drain()
    const newest = linkIn((await smtp.waitFor((m) => m.to === 'late@example.com' && !links.includes(linkIn(m)))))
    expect((await follow(newest)).status).toBe(200)
  })

  test('a channel the outbox disables (20 dead deliveries in a row) shows so, and its owner gets a mail saying which and why', async () => {
    hub.answer('/broken', [500])
    const owner = await ctx.createOwner(undefined, 'owner-disabled@example.com')
    const channel = (await json(await ctx.request('/user/api/v1/notification-channels', { method: 'POST', key: owner.key, json: { type: 'slack', name: 'Team chat', url: `${hub.url}/broken` } }))).data
    for (let i = 0; i < 20; i++) expect((await ctx.request(`/user/api/v1/notification-channels/${channel.id}/test`, { method: 'POST', key: owner.key })).status).toBe(202)
    await drain()
    for (const minutes of RETRY_DELAYS_MIN) {
      ctx.clock.advance(minutes * 60_000)
      await drain()
    }
    expect(hub.received('/broken')).toHaveLength(20 * 6)
    const shown = (await json(await ctx.request(`/user/api/v1/notification-channels/${channel.id}`, { key: owner.key }))).data
    expect(shown).toMatchObject({ disabled: true, verified: false, disabled_reason: 'Deliveries failed too many times in a row.', last_delivery: { result: 'dead', error: 'HTTP 500' } })
    const mail = await smtp.waitFor((m) => m.to === 'owner-disabled@example.com')
    expect(mail.subject).toBe('Notification channel "Team chat" was disabled')
    expect(mail.text).toContain('Deliveries failed too many times in a row.')

    // A test after fixing the receiver turns it back on and verifies it.
    hub.answer('/broken', [200])
    expect((await ctx.request(`/user/api/v1/notification-channels/${channel.id}/test`, { method: 'POST', key: owner.key })).status).toBe(202)
    await drain()
    const back = (await json(await ctx.request(`/user/api/v1/notification-channels/${channel.id}`, { key: owner.key }))).data
    expect(back).toMatchObject({ disabled: false, verified: true, last_delivery: { result: 'sent' } })
  })
})
