import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'

describe('mail through the outbox to a real SMTP server (STARTTLS, login, private CA)', () => {
  let smtp: SmtpHarness
  let ctx: TestContext

  beforeAll(async () => {
    smtp = await startSmtp()
    ctx = await createTestContext({ env: smtp.env })
  })
  afterAll(async () => {
    await ctx.close()
    await smtp.close()
  })

  test('a queued mail arrives encrypted, with its subject, text part, HTML part and extra headers', async () => {
    const { outbox, outboxWorker, mail } = ctx.app.services
    expect(mail).toEqual({ enabled: true, from: 'Lantern <status@lantern.test>' })
    await ctx.database.db.transaction().execute((trx) =>
      outbox.enqueue(trx, [
        {
          target: 'address:reader@example.com',
          mail: {
            to: 'reader@example.com',
            subject: 'Incident: API is down',
            text: 'We are looking into it.\nhttps://lantern.test/manage',
            html: '<p>We are looking into it.</p>',
            headers: {
              'List-Unsubscribe': '<https://lantern.test/u/abc>',
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              // A value cannot smuggle in a header of its own, nor can a name.
              'X-Page': 'Status\r\nBcc: victim@example.com',
              'X-Bad\r\nBcc': 'victim@example.com',
            },
          },
        },
      ]),
    )
    expect(await outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
    const received = await smtp.waitFor((m) => m.to === 'reader@example.com')
    expect(received.secure).toBe(true)
    expect(received.subject).toBe('Incident: API is down')
    expect(received.text.trim()).toBe('We are looking into it.\nhttps://lantern.test/manage')
    expect(received.html).toContain('<p>We are looking into it.</p>')
    expect(received.headers.get('list-unsubscribe')).toBe('<https://lantern.test/u/abc>')
    expect(received.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(received.headers.get('from')).toBe('Lantern <status@lantern.test>')
    expect(received.headers.get('x-page')).toBe('Status Bcc: victim@example.com')
    expect(received.headers.has('bcc')).toBe(false)
    expect(received.envelopeTo).toEqual(['reader@example.com'])
    const id = received.headers.get('x-lantern-delivery')
    expect(id).toMatch(/^\d+$/)
    // 128 random bits, the instance (BASE_URL's host), the From domain: as queued with the row.
    expect(received.messageId).toMatch(/^<[A-Za-z0-9_-]{22}\.lantern\.test@lantern\.test>$/)
    const row = await ctx.database.db.selectFrom('outbox').select('payload_json').where('id', '=', Number(id)).executeTakeFirstOrThrow()
    expect(JSON.parse(row.payload_json).mail.messageId).toBe(received.messageId!)
    expect(received.headers.has('dkim-signature')).toBe(false)
    const history = await outboxWorker.deliveryHistory(['address:reader@example.com'])
    expect(history.get('address:reader@example.com')).toMatchObject({ lastResult: 'sent', lastAt: ctx.clock.now(), consecutiveDead: 0, disabledAt: null, queued: 0 })
  })
})

const MINUTE = 60_000

async function sendOne(ctx: TestContext, to: string, subject = 'Hello'): Promise<void> {
  await ctx.database.db.transaction().execute((trx) =>
    ctx.app.services.outbox.enqueue(trx, [{ target: `address:${to}`, mail: { to, subject, text: `Text for ${to}` } }]),
  )
}

describe('implicit TLS, DKIM and a relay that says "try later"', () => {
  let smtp: SmtpHarness
  let ctx: TestContext
  let keyDir: string

  beforeAll(async () => {
    smtp = await startSmtp({ security: 'tls' })
    keyDir = mkdtempSync(join(tmpdir(), 'lantern-dkim-'))
    const made = Bun.spawnSync(['openssl', 'genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', join(keyDir, 'dkim.pem')], { stderr: 'pipe' })
    if (made.exitCode !== 0) throw new Error(made.stderr.toString())
    ctx = await createTestContext({ env: { ...smtp.env, DKIM_DOMAIN: 'lantern.test', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY_FILE: join(keyDir, 'dkim.pem') } })
  })
  afterAll(async () => {
    await ctx.close()
    await smtp.close()
    rmSync(keyDir, { recursive: true, force: true })
  })

  test('mail over implicit TLS carries a DKIM-Signature for the configured domain and selector', async () => {
    await sendOne(ctx, 'signed@example.com', 'Signed')
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
    const received = await smtp.waitFor((m) => m.to === 'signed@example.com')
    expect(received.secure).toBe(true)
    const signature = received.headers.get('dkim-signature')!
    expect(signature).toContain('d=lantern.test')
    expect(signature).toContain('s=mail2026')
    expect(signature).toMatch(/b=[A-Za-z0-9+/=\s]{40,}/)
    expect(received.text.trim()).toBe('Text for signed@example.com')
  })

  test('a temporary refusal is retried after a minute with the same Message-ID', async () => {
    smtp.refuseNext(1)
    await sendOne(ctx, 'later@example.com')
    const queued = await ctx.database.db.selectFrom('outbox').select('payload_json').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
    const messageId = JSON.parse(queued.payload_json).mail.messageId
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 0, failed: 1, dead: 0 })
    const history = (await ctx.app.services.outboxWorker.deliveryHistory(['address:later@example.com'])).get('address:later@example.com')!
    expect(history.lastError).toContain('451')
    ctx.clock.advance(MINUTE)
    expect(await ctx.app.services.outboxWorker.drain()).toEqual({ sent: 1, failed: 0, dead: 0 })
    const received = await smtp.waitFor((m) => m.to === 'later@example.com')
    expect(received.messageId).toBe(messageId)
  })
})

