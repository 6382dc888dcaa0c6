/**
 * The notification channel screens in real Chromium, through the browser only (services are read
 * to check what was stored): add a Slack-type channel pointing at the local chat hub, send a test,
 * see the last result and the channel verified; errors with the API's texts; markup stays text;
 * another owner's ids are 404; the Origin rule; the email verification page; delete.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../helpers/chat-hub.ts'
import { json } from '../helpers/context.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const MARKUP = '<b>bold</b><img src=x onerror="window.pwned=1">'

let app: WebApp
let hub: ChatHub
const channels = () => app.server.ctx.app.services.channels

beforeAll(async () => {
  hub = await startChatHub()
  app = await startWebApp({ now: NOW, env: { MONITOR_PRIVATE_TARGETS: '1', SLACK_API_URL: hub.url } })
  await app.server.ctx.createPage(app.owner.key, { name: 'Acme Cloud', slug: `acme-${crypto.randomUUID().slice(0, 6)}` })
})
afterAll(async () => {
  await app.close()
  await hub.close()
})

describe('notification channels in the browser', () => {
  test('add a Slack channel, send a test, see the result and the channel verified', async () => {
    const { page } = app
    await page.goto(`${app.base}/user`)
    await page.getByRole('link', { name: 'Notifications' }).click()
    await page.waitForURL(`${app.base}/user/notifications`)
    expect(await page.getByText('Mail is off on this Lantern').isVisible()).toBe(true)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'notifications', ['Notifications', 'Add a channel', 'Mail is off'])

    await page.getByRole('link', { name: 'Slack', exact: true }).click()
    await page.waitForURL(`${app.base}/user/notifications/new?type=slack`)
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'notifications-new', ['Add a Slack channel', 'Webhook URL', 'Events'])
    // The API's own text next to the field.
    await page.getByLabel('Name').fill(MARKUP)
    await page.getByLabel('Webhook URL').fill('ftp://hooks.example/x')
    await page.getByRole('button', { name: 'Add channel' }).click()
    expect(await page.locator('#f-url-error').textContent()).toBe('Webhook URL must be an absolute https or http URL')
    expect(await channels().list(app.owner.user)).toEqual([])

    await page.getByLabel('Webhook URL').fill(`${hub.url}/slack-browser`)
    await page.getByRole('button', { name: 'Add channel' }).click()
    const [stored] = await channels().list(app.owner.user)
    expect(stored).toMatchObject({ type: 'slack', name: MARKUP, allPages: true, verifiedAt: null })
    await page.waitForURL(`${app.base}/user/notifications/${stored!.id}`)
    expect(await page.getByRole('status').filter({ hasText: 'Channel added. Send a test to verify it.' }).isVisible()).toBe(true)
    expect(await page.locator('main').innerText()).toContain('Not verified: send a test')
    // The URL is a secret: shown shortened, never in full.
    expect(await page.content()).not.toContain(`${hub.url}/slack-browser`)

    await page.getByRole('button', { name: 'Send test' }).click()
    await page.waitForURL(`${app.base}/user/notifications/${stored!.id}`)
    expect(await page.getByText('Test queued.').isVisible()).toBe(true)
    await app.server.ctx.app.services.outboxWorker.drain()
    expect(hub.received('/slack-browser')[0]!.json().blocks[0].text.text).toBe('Test notification from Lantern')
    await page.reload()
    const state = await page.locator('.facts').innerText()
    expect(state).toContain('Verified')
    expect(state).toContain('Delivered 23 Nov 2026, 12:00 UTC')
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'notifications-channel', ['Verified', 'Delivered', 'Save channel'])

    // The list shows the same.
    await page.getByRole('link', { name: 'Notifications', exact: true }).first().click()
    const row = await page.locator('tbody tr').first().innerText()
    expect(row).toContain('Verified')
    expect(row).toContain('Delivered')
    expect(row).toContain('<b>bold</b>')
    expect(await page.locator('main b, main img').count()).toBe(0)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
  })

  test('add a Slack channel with a bot instead of a webhook: both is refused, the bot posts the test', async () => {
    const { page } = app
    const token = 'xoxb-1111111111-2222222222222-abcdefghijklmnopqrstuvwx'
    hub.answer('/chat.postMessage', [{ status: 200, body: JSON.stringify({ ok: true, channel: 'C0123456789', ts: '1765100000.000100' }) }])
    await page.goto(`${app.base}/user/notifications/new?type=slack`)
    expect(await page.getByText('a bot edits an outage').isVisible()).toBe(true)
    await page.getByLabel('Name').fill('Ops bot')
    await page.getByLabel('Webhook URL').fill(`${hub.url}/slack-both`)
    await page.getByLabel('Bot token').fill(token)
    await page.getByLabel('Chat id').fill('C0123456789')
    await page.getByRole('button', { name: 'Add channel' }).click()
    expect(await page.locator('.error-summary, [role=alert]').first().innerText()).toContain('not both')
    expect((await channels().list(app.owner.user)).map((c) => c.name)).not.toContain('Ops bot')

    await page.getByLabel('Webhook URL').fill('')
    await page.getByLabel('Bot token').fill(token)
    await page.getByRole('button', { name: 'Add channel' }).click()
    const stored = (await channels().list(app.owner.user)).find((c) => c.name === 'Ops bot')!
    await page.waitForURL(`${app.base}/user/notifications/${stored.id}`)
    expect(await page.content()).not.toContain(token)
    await page.getByRole('button', { name: 'Send test' }).click()
    await page.waitForURL(`${app.base}/user/notifications/${stored.id}`)
    await app.server.ctx.app.services.outboxWorker.drain()
    const [sent] = hub.received('/chat.postMessage')
    expect(sent!.headers.get('authorization')).toBe(`Bearer ${token}`)
    expect(sent!.json()).toMatchObject({ channel: 'C0123456789', text: 'Test notification from Lantern' })
    await page.reload()
    expect(await page.locator('.facts').innerText()).toContain('Verified')
    await checkA11y(page)
    // The next tests expect the first channel alone.
    await channels().delete(app.owner.user, stored.id)
  })

  test('edit: pages and events, with the API texts next to the fields; delete', async () => {
    const { page } = app
    const [channel] = await channels().list(app.owner.user)
    await page.goto(`${app.base}/user/notifications/${channel!.id}`)
    expect(await page.getByLabel('Name').inputValue()).toBe(MARKUP)
    await page.getByLabel('Name').fill('Team chat')
    await page.getByRole('checkbox', { name: /^All my pages/ }).uncheck()
    await page.getByRole('button', { name: 'Save channel' }).click()
    expect(await page.locator('#f-page_ids-error').textContent()).toBe('Pages must name at least one page unless all pages is true')
    await page.getByRole('checkbox', { name: 'Acme Cloud' }).check()
    await page.getByRole('checkbox', { name: 'Maintenance scheduled' }).uncheck()
    await page.getByRole('checkbox', { name: 'Certificate expiring' }).check()
    await page.getByRole('button', { name: 'Save channel' }).click()
    await page.waitForURL(`${app.base}/user/notifications/${channel!.id}`)
    const saved = await channels().get(app.owner.user, channel!.id)
    expect(saved).toMatchObject({ name: 'Team chat', allPages: false, pages: [{ name: 'Acme Cloud' }] })
    expect(saved.events).toContain('certificate.expiring')
    expect(saved.events).not.toContain('maintenance.scheduled')
    // Saving without touching the URL keeps it (and the verification).
    expect(saved.verifiedAt).not.toBeNull()

    await page.getByRole('link', { name: 'Delete channel…' }).click()
    await checkA11y(page)
    await page.getByRole('button', { name: 'Delete channel' }).click()
    await page.waitForURL(`${app.base}/user/notifications`)
    expect(await page.getByText('Channel "Team chat" deleted.').isVisible()).toBe(true)
    expect(await channels().list(app.owner.user)).toEqual([])
  })

  test('the email verification page: one button, no login, accessible', async () => {
    const anonymous = await app.browser.newContext()
    const view = await anonymous.newPage()
    await view.goto(`${app.base}/user/notifications/verify?token=1.${'a'.repeat(43)}`)
    await checkA11y(view)
    await view.getByRole('button', { name: 'Confirm address' }).click()
    expect(await view.locator('h1').innerText()).toBe('Link not valid')
    await anonymous.close()
  })

  test("another owner's ids are 404 and nothing changes; a POST without this site's Origin is 403", async () => {
    const other = await app.createOwner()
    const theirs = (await json(await app.server.ctx.request('/user/api/v1/notification-channels', {
      method: 'POST',
      key: other.key,
      json: { type: 'slack', name: 'Theirs', url: `${hub.url}/theirs` },
    }))).data
    for (const path of [`/user/notifications/${theirs.id}`, `/user/notifications/${theirs.id}/delete`, '/user/notifications/0', '/user/notifications/new?type=sms']) {
      const response = await app.page.goto(`${app.base}${path}`)
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 })
    }
    const cookie = await app.cookieOf(app.context)
    const fields = { name: 'Hijack', all_pages: 'on', events: 'incident.opened' }
    const statuses = [
      (await postForm(app, `/user/notifications/${theirs.id}`, fields, { cookie })).status,
      (await postForm(app, `/user/notifications/${theirs.id}/test`, {}, { cookie })).status,
      (await postForm(app, `/user/notifications/${theirs.id}/resend`, {}, { cookie })).status,
      (await postForm(app, `/user/notifications/${theirs.id}/delete`, {}, { cookie })).status,
    ]
    expect(statuses).toEqual([404, 404, 404, 404])
    expect(await channels().get(other.user, theirs.id)).toMatchObject({ name: 'Theirs', testRequestedAt: null })

    const mine = await channels().create(app.owner.user, { type: 'discord', name: 'Mine', url: `${hub.url}/mine` })
    for (const origin of [null, 'https://evil.example']) {
      const refused = [
        (await postForm(app, '/user/notifications', { type: 'slack', name: 'x', url: `${hub.url}/x`, all_pages: 'on', events: 'incident.opened' }, { cookie, origin })).status,
        (await postForm(app, `/user/notifications/${mine.id}`, fields, { cookie, origin })).status,
        (await postForm(app, `/user/notifications/${mine.id}/test`, {}, { cookie, origin })).status,
        (await postForm(app, `/user/notifications/${mine.id}/delete`, {}, { cookie, origin })).status,
      ]
      expect({ origin, refused }).toEqual({ origin, refused: [403, 403, 403, 403] })
    }
    expect((await channels().list(app.owner.user)).map((c) => [c.name, c.testRequestedAt])).toEqual([['Mine', null]])
  })
})
