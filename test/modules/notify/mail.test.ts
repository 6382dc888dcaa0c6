import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
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
            headers: { 'List-Unsubscribe': '<https://lantern.test/u/abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
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
    const id = received.headers.get('x-lantern-delivery')
    expect(id).toMatch(/^\d+$/)
    expect(received.messageId).toBe(`<outbox.${id}@lantern.test>`)
    expect(received.headers.has('dkim-signature')).toBe(false)
    const history = await outboxWorker.deliveryHistory(['address:reader@example.com'])
    expect(history.get('address:reader@example.com')).toMatchObject({ lastResult: 'sent', lastAt: ctx.clock.now(), consecutiveDead: 0, disabledAt: null, queued: 0 })
  })
})
