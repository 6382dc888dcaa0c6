/**
 * "Subscribe to updates" is offered on every public HTML page of a status host (the page, the
 * history, an incident, the subscribe pages themselves), wherever visitors may subscribe: a public
 * page of an instance that sends mail. Real app, real SQLite, a real SMTP server for the mails.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { linkIn, postSite, siteUrl } from '../subscribers/helpers.ts'

let smtp: SmtpHarness
let ctx: TestContext
let key: string
let incidentId: number

beforeAll(async () => {
  smtp = await startSmtp()
  ctx = await createTestContext({ env: smtp.env })
  key = (await ctx.createOwner('pro')).key
  const page = await ctx.createPage(key, { slug: 'open', name: 'Open' })
  await ctx.request(`/user/api/v1/status-pages/${page.id}/components`, { method: 'POST', key, json: { name: 'API' } })
  const incident = await ctx.request('/user/api/v1/incidents', { method: 'POST', key, json: { status_page_id: page.id, title: 'Errors', message: 'Looking' } })
  incidentId = (await json(incident)).data.id
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
})

/** The header's subscribe link of an HTML answer (a kept `?lang=`, escaped, allowed): its markup, or undefined when there is none. */
const subscribeLink = (html: string) => /<a href="\/subscribe(?:\?lang&#61;[\w-]+)?"[^>]*>Subscribe to updates<\/a>/.exec(html)?.[0]

test('every public page of a status host offers the subscription, the subscribe form marking itself as the current page', async () => {
  const pages = ['/', '/history', `/history?before=${ctx.clock.now() + 1}`, `/incidents/${incidentId}`, '/subscribe']
  for (const path of pages) {
    const response = await ctx.request(siteUrl('open', path))
    expect(`${path} ${response.status}`).toBe(`${path} 200`)
    const link = subscribeLink(await response.text())
    expect(`${path}: ${link}`).toBe(`${path}: ${path === '/subscribe' ? '<a href="/subscribe" aria-current="page">Subscribe to updates</a>' : '<a href="/subscribe">Subscribe to updates</a>'}`)
  }
  // The answer to the form, and the confirmation link from the mail.
  const sent = await postSite(ctx, 'open', '/subscribe', [['email', 'reader@example.com'], ['website', '']])
  expect(subscribeLink(await sent.text())).toBeDefined()
  await ctx.app.services.outboxWorker.drain()
  const mail = await smtp.waitFor((m) => m.to === 'reader@example.com')
  const confirm = await ctx.request(linkIn(mail.text, '/subscribe/confirm'))
  expect(confirm.status).toBe(200)
  // The mail's link opens the page in the mail's language, and its links keep it.
  expect(subscribeLink(await confirm.text())).toBe('<a href="/subscribe?lang&#61;en">Subscribe to updates</a>')
})

test('no link where visitors cannot subscribe: a private page, or an instance without mail', async () => {
  const privatePage = await ctx.createPage(key, { slug: 'closed', name: 'Closed', visibility: 'private' })
  await ctx.request(`/user/api/v1/status-pages/${privatePage.id}/access`, { method: 'PUT', key, json: { password: 'a long password' } })
  const gate = await ctx.request(siteUrl('closed', '/history'))
  expect(subscribeLink(await gate.text())).toBeUndefined()

  const quiet = await createTestContext()
  try {
    const owner = await quiet.createOwner('pro')
    await quiet.createPage(owner.key, { slug: 'quiet', name: 'Quiet' })
    for (const path of ['/', '/history']) {
      const response = await quiet.request(siteUrl('quiet', path))
      expect(response.status).toBe(200)
      expect(subscribeLink(await response.text())).toBeUndefined()
    }
  } finally {
    await quiet.close()
  }
})
