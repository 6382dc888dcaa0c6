/**
 * Every mail Lantern sends to owners and subscribers, checked against the bulk senders' published
 * requirements (Gmail and Yahoo, 2024; RFC 8058, RFC 5322, RFC 6376) on what the real SMTP server
 * received: a DKIM signature that verifies (mailauth, against the key the tests' resolver serves)
 * for the From domain, a MIME message with a text and an HTML part, a Date, a Message-ID that is
 * unique (also across a fresh database) and one-click unsubscribe, signed, on subscriber mail.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { dkimVerify } from 'mailauth/lib/dkim/verify.js'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type ReceivedMail, type SmtpHarness } from '../../helpers/smtp.ts'
import { linkIn, postSite, tokenOf } from '../subscribers/helpers.ts'

const DOMAIN = 'lantern.test'
const SELECTOR = 'mail2026'
const OWNER = 'ops@example.com'
const SUBSCRIBERS = ['reader@example.com', 'self@example.com']

let smtp: SmtpHarness
let ctx: TestContext
let keyDir: string
let dnsRecord: string

/** The DNS the verifier asks: only the selector's TXT record exists. */
async function resolver(name: string, type: string): Promise<string[][]> {
  if (type === 'TXT' && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[dnsRecord]]
  throw Object.assign(new Error(`${name} not found`), { code: 'ENOTFOUND' })
}

async function drain(context = ctx) {
  await context.app.services.outboxWorker.drain()
  const { sent } = await context.database.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('sent')).where('kind', '=', 'mail').where('status', '=', 'sent').executeTakeFirstOrThrow()
  return Number(sent)
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase()

