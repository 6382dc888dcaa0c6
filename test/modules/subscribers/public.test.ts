/**
 * The public side of page subscribers, through the real app and a real SMTP server: subscribe,
 * the confirmation mail and its link, expiry at 7 days, the honeypot, the rate limit, identical
 * answers whatever the address, the manage link, one-click unsubscribe (RFC 8058) and its headers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CONFIRM_TTL_MS } from '../../../src/modules/subscribers/service.ts'
import { SUBSCRIBE_ATTEMPTS } from '../../../src/modules/subscribers/site.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { emit, linkIn, outboxCount, postSite, siteUrl, tokenOf } from './helpers.ts'

let smtp: SmtpHarness
let ctx: TestContext
let key: string
let owner: Owner
let pageId: number
let apiId: number
let webId: number
let client = 0
const nextClient = () => `203.0.113.${++client}`

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: smtp.env })
  ;({ key, user: owner } = await ctx.createOwner('pro'))
  pageId = (await ctx.createPage(key, { slug: 'acme', name: 'Acme <Cloud>' })).id
  const component = async (name: string) => (await json(await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name } }))).data.id as number
  apiId = await component('API')
  webId = await component('Website')
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
})

const deliver = () => ctx.app.services.outboxWorker.drain()
const subscribe = (email: string, extra: Array<[string, string]> = [], clientAddress = nextClient()) =>
  postSite(ctx, 'acme', '/subscribe', [['email', email], ['website', ''], ...extra], { client: clientAddress })

async function subscriberRow(email: string) {
  return ctx.database.db.selectFrom('subscribers').selectAll().where('email', '=', email).orderBy('id', 'desc').executeTakeFirst()
}

/** Subscribes and confirms through the mail; returns nothing but leaves the address confirmed. */
async function confirmed(email: string, extra: Array<[string, string]> = []) {
  expect((await subscribe(email, extra)).status).toBe(200)
  await deliver()
  const mail = await smtp.waitFor((m) => m.to === email && m.subject.startsWith('Confirm'))
  const token = tokenOf(linkIn(mail.text, '/subscribe/confirm'))
  expect((await postSite(ctx, 'acme', '/subscribe/confirm', [['token', token]])).status).toBe(200)
}

async function incidentEvent(componentIds: number[] = []) {
  const incident = await ctx.app.services.incidents.create(owner, { status_page_id: pageId, title: 'Errors <b>here</b>', message: 'Looking into it.', component_ids: componentIds })
  await emit(ctx, { kind: 'incident.opened', pageId, incidentId: incident.id, notifySubscribers: true, at: ctx.clock.now() })
  return incident
}

