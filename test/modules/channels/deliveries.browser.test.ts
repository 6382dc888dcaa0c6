/**
 * The delivery log and signing secrets in real Chromium, deliveries received by the chat hub: a
 * webhook channel added in the web app shows its secret once; its log shows a failed attempt
 * (HTTP status, next retry), then the success; "Send again" re-sends with the same webhook-id,
 * which the official library verifies with the secret the page showed. The same for a webhook
 * subscriber. Someone else's ids → 404, a form from another site → 403; axe; layouts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startChatHub, type ChatHub } from '../../helpers/chat-hub.ts'
import { verifyStandardWebhook } from '../../helpers/standard-webhooks.ts'
import { checkA11y, checkLayouts, postForm, startWebApp, type WebApp } from '../../helpers/webapp.ts'

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0)
/** Each case drives Chromium through several pages, with axe and screenshots: far over the default on a loaded machine. */
const BROWSER_CASE_MS = 180_000

let hub: ChatHub
let app: WebApp
let pageId: number

beforeAll(async () => {
  hub = await startChatHub()
  app = await startWebApp({ now: NOW, plan: 'pro', env: { MONITOR_PRIVATE_TARGETS: '1' } })
  const response = await app.server.ctx.request('/user/api/v1/status-pages', { method: 'POST', key: app.owner.key, json: { slug: 'logs', name: 'Logs Cloud' } })
  pageId = ((await response.json()) as { data: { id: number } }).data.id
}, BROWSER_CASE_MS)
afterAll(async () => {
  await app.close()
  await hub.close()
})

const drain = () => app.server.ctx.app.services.outboxWorker.drain()
const cellTexts = async (row: number) => (await app.page.locator('table.deliveries tbody tr').nth(row).locator('td').allTextContents()).map((t) => t.trim())

describe('a webhook channel', () => {
  let channelPath = ''

  test('added in the web app: the signing secret is shown once; the log shows failure, retry and "Send again"', async () => {
    const page = app.page
    hub.answer('/hook', [500, 200])
    await page.goto(`${app.base}/user/notifications/new?type=webhook`)
    await page.getByLabel('Name', { exact: true }).fill('Ops hook')
    await page.getByLabel('Webhook URL').fill(`${hub.url}/hook`)
    await page.getByRole('button', { name: 'Add channel' }).click()
    await page.getByRole('heading', { name: 'Signing secret', exact: true }).waitFor()
    const secret = (await page.locator('code.secret').textContent())!.trim()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const id = (await app.server.ctx.database.db.selectFrom('notification_channels').select('id').where('name', '=', 'Ops hook').executeTakeFirstOrThrow()).id
    channelPath = `/user/notifications/${id}`
    await checkA11y(page)

    // Shown once: the channel page does not show it again.
    await page.goto(`${app.base}${channelPath}`)
    expect(await page.content()).not.toContain(secret)
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor()
    expect(await page.getByText('Nothing sent yet.').isVisible()).toBe(true)

    await page.getByRole('button', { name: 'Send test' }).click()
    // The form's answer has loaded (its flash shows) before the page is reloaded.
    await page.getByRole('status').filter({ hasText: 'Test queued.' }).waitFor()
    await drain()
    await page.reload()
    const failed = await cellTexts(0)
    expect(failed.slice(1, 6)).toEqual(['Test notification from Lantern', 'Failed, will retry', '500', failed[4]!, '1'])
    expect(failed[4]).toMatch(/^\d+ ms$/)
    expect(failed[7]).toBe('2026-11-27 12:01:00 UTC')
    expect(failed[8]).toBe('HTTP 500')
    expect(await page.getByRole('button', { name: /^Send again/ }).count()).toBe(0)

    app.server.ctx.clock.advance(60_000)
    await drain()
    await page.reload()
    expect((await cellTexts(0)).slice(2, 4)).toEqual(['Delivered', '200'])
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'channel-deliveries', ['Delivery log', 'Signatures'])

    await page.getByRole('button', { name: /^Send again: delivery \d+$/ }).click()
    await page.getByRole('status').filter({ hasText: 'Queued again.' }).waitFor()
    await drain()
    const [first, retry, again] = await hub.waitFor('/hook', 3)
    expect(again!.headers.get('webhook-id')).toBe(first!.headers.get('webhook-id'))
    expect(retry!.headers.get('webhook-id')).toBe(first!.headers.get('webhook-id'))
    expect(verifyStandardWebhook(secret, again!)).toMatchObject({ type: 'test' })
    await page.reload()
    expect(await page.locator('table.deliveries tbody tr').count()).toBe(2)
    expect((await cellTexts(0))[0]).toContain('again, of')
    expect((await cellTexts(0)).slice(2, 4)).toEqual(['Delivered', '200'])
  }, BROWSER_CASE_MS)

  test('"New signing secret" shows the new one once; the next request is signed with it', async () => {
    const page = app.page
    await page.goto(`${app.base}${channelPath}`)
    await page.getByRole('button', { name: 'New signing secret' }).click()
    const secret = (await page.locator('code.secret').textContent())!.trim()
    expect(secret).toMatch(/^whsec_/)
    await checkA11y(page)
    await page.goto(`${app.base}${channelPath}`)
    await page.getByRole('button', { name: 'Send test' }).click()
    await page.getByRole('status').filter({ hasText: 'Test queued.' }).waitFor()
    await drain()
    const latest = hub.received('/hook').at(-1)!
    expect(verifyStandardWebhook(secret, latest)).toMatchObject({ type: 'test' })
  }, BROWSER_CASE_MS)

  test("someone else's channel or delivery → 404; a form from another site → 403; nothing sent", async () => {
    const sentBefore = hub.received('/hook').length
    const other = await app.createOwner('pro')
    const { context } = await app.loginAs(other)
    const cookie = await app.cookieOf(context)
    const delivery = (await app.server.ctx.database.db.selectFrom('outbox').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id
    expect((await postForm(app, `${channelPath}/deliveries/${delivery}/resend`, {}, { cookie })).status).toBe(404)
    expect((await postForm(app, `${channelPath}/signing-secret`, {}, { cookie })).status).toBe(404)
    const own = await app.cookieOf(app.context)
    expect((await postForm(app, `${channelPath}/deliveries/${delivery}/resend`, {}, { cookie: own, origin: 'https://evil.example' })).status).toBe(403)
    await context.close()
    await drain()
    expect(hub.received('/hook')).toHaveLength(sentBefore)
  }, BROWSER_CASE_MS)
})