describe('mail off (no SMTP_HOST)', () => {
  test('the instance runs, says mail is off, and a mail delivery writes nothing while webhooks still queue', async () => {
    const ctx = await createTestContext()
    try {
      expect(ctx.app.services.mail).toEqual({ enabled: false, from: undefined })
      expect(ctx.app.services.outbox.mailEnabled).toBe(false)
      expect((await ctx.request('/healthz')).status).toBe(200)
      await ctx.database.db.transaction().execute((trx) =>
        ctx.app.services.outbox.enqueue(trx, [
          { target: 'address:nobody@example.com', mail: { to: 'nobody@example.com', subject: 'x', text: 'x' } },
          { target: 'channel:1', request: { url: 'https://hooks.example.com/x', headers: {}, body: '{}' } },
        ]),
      )
      const rows = await ctx.database.db.selectFrom('outbox').select(['target', 'kind']).execute()
      expect(rows).toEqual([{ target: 'channel:1', kind: 'http' }])
    } finally {
      await ctx.close()
    }
  })
})

describe('the transport never falls back to something weaker', () => {
  test('SMTP_SECURITY=starttls refuses a relay that offers no STARTTLS, and an unknown CA is refused', async () => {
    const plain = await startSmtp({ security: 'none' })
    const tls = await startSmtp()
    const noUpgrade = await createTestContext({ env: { ...plain.env, SMTP_SECURITY: 'starttls' } })
    const { SMTP_TLS_CA_FILE: _ca, ...withoutCa } = tls.env
    const unknownCa = await createTestContext({ env: withoutCa })
    try {
      await sendOne(noUpgrade, 'plain@example.com')
      await sendOne(unknownCa, 'unknown-ca@example.com')
      expect(await noUpgrade.app.services.outboxWorker.drain()).toEqual({ sent: 0, failed: 1, dead: 0 })
      expect(await unknownCa.app.services.outboxWorker.drain()).toEqual({ sent: 0, failed: 1, dead: 0 })
      expect(plain.mails).toHaveLength(0)
      expect(tls.mails).toHaveLength(0)
      const noUpgradeError = (await noUpgrade.app.services.outboxWorker.deliveryHistory(['address:plain@example.com'])).get('address:plain@example.com')!.lastError
      expect(noUpgradeError).toMatch(/STARTTLS/i)
      const unknownCaError = (await unknownCa.app.services.outboxWorker.deliveryHistory(['address:unknown-ca@example.com'])).get('address:unknown-ca@example.com')!.lastError
      expect(unknownCaError).toMatch(/certificate/i)
    } finally {
      await noUpgrade.close()
      await unknownCa.close()
      await plain.close()
      await tls.close()
    }
  })
})