beforeAll(async () => {
  smtp = await startSmtp({ from: `Acme Status <status@${DOMAIN}>` })
  keyDir = mkdtempSync(join(tmpdir(), 'lantern-dkim-'))
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  writeFileSync(join(keyDir, 'dkim.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }))
  dnsRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`
  ctx = await createTestContext({ env: { ...smtp.env, DKIM_DOMAIN: DOMAIN, DKIM_SELECTOR: SELECTOR, DKIM_PRIVATE_KEY_FILE: join(keyDir, 'dkim.pem') } })
  const { key } = await ctx.createOwner('pro')
  const api = async (path: string, body: unknown, method = 'POST') => {
    const response = await ctx.request(`/user/api/v1${path}`, { method, key, json: body })
    expect(response.status).toBeLessThan(300)
    return (await json(response)).data
  }
  const page = await ctx.createPage(key, { name: 'Acme', slug: 'acme-bulk' })
  const component = await api(`/status-pages/${page.id}/components`, { name: 'API' })

  // Owner mail: the channel's verification link, then an incident on the verified channel.
  await api('/notification-channels', { type: 'email', name: 'Ops', address: OWNER })
  await drain()
  const verification = await smtp.waitFor((mail) => mail.to === OWNER)
  const confirmed = await ctx.request('/user/notifications/verify', {
    method: 'POST',
    headers: { origin: 'https://lantern.test', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: tokenOf(linkIn(verification.text, '/user/notifications/verify')) }).toString(),
  })
  expect(confirmed.status).toBeLessThan(400)

  // Subscriber mail: one added by the owner, one who signs up (confirmation, then the reminder of a second sign-up).
  await api(`/status-pages/${page.id}/subscribers`, { type: 'email', email: SUBSCRIBERS[0], consent: true })
  expect((await postSite(ctx, 'acme-bulk', '/subscribe', [['email', SUBSCRIBERS[1]!], ['website', '']])).status).toBe(200)
  await drain()
  const confirmation = await smtp.waitFor((mail) => mail.to === SUBSCRIBERS[1])
  expect((await postSite(ctx, 'acme-bulk', '/subscribe/confirm', [['token', tokenOf(linkIn(confirmation.text, '/subscribe/confirm'))]])).status).toBe(200)
  expect((await postSite(ctx, 'acme-bulk', '/subscribe', [['email', SUBSCRIBERS[1]!], ['website', '']], { client: '198.51.100.9' })).status).toBe(200)

  const incident = await api('/incidents', { status_page_id: page.id, title: 'API errors', message: 'Looking into it.', component_ids: [component.id], notify_subscribers: true })
  await api(`/incidents/${incident.id}`, { state: 'resolved', message: 'Fixed.', notify_subscribers: true }, 'PATCH')
  await smtp.waitForCount(await drain())
})

afterAll(async () => {
  await ctx.close()
  await smtp.close()
  rmSync(keyDir, { recursive: true, force: true })
})

describe('what the SMTP server received', () => {
  const owner = () => smtp.mails.filter((mail) => mail.to === OWNER)
  const subscriber = () => smtp.mails.filter((mail) => SUBSCRIBERS.includes(mail.to))

  test('the mails under test arrived: owner verification and event, subscriber confirmation, reminder and events', () => {
    expect(owner().map((mail) => mail.subject)).toEqual(['Confirm your address for Lantern notifications', '[Lantern] Incident opened: API errors', '[Lantern] Incident resolved: API errors'])
    expect(subscriber().map((mail) => [mail.to, mail.subject]).sort()).toEqual([
      ['reader@example.com', '[Acme] New incident: API errors'],
      ['reader@example.com', '[Acme] Resolved: API errors'],
      ['self@example.com', 'Confirm your subscription to Acme'],
      ['self@example.com', 'Your subscription to Acme'],
      ['self@example.com', '[Acme] New incident: API errors'],
      ['self@example.com', '[Acme] Resolved: API errors'],
    ].sort())
  })

  test('every mail: a DKIM signature that verifies for the From domain (aligned), with the fields that matter signed', async () => {
    for (const mail of smtp.mails) {
      const from = mail.parsed.from?.value[0]?.address ?? ''
      const result = await dkimVerify(mail.raw, { resolver })
      expect(result.results).toHaveLength(1)
      const [signature] = result.results
      expect({ subject: mail.subject, result: signature!.status.result, d: signature!.signingDomain }).toEqual({ subject: mail.subject, result: 'pass', d: domainOf(from) })
      expect(domainOf(from)).toBe(DOMAIN)
      const signed = signature!.signingHeaders!.keys.toLowerCase().split(':').map((name) => name.trim())
      for (const name of ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type']) expect({ subject: mail.subject, name, signed: signed.includes(name) }).toEqual({ subject: mail.subject, name, signed: true })
    }
  })

  test('every mail: valid MIME with a text and an HTML part, a Date and a unique Message-ID at the From domain', () => {
    const ids = new Set<string>()
    for (const mail of smtp.mails) {
      expect(mail.headers.get('mime-version')).toBe('1.0')
      expect(mail.headers.get('content-type')).toStartWith('multipart/alternative;')
      expect(mail.text.trim().length).toBeGreaterThan(0)
      expect(mail.html).toStartWith('<!doctype html><html lang="en">')
      const date = mail.headers.get('date')!
      expect(date).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} \w{3} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/)
      expect(Number.isNaN(Date.parse(date))).toBe(false)
      expect(mail.messageId).toMatch(new RegExp(`^<[A-Za-z0-9_-]{22}\\.lantern\\.test@${DOMAIN.replace('.', '\\.')}>$`))
      ids.add(mail.messageId!)
    }
    expect(ids.size).toBe(smtp.mails.length)
  })

  test('every subscriber mail but the confirmation: one-click unsubscribe (RFC 8058), both headers signed, and the URL works', async () => {
    for (const mail of subscriber()) {
      if (mail.subject.startsWith('Confirm')) {
        expect(mail.headers.has('list-unsubscribe')).toBe(false)
        continue
      }
      const unsubscribe = /^<(https:\/\/acme-bulk\.status\.test\/unsubscribe\?token=[^>]+)>$/.exec(mail.headers.get('list-unsubscribe') ?? '')?.[1]
      expect({ subject: mail.subject, unsubscribe: unsubscribe !== undefined }).toEqual({ subject: mail.subject, unsubscribe: true })
      expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
      const [signature] = (await dkimVerify(mail.raw, { resolver })).results
      const signed = signature!.signingHeaders!.keys.toLowerCase().split(':').map((name) => name.trim())
      expect({ subject: mail.subject, signed: ['list-unsubscribe', 'list-unsubscribe-post'].filter((name) => signed.includes(name)) }).toEqual({
        subject: mail.subject,
        signed: ['list-unsubscribe', 'list-unsubscribe-post'],
      })
    }
    // The one click, as a mailbox provider sends it.
    const [mail] = subscriber().filter((m) => m.to === SUBSCRIBERS[0])
    const url = /^<([^>]+)>$/.exec(mail!.headers.get('list-unsubscribe')!)![1]!
    const response = await ctx.request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })
    expect(response.status).toBe(200)
  })

  test('a fresh database does not repeat a Message-ID: its first mail gets a new one; a text-only mail gets an HTML part', async () => {
    const fresh = await createTestContext({ env: { ...smtp.env, DKIM_DOMAIN: DOMAIN, DKIM_SELECTOR: SELECTOR, DKIM_PRIVATE_KEY_FILE: join(keyDir, 'dkim.pem') } })
    try {
      const first = async (context: TestContext) =>
        (await context.database.db.selectFrom('outbox').select(['id', 'payload_json']).where('kind', '=', 'mail').orderBy('id').limit(1).executeTakeFirstOrThrow())
      await fresh.database.db.transaction().execute((trx) =>
        fresh.app.services.outbox.enqueue(trx, [{ target: 'address:again@example.com', mail: { to: 'again@example.com', subject: 'Hello', text: 'Hello <you>.\nRead https://lantern.test/docs.\n\nBye.' } }]),
      )
      await drain(fresh)
      const received = await smtp.waitFor((mail) => mail.to === 'again@example.com')
      const [mine, theirs] = [await first(fresh), await first(ctx)]
      // Both are outbox row 1 of their database, yet their Message-IDs differ.
      expect(mine.id).toBe(theirs.id)
      expect(received.messageId).toBe(JSON.parse(mine.payload_json).mail.messageId)
      expect(received.messageId).not.toBe(JSON.parse(theirs.payload_json).mail.messageId)
      // Written as text only: the HTML part says the same, escaped, with the link clickable.
      expect(received.headers.get('content-type')).toStartWith('multipart/alternative;')
      expect(received.html).toStartWith('<!doctype html><html lang="en">')
      expect(received.html).toContain('<p>Hello &lt;you&gt;.<br>Read <a href="https://lantern.test/docs">https://lantern.test/docs</a>.</p><p>Bye.</p>')
    } finally {
      await fresh.close()
    }
  })
})
