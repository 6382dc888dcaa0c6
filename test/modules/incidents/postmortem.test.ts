/**
 * The postmortem of a resolved incident through the API: refused while the incident is open, a
 * draft nobody else sees, published onto the incident page, the history and the feeds, mailed to
 * subscribers only when asked, edited after publishing; bad input is a clear 4xx with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { linkIn, postSite, tokenOf } from '../subscribers/helpers.ts'

let smtp: SmtpHarness
let ctx: TestContext
let key: string
let otherKey: string
let pageId: number
let incidentId: number
const HOST = 'https://acme.status.test'
const POSTMORTEM = '## Not a heading\n\nA **bad deploy** of the `payments` service. [Timeline](https://example.com/t)\n\n- rolled back\n- <script>alert(1)</script>'

const api = (path: string, init: RequestInit & { json?: unknown; key?: string } = {}) => ctx.request(`/user/api/v1${path}`, { key, ...init })
const site = async (path: string) => (await ctx.request(`${HOST}${path}`)).text()

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: smtp.env })
  key = (await ctx.createOwner('pro')).key
  otherKey = (await ctx.createOwner('pro', 'other@example.com')).key
  pageId = (await ctx.createPage(key, { slug: 'acme', name: 'Acme' })).id
  const created = await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'Payments failing', message: 'Looking.' } })
  incidentId = (await json(created)).data.id
  expect((await postSite(ctx, 'acme', '/subscribe', [['email', 'pm@example.com'], ['website', '']], { client: '203.0.113.7' })).status).toBe(200)
  await ctx.app.services.outboxWorker.drain()
  const confirm = await smtp.waitFor((m) => m.to === 'pm@example.com' && m.subject.startsWith('Confirm'))
  expect((await postSite(ctx, 'acme', '/subscribe/confirm', [['token', tokenOf(linkIn(confirm.text, '/subscribe/confirm'))]])).status).toBe(200)
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
})

describe('postmortem', () => {
  test('refused while the incident is open', async () => {
    const r = await api(`/incidents/${incidentId}/postmortem`, { method: 'PUT', json: { body: 'Too early' } })
    expect(r.status).toBe(409)
    expect((await json(r)).error).toContain('resolved')
    expect((await api(`/incidents/${incidentId}/postmortem/publish`, { method: 'POST', json: {} })).status).toBe(409)
  })

  test('a draft is the owner\'s alone', async () => {
    expect((await api(`/incidents/${incidentId}/updates`, { method: 'POST', json: { state: 'resolved', message: 'Fixed.' } })).status).toBe(201)
    expect((await api(`/incidents/${incidentId}/postmortem/publish`, { method: 'POST', json: {} })).status).toBe(409)
    const saved = await api(`/incidents/${incidentId}/postmortem`, { method: 'PUT', json: { body: POSTMORTEM } })
    expect(saved.status).toBe(200)
    const data = (await json(saved)).data
    expect(data.postmortem).toEqual({ body: POSTMORTEM, updated_at: expect.any(String), published_at: null })
    // Someone else's incident is not found; bad bodies are refused with nothing changed.
    expect((await api(`/incidents/${incidentId}/postmortem`, { method: 'PUT', key: otherKey, json: { body: 'mine' } })).status).toBe(404)
    expect((await api(`/incidents/${incidentId}/postmortem/publish`, { method: 'POST', key: otherKey, json: {} })).status).toBe(404)
    for (const body of [{}, { body: 5 }, { body: 'x'.repeat(50_001) }, { body: 'bell \u0007' }]) {
      const r = await api(`/incidents/${incidentId}/postmortem`, { method: 'PUT', json: body })
      expect([400, 422]).toContain(r.status)
    }
    expect((await json(await api(`/incidents/${incidentId}`))).data.postmortem.body).toBe(POSTMORTEM)
    // Not on the public side.
    for (const path of [`/incidents/${incidentId}`, '/history', '/history.rss', '/history.atom']) expect(await site(path)).not.toContain('bad deploy')
    expect(await site('/api/v2/incidents.json')).not.toContain('bad deploy')
  })

  test('published without notifying: on the incident page, linked from the history, in the feeds; no mail', async () => {
    const r = await api(`/incidents/${incidentId}/postmortem/publish`, { method: 'POST', json: { notify_subscribers: false } })
    expect(r.status).toBe(200)
    expect((await json(r)).data.postmortem.published_at).toBe(new Date(ctx.clock.now()).toISOString())
    const page = await site(`/incidents/${incidentId}`)
    expect(page).toContain('<section class="postmortem" id="postmortem"')
    expect(page).toContain('A <strong>bad deploy</strong> of the <code>payments</code> service.')
    expect(page).toContain('<a href="https://example.com/t" rel="nofollow noopener">Timeline</a>')
    expect(page).not.toContain('<script>alert(1)')
    expect(page).not.toContain('<h2>Not a heading')
    expect(await site('/history')).toContain(`<a href="/incidents/${incidentId}#postmortem">Postmortem</a>`)
    const rss = await site('/history.rss')
    expect(rss).toContain(`<title>[Postmortem] Payments failing</title>`)
    expect(rss).toContain(`<guid isPermaLink="false">${HOST}/incidents/${incidentId}#postmortem</guid>`)
    expect(await site('/history.atom')).toContain('&#60;strong&#62;bad deploy&#60;/strong&#62;')
    expect((await api(`/incidents/${incidentId}/postmortem/publish`, { method: 'POST', json: {} })).status).toBe(409)
    await ctx.app.services.outboxWorker.drain()
    expect(smtp.mails.filter((m) => m.subject.includes('Postmortem'))).toHaveLength(0)
    // Published: it can change, not be emptied.
    expect((await api(`/incidents/${incidentId}/postmortem`, { method: 'PUT', json: { body: '' } })).status).toBe(400)
    expect((await api(`/incidents/${incidentId}/postmortem`, { method: 'PUT', json: { body: `${POSTMORTEM}\n\nUpdated *later*.` } })).status).toBe(200)
    expect(await site(`/incidents/${incidentId}`)).toContain('Updated <em>later</em>.')
  })

  test('published with notify_subscribers: subscribers get it, rendered and as plain text', async () => {
    const other = await api('/incidents', { method: 'POST', json: { status_page_id: pageId, title: 'DNS slow', message: 'Slow.', state: 'resolved' } })
    const id = (await json(other)).data.id
    expect((await api(`/incidents/${id}/postmortem`, { method: 'PUT', json: { body: 'The **resolver** was overloaded: [details](https://example.com/d).' } })).status).toBe(200)
    expect((await api(`/incidents/${id}/postmortem/publish`, { method: 'POST', json: { notify_subscribers: true } })).status).toBe(200)
    await ctx.app.services.outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.to === 'pm@example.com' && m.subject.includes('Postmortem'))
    expect(mail.subject).toBe('[Acme] Postmortem: DNS slow')
    expect(mail.html).toContain('The <strong>resolver</strong> was overloaded: <a href="https://example.com/d" rel="nofollow noopener">details</a>.')
    expect(mail.text).toContain('The resolver was overloaded: details (https://example.com/d).')
    // The link opens the incident in the mail's language.
    expect(mail.text).toContain(`${HOST}/incidents/${id}?lang=en#postmortem`)
  })
})