describe('subscribe and confirm', () => {
  test('the page links the form; the form posts to the page host and lists the components', async () => {
    const page = await (await ctx.request(siteUrl('acme', '/'))).text()
    expect(page).toContain('href="/subscribe"')
    const response = await ctx.request(siteUrl('acme', '/subscribe'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'")
    const form = await response.text()
    expect(form).toContain('action="/subscribe"')
    expect(form).toContain(`value="${apiId}"`)
    expect(form).toContain('Acme &#60;Cloud&#62;')
    expect(form).not.toContain('Acme <Cloud>')
  })

  test('subscribe → confirmation mail with a working link → confirmed', async () => {
    const response = await subscribe('Reader@Example.com')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Check your inbox')
    expect((await subscriberRow('reader@example.com'))!.confirmed_at).toBeNull()
    await deliver()
    const mail = await smtp.waitFor((m) => m.to === 'reader@example.com')
    expect(mail.subject).toBe('Confirm your subscription to Acme <Cloud>')
    expect(mail.text).toContain('7 days')
    const link = linkIn(mail.text, '/subscribe/confirm')
    expect(new URL(link).host).toBe('acme.status.test')
    // Opening the link shows a button (a mail scanner opening it confirms nothing).
    const page = await ctx.request(link)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('reader@example.com')
    expect((await subscriberRow('reader@example.com'))!.confirmed_at).toBeNull()
    const done = await postSite(ctx, 'acme', '/subscribe/confirm', [['token', tokenOf(link)]])
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('You are subscribed')
    expect((await subscriberRow('reader@example.com'))!.confirmed_at).toBe(ctx.clock.now())
    // Spent: the same link again is not valid.
    expect((await postSite(ctx, 'acme', '/subscribe/confirm', [['token', tokenOf(link)]])).status).toBe(404)
  })

  test('the confirmation link works for 7 days and not a moment longer', async () => {
    await subscribe('late@example.com')
    await subscribe('intime@example.com')
    await deliver()
    const late = tokenOf(linkIn((await smtp.waitFor((m) => m.to === 'late@example.com')).text, '/subscribe/confirm'))
    const inTime = tokenOf(linkIn((await smtp.waitFor((m) => m.to === 'intime@example.com')).text, '/subscribe/confirm'))
    ctx.clock.advance(CONFIRM_TTL_MS - 1)
    expect((await postSite(ctx, 'acme', '/subscribe/confirm', [['token', inTime]])).status).toBe(200)
    ctx.clock.advance(1)
    const expired = await postSite(ctx, 'acme', '/subscribe/confirm', [['token', late]])
    expect(expired.status).toBe(404)
    expect(await expired.text()).toContain('not valid')
    expect((await subscriberRow('late@example.com'))!.confirmed_at).toBeNull()
  })

  test('a filled honeypot gets the same answer and nothing is stored or sent', async () => {
    const before = await outboxCount(ctx)
    const response = await postSite(ctx, 'acme', '/subscribe', [['email', 'bot@example.com'], ['website', 'http://spam.example']], { client: nextClient() })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Check your inbox')
    expect(await subscriberRow('bot@example.com')).toBeUndefined()
    expect(await outboxCount(ctx)).toBe(before)
  })

  test('attempts are limited per client and page; other clients go on', async () => {
    const address = nextClient()
    const statuses: number[] = []
    for (let i = 0; i <= SUBSCRIBE_ATTEMPTS; i++) statuses.push((await subscribe(`flood${i}@example.com`, [], address)).status)
    expect(statuses.slice(0, SUBSCRIBE_ATTEMPTS).every((s) => s === 200)).toBe(true)
    const limited = await subscribe('flood-last@example.com', [], address)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await subscriberRow('flood-last@example.com')).toBeUndefined()
    expect((await subscribe('other-client@example.com')).status).toBe(200)
  })

  test('the answer is the same for a new, a pending and a subscribed address; mail only when it tells something', async () => {
    await confirmed('known@example.com')
    await subscribe('pending@example.com')
    await deliver()
    await smtp.waitFor((m) => m.to === 'pending@example.com')
    const mailsTo = (email: string) => smtp.mails.filter((m) => m.to === email)
    const knownBefore = mailsTo('known@example.com').length
    const answers = await Promise.all(['fresh@example.com', 'pending@example.com', 'known@example.com'].map((email) => subscribe(email)))
    const bodies = await Promise.all(answers.map((r) => r.text()))
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200])
    expect(new Set(bodies).size).toBe(1)
    await deliver()
    // The new address gets its confirmation, the subscribed one a reminder with its manage link;
    // the pending one got its link a moment ago and gets no second one within the hour.
    await smtp.waitFor((m) => m.to === 'fresh@example.com' && m.subject.startsWith('Confirm'))
    const reminder = await smtp.waitFor((m) => m.to === 'known@example.com' && m.subject.startsWith('Your subscription'))
    expect(reminder.text).toContain('already subscribed')
    linkIn(reminder.text, '/subscribe/manage')
    expect(mailsTo('pending@example.com').length).toBe(1)
    // A second try the same day mails nothing more (the outbox gets no row for it).
    const rows = await outboxCount(ctx)
    await subscribe('known@example.com')
    await subscribe('pending@example.com')
    expect(await outboxCount(ctx)).toBe(rows)
    expect(mailsTo('known@example.com').length).toBe(knownBefore + 1)
  })

  test('bad input is a 400 with the form again, nothing stored; a form from another site is refused', async () => {
    const bad = await subscribe('not-an-address')
    expect(bad.status).toBe(400)
    const body = await bad.text()
    expect(body).toContain('This is not a valid email address.')
    expect(body).toContain('aria-invalid="true"')
    const wrongComponent = await subscribe('component@example.com', [['components', '999999']])
    expect(wrongComponent.status).toBe(400)
    expect(await subscriberRow('component@example.com')).toBeUndefined()
    const cross = await postSite(ctx, 'acme', '/subscribe', [['email', 'csrf@example.com']], { client: nextClient(), origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect(await subscriberRow('csrf@example.com')).toBeUndefined()
  })
})

describe('event mails, manage link and one-click unsubscribe', () => {
  test('every subscriber mail has the manage link and the RFC 8058 headers; one POST unsubscribes', async () => {
    await confirmed('events@example.com')
    await incidentEvent()
    await deliver()
    const mail = await smtp.waitFor((m) => m.to === 'events@example.com' && m.subject.includes('New incident'))
    expect(mail.subject).toBe('[Acme <Cloud>] New incident: Errors <b>here</b>')
    expect(mail.text).toContain('Looking into it.')
    expect(mail.html).toContain('Errors &#60;b&#62;here&#60;/b&#62;')
    expect(mail.html).not.toContain('<b>')
    const manage = linkIn(mail.text, '/subscribe/manage')
    expect(mail.html).toContain(`/subscribe/manage?token&#61;${tokenOf(manage)}&#38;lang&#61;en">Manage your subscription`)
    const header = mail.headers.get('list-unsubscribe')!
    const unsubscribe = /^<(https:\/\/acme\.status\.test\/unsubscribe\?token=[^>]+)>$/.exec(header)?.[1]
    expect(unsubscribe).toBeDefined()
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')

    // The manage page: only with the token; components can be changed.
    const page = await ctx.request(manage)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('events@example.com')
    // A language we do not have, however long, is ignored as on the status page: the page's default.
    const odd = new URL(manage)
    odd.searchParams.set('lang', 'x'.repeat(300))
    const oddPage = await ctx.request(odd.href)
    expect(oddPage.status).toBe(200)
    expect(await oddPage.text()).toContain('<html lang="en">')
    expect((await ctx.request(siteUrl('acme', '/subscribe/manage?token=1.' + 'x'.repeat(43)))).status).toBe(404)
    const saved = await postSite(ctx, 'acme', '/subscribe/manage', [['token', tokenOf(manage)], ['action', 'save'], ['components', String(apiId)]])
    expect(saved.status).toBe(200)
    expect((await subscriberRow('events@example.com'))!.component_ids).toBe(JSON.stringify([apiId]))

    // One click, as a mail provider sends it: no Origin, the RFC 8058 body.
    const response = await ctx.request(unsubscribe!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })
    expect(response.status).toBe(200)
    expect((await subscriberRow('events@example.com'))!.unsubscribed_at).toBe(ctx.clock.now())
    // Nothing more goes to it.
    const before = smtp.mails.filter((m) => m.to === 'events@example.com').length
    await incidentEvent()
    await deliver()
    await confirmed('after@example.com')
    expect(smtp.mails.filter((m) => m.to === 'events@example.com').length).toBe(before)
    // The manage link now says so instead of offering changes.
    expect(await (await ctx.request(manage)).text()).toContain('Unsubscribed')
  })

  test('a subscriber of some components hears only events about them (and events about the whole page)', async () => {
    await confirmed('api-only@example.com', [['components', String(apiId)]])
    await confirmed('web-only@example.com', [['components', String(webId)]])
    const before = smtp.mails.length
    await incidentEvent([apiId])
    await deliver()
    await smtp.waitFor((m) => m.to === 'api-only@example.com' && m.subject.includes('New incident'))
    await incidentEvent([])
    await deliver()
    await smtp.waitFor((m) => m.to === 'web-only@example.com' && m.subject.includes('New incident'))
    const got = smtp.mails.slice(before).filter((m) => m.subject.includes('New incident'))
    expect(got.filter((m) => m.to === 'web-only@example.com').length).toBe(1)
    expect(got.filter((m) => m.to === 'api-only@example.com').length).toBe(2)
  })

  test('events without notifySubscribers write nothing for subscribers', async () => {
    const incident = await ctx.app.services.incidents.create(owner, { status_page_id: pageId, title: 'Quiet' })
    const before = await outboxCount(ctx)
    await emit(ctx, { kind: 'incident.updated', pageId, incidentId: incident.id, notifySubscribers: false, at: ctx.clock.now() })
    await deliver()
    expect(await outboxCount(ctx)).toBe(before)
    await emit(ctx, { kind: 'incident.updated', pageId, incidentId: incident.id, notifySubscribers: true, at: ctx.clock.now() })
    await deliver()
    expect(await outboxCount(ctx)).toBeGreaterThan(before)
  })
})
