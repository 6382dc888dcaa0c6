/**
 * Markdown in subscriber mails, through a real SMTP server: the HTML part renders the safe subset
 * (raw HTML stays text), the text part carries the plain-text form (no emphasis marks, links with
 * their addresses), for incident updates and maintenance descriptions.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { emit, linkIn, postSite, tokenOf } from './helpers.ts'
import type { Owner } from '../../../src/modules/accounts/service.ts'

let smtp: SmtpHarness
let ctx: TestContext
let owner: Owner
let key: string
let pageId: number

const MESSAGE = 'We **found** the cause: see [the post](https://example.com/post).\n\n- payments *retried*\n- `queue` drained\n\n<script>alert(1)</script>'

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: smtp.env })
  ;({ key, user: owner } = await ctx.createOwner('pro'))
  pageId = (await ctx.createPage(key, { slug: 'acme', name: 'Acme' })).id
  expect((await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name: 'API' } })).status).toBe(201)
  expect((await postSite(ctx, 'acme', '/subscribe', [['email', 'md@example.com'], ['website', '']], { client: '203.0.113.9' })).status).toBe(200)
  await ctx.app.services.outboxWorker.drain()
  const confirm = await smtp.waitFor((m) => m.to === 'md@example.com' && m.subject.startsWith('Confirm'))
  expect((await postSite(ctx, 'acme', '/subscribe/confirm', [['token', tokenOf(linkIn(confirm.text, '/subscribe/confirm'))]])).status).toBe(200)
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
})

describe('Markdown in subscriber mails', () => {
  test('an incident update: rendered in the HTML part, plain text in the text part', async () => {
    const incident = await ctx.app.services.incidents.create(owner, { status_page_id: pageId, title: 'Payments failing', message: MESSAGE })
    await emit(ctx, { kind: 'incident.opened', pageId, incidentId: incident.id, notifySubscribers: true, at: ctx.clock.now() })
    await ctx.app.services.outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.to === 'md@example.com' && m.subject.includes('Payments failing'))
    expect(mail.html).toContain('<strong>found</strong>')
    expect(mail.html).toContain('<a href="https://example.com/post" rel="nofollow noopener">the post</a>')
    expect(mail.html).toContain('<li><code>queue</code> drained</li>')
    expect(mail.html).not.toContain('<script')
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(mail.text).toContain('Investigating:\n\nWe found the cause: see the post (https://example.com/post).\n\n- payments retried\n- queue drained\n\n<script>alert(1)</script>\n')
    expect(mail.text).not.toContain('**')
  })

  test('a maintenance description: the same in both parts', async () => {
    const start = ctx.clock.now() + 86_400_000
    const created = await ctx.request('/user/api/v1/maintenances', {
      method: 'POST',
      key,
      json: { status_page_id: pageId, title: 'DB upgrade', message: 'Writes *pause* for [a minute](https://example.com/m).', start_at: new Date(start).toISOString(), end_at: new Date(start + 3_600_000).toISOString(), notify_subscribers: true },
    })
    expect(created.status).toBe(201)
    const id = (await json(created)).data.id
    await ctx.app.services.outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.to === 'md@example.com' && m.subject.includes('DB upgrade'))
    expect(mail.html).toContain('Writes <em>pause</em> for <a href="https://example.com/m" rel="nofollow noopener">a minute</a>.')
    expect(mail.text).toContain('Writes pause for a minute (https://example.com/m).')
  })
})
