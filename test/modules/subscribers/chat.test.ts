/**
 * Slack and Microsoft Teams subscribers, delivered to a local chat hub: the owner adds them (API);
 * a visitor picks them on the subscribe form, the confirmation link is posted to the channel and
 * only opening it turns the updates on; updates arrive in each service's format with the
 * subscriber words and a working link to stop them; bad input and repeats change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Owner } from '../../../src/modules/accounts/service.ts'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { emit, linkIn, postSite, tokenOf } from './helpers.ts'

let smtp: SmtpHarness
let hub: ChatHub
let ctx: TestContext
let key: string
let owner: Owner
let pageId: number
let client = 0
const nextClient = () => `203.0.113.${++client}`

beforeAll(async () => {
  smtp = await startSmtp()
  hub = await startChatHub()
  ctx = await createTestContext({ env: { ...smtp.env, MONITOR_PRIVATE_TARGETS: '1' } })
  ;({ key, user: owner } = await ctx.createOwner('pro'))
  pageId = (await ctx.createPage(key, { slug: 'chatty', name: 'Chatty <Cloud>' })).id
})
afterAll(async () => {
  await ctx.close()
  await smtp.close()
  await hub.close()
})

const deliver = () => ctx.app.services.outboxWorker.drain()
const add = (body: Record<string, unknown>) => ctx.request(`/user/api/v1/status-pages/${pageId}/subscribers`, { method: 'POST', key, json: body })
const subscribeChannel = (via: string, url: string) =>
  postSite(ctx, 'chatty', '/subscribe', [['via', via], ['url', url], ['email', ''], ['website', '']], { client: nextClient() })
async function incident(title: string) {
  const created = await ctx.app.services.incidents.create(owner, { status_page_id: pageId, title, message: 'We are **on it**.' })
  await emit(ctx, { kind: 'incident.opened', pageId, incidentId: created.id, notifySubscribers: true, at: ctx.clock.now() })
  await deliver()
  return created
}
const slackText = (body: any) => JSON.stringify(body.blocks)
const teamsText = (body: any) => JSON.stringify(body.attachments[0].content.body)

describe('Slack and Teams subscribers', () => {
  test('the owner adds a Slack and a Teams channel; an incident reaches each in its format, with a link that stops it', async () => {
    const slack = (await json(await add({ kind: 'slack', url: `${hub.url}/owner-slack`, consent: true }))).data
    const teams = (await json(await add({ kind: 'teams', url: `${hub.url}/owner-teams`, consent: true }))).data
    expect(slack).toMatchObject({ kind: 'slack', status: 'confirmed' })
    expect(teams).toMatchObject({ kind: 'teams', status: 'confirmed' })
    expect((await add({ kind: 'slack', url: `${hub.url}/owner-slack`, consent: true })).status).toBe(409)

    await incident('Database slow')
    const [toSlack] = await hub.waitFor('/owner-slack', 1)
    const slackBody = toSlack!.json()
    expect(slackBody.text).toBe('[Chatty <Cloud>] New incident: Database slow')
    expect(slackBody.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: '[Chatty <Cloud>] New incident: Database slow', emoji: true } })
    // Slack's control characters are escaped: a title cannot mention or link.
    expect(slackText(slackBody)).toContain('Chatty &lt;Cloud&gt;')
    expect(slackText(slackBody)).toContain('We are on it.')
    expect(toSlack!.headers.get('webhook-signature')).toBeNull()
    const [toTeams] = await hub.waitFor('/owner-teams', 1)
    const card = toTeams!.json()
    expect(card.type).toBe('message')
    expect(card.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive')
    expect(teamsText(card)).toContain('[Chatty <Cloud>] New incident: Database slow')

    // Each gets its own link to stop; following Slack's leaves Teams on.
    const stop = linkIn(slackText(slackBody).replaceAll('\\n', '\n'), '/unsubscribe')
    expect(linkIn(teamsText(card).replaceAll('\\n', '\n'), '/unsubscribe')).not.toBe(stop)
    expect((await postSite(ctx, 'chatty', `/unsubscribe?token=${encodeURIComponent(tokenOf(stop))}`, [['List-Unsubscribe', 'One-Click']])).status).toBe(200)
    await incident('Second outage')
    await hub.waitFor('/owner-teams', 2)
    expect(hub.received('/owner-slack')).toHaveLength(1)
  })

  test('a visitor picks Slack: the confirmation is posted to the channel, and only its link turns updates on', async () => {
    const url = `${hub.url}/visitor-slack`
    const answer = await subscribeChannel('slack', url)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain('Check your channel')
    await deliver()
    const [confirmation] = await hub.waitFor('/visitor-slack', 1)
    const text = slackText(confirmation!.json()).replaceAll('\\n', '\n')
    expect(text).toContain('Someone asked for the status updates of Chatty &lt;Cloud&gt; to be posted to this Slack channel.')
    const confirmUrl = linkIn(text, '/subscribe/confirm')

    // Not confirmed yet: an incident does not reach it.
    await incident('Before confirming')
    expect(hub.received('/visitor-slack')).toHaveLength(1)

    const page = await (await ctx.request(confirmUrl)).text()
    expect(page).toContain(`the Slack channel at ${new URL(hub.url).host}`)
    expect((await postSite(ctx, 'chatty', '/subscribe/confirm', [['token', tokenOf(confirmUrl)]])).status).toBe(200)
    await incident('After confirming')
    const [, update] = await hub.waitFor('/visitor-slack', 2)
    expect(update!.json().text).toBe('[Chatty <Cloud>] New incident: After confirming')

    // Asking again for a channel that is on posts nothing, with the same answer.
    expect((await subscribeChannel('slack', url)).status).toBe(200)
    await deliver()
    expect(hub.received('/visitor-slack')).toHaveLength(2)
  })

  test('a visitor picks Teams: the confirmation arrives as a Teams card', async () => {
    expect((await subscribeChannel('teams', `${hub.url}/visitor-teams`)).status).toBe(200)
    await deliver()
    const [confirmation] = await hub.waitFor('/visitor-teams', 1)
    const card = confirmation!.json()
    expect(card.attachments[0].content.type).toBe('AdaptiveCard')
    expect(teamsText(card)).toContain('Confirm status updates in this channel')
    expect(card.attachments[0].content.actions[0].url).toStartWith('https://chatty.status.test/subscribe/confirm?token=')
  })

  test('a bad channel address is refused on the form and nothing is stored or posted', async () => {
    const before = await ctx.database.db.selectFrom('subscribers').select('id').execute()
    for (const url of ['', 'not a url', 'ftp://hooks.example/x', 'https://user:pw@hooks.example/x']) {
      const answer = await subscribeChannel('slack', url)
      expect(answer.status).toBe(400)
      const html = await answer.text()
      expect(html).toContain('id="url-error"')
      expect(html).toContain('value="slack" checked')
    }
    expect(await ctx.database.db.selectFrom('subscribers').select('id').execute()).toEqual(before)
    expect((await add({ kind: 'discord', url: `${hub.url}/x`, consent: true })).status).toBe(400)
  })
})