describe('a webhook subscriber', () => {
  test('added on the Subscribers screen: its secret once, its log, "Send again"', async () => {
    const page = app.page
    await page.goto(`${app.base}/user/pages/${pageId}/subscribers`)
    await page.getByLabel('Kind').selectOption('webhook')
    await page.getByLabel('Webhook URL').fill(`${hub.url}/subscriber`)
    await page.getByLabel('This person agreed').check()
    await page.getByRole('button', { name: 'Add subscriber' }).click()
    await page.getByRole('heading', { name: 'Signing secret', exact: true }).waitFor()
    const secret = (await page.locator('code.secret').textContent())!.trim()
    await checkA11y(page)

    const incident = await app.server.ctx.request('/user/api/v1/incidents', { method: 'POST', key: app.owner.key, json: { status_page_id: pageId, title: 'Queue slow', message: 'Looking', notify_subscribers: true } })
    expect(incident.status).toBe(201)
    await drain()
    const [received] = await hub.waitFor('/subscriber', 1)
    expect(verifyStandardWebhook(secret, received!)).toMatchObject({ type: 'incident.opened', page: { id: 'logs', status_indicator: 'minor' } })

    await page.goto(`${app.base}/user/pages/${pageId}/subscribers`)
    await page.getByRole('link', { name: `Deliveries and signing secret of ${hub.url}/subscriber` }).click()
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor()
    expect(await page.content()).not.toContain(secret)
    expect((await cellTexts(0)).slice(1, 4)).toEqual(['Incident opened: Queue slow', 'Delivered', '200'])
    await checkA11y(page)
    await checkLayouts(page, app.shots, 'subscriber-deliveries', ['Delivery log', 'Signatures'])
    await page.getByRole('button', { name: /^Send again: delivery \d+$/ }).click()
    await page.getByRole('status').filter({ hasText: 'Queued again.' }).waitFor()
    await drain()
    const [, again] = await hub.waitFor('/subscriber', 2)
    expect(again!.headers.get('webhook-id')).toBe(received!.headers.get('webhook-id'))
    expect(verifyStandardWebhook(secret, again!)).toEqual(received!.json())
  }, BROWSER_CASE_MS)
})
