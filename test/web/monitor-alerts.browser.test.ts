/**
 * A monitor's alerts in real Chromium, end to end: an email channel added and verified through the
 * web app, a monitor with no component picks it on its Alerts screen, then its target stops. One
 * mail arrives naming the monitor and the reason, then one recovery mail, and nothing else. The
 * snooze is set on the same screen and shown on the monitor's screen. Axe on the Alerts screen.
 * The real SMTP server; the scheduler runs on the injected clock.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { checkA11y, startWebApp, type WebApp } from '../helpers/webapp.ts'
import { startSmtp, type SmtpHarness } from '../helpers/smtp.ts'
import { json } from '../helpers/context.ts'
import { schedulerFor } from '../modules/monitors/scheduling.ts'

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0)
const ADDRESS = 'oncall@example.com'

let app: WebApp
let smtp: SmtpHarness
let scheduler: ReturnType<typeof schedulerFor>
let target: ReturnType<typeof Bun.serve> | undefined
let port = 0

const serve = () => Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response('ok') })
const ctx = () => app.server.ctx
async function drain() {
  await ctx().app.services.outboxWorker.drain()
  const { sent } = await ctx().database.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('sent')).where('kind', '=', 'mail').where('status', '=', 'sent').executeTakeFirstOrThrow()
  await smtp.waitForCount(Number(sent))
}
async function run(times: number) {
  for (let i = 0; i < times; i++) {
    ctx().clock.advance(60_000)
    await scheduler.tick()
    await scheduler.settle()
  }
  await drain()
}
const alertMails = () => smtp.mails.filter((mail) => mail.to === ADDRESS && !mail.subject.startsWith('Confirm'))

beforeAll(async () => {
  smtp = await startSmtp()
  app = await startWebApp({ now: NOW, env: { ...smtp.env, MONITOR_PRIVATE_TARGETS: '1' } })
  target = serve()
  port = target.port!
  scheduler = schedulerFor(ctx())
})
afterAll(async () => {
  await scheduler.stop()
  target?.stop(true)
  await app.close()
  await smtp.close()
})

test('a monitor with no component and an email channel goes down: one mail naming the monitor and the reason, then one recovery mail, nothing else', async () => {
  const { page } = app
  // The channel, through the web app, verified by its link.
  await page.goto(`${app.base}/user/notifications/new?type=email`)
  await page.getByLabel('Name').fill('On-call mail')
  await page.getByLabel('Email address').fill(ADDRESS)
  await page.getByRole('button', { name: 'Add channel' }).click()
  await page.waitForURL(/\/user\/notifications\/\d+$/)
  await drain()
  const verification = await smtp.waitFor((mail) => mail.to === ADDRESS && mail.subject.startsWith('Confirm'))
  const link = /https?:\/\/[^\s"<]+\/user\/notifications\/verify\?token=[^\s"<]+/.exec(verification.text)![0]
  await page.goto(`${app.base}${new URL(link).pathname}${new URL(link).search}`)
  await page.getByRole('button', { name: 'Confirm address' }).click()
  const [channel] = await ctx().app.services.channels.list(app.owner.user)
  expect(channel!.verifiedAt).not.toBeNull()

  const created = await ctx().request('/user/api/v1/monitors', {
    key: app.owner.key,
    method: 'POST',
    json: { name: 'Billing worker', type: 'http', target: `http://127.0.0.1:${port}/health`, interval_seconds: 60, retries: 0, confirm_failures: 2, confirm_successes: 1 },
  })
  expect(created.status).toBe(201)
  const monitorId: number = (await json(created)).data.id
  await run(1)

  // The monitor's screen says nobody is alerted; its Alerts screen picks the channel.
  await page.goto(`${app.base}/user/monitors/${monitorId}`)
  expect(await page.getByRole('region', { name: 'Alerts' }).innerText()).toContain('no channel: this monitor alerts nobody')
  await page.getByRole('link', { name: 'Alerts and snooze' }).click()
  await page.waitForURL(`${app.base}/user/monitors/${monitorId}/alerts`)
  await checkA11y(page)
  // A reminder interval of 0 minutes is refused beside its field (the API's words), nothing saved.
  await page.getByLabel('On-call mail (Email)').check()
  await page.getByLabel('Remind every (minutes)').fill('0')
  await page.getByRole('button', { name: 'Save alerts' }).click()
  expect(await page.locator('#f-remind_every_minutes-error').textContent()).toContain('whole number from 1 to')
  expect((await ctx().app.services.monitorAlerts.get(app.owner.user, monitorId)).channelIds).toEqual([])
  await page.getByLabel('Remind every (minutes)').fill('')
  await page.getByLabel('On-call mail (Email)').check()
  await page.getByRole('button', { name: 'Save alerts' }).click()
  await page.waitForURL(`${app.base}/user/monitors/${monitorId}`)
  expect(await page.getByRole('region', { name: 'Alerts' }).innerText()).toContain('Alerts go to On-call mail; no reminders.')
  expect(alertMails()).toHaveLength(0)

  // Down: one failure is not confirmed, the second is; one mail.
  target!.stop(true)
  target = undefined
  await run(1)
  expect(alertMails()).toHaveLength(0)
  await run(1)
  const reason = (await ctx().app.services.monitors.get(app.owner.user, monitorId)).lastMessage!
  expect(reason.length).toBeGreaterThan(0)
  expect(alertMails().map((mail) => mail.subject)).toEqual([`[Lantern] Monitor "Billing worker" is down: ${reason}`])
  expect(alertMails()[0]!.text).toContain(`Reason: ${reason}`)
  expect(alertMails()[0]!.text).toContain(`/user/monitors/${monitorId}`)
  await run(3)
  expect(alertMails()).toHaveLength(1)

  // Up again: one recovery mail with the duration, then nothing more.
  target = serve()
  await run(1)
  await run(3)
  const subjects = alertMails().map((mail) => mail.subject)
  expect(subjects).toHaveLength(2)
  expect(subjects[1]).toBe('[Lantern] Monitor "Billing worker" is up again after 4 min')

  // The snooze, set on the Alerts screen, is shown on the monitor's screen.
  await page.goto(`${app.base}/user/monitors/${monitorId}/alerts`)
  await page.getByLabel('Snooze').selectOption('60')
  await page.getByRole('button', { name: 'Save alerts' }).click()
  await page.waitForURL(`${app.base}/user/monitors/${monitorId}`)
  expect(await page.getByRole('region', { name: 'Alerts' }).innerText()).toContain('Snoozed until')
  expect((await ctx().app.services.monitorAlerts.get(app.owner.user, monitorId)).snoozedUntil).toBe(ctx().clock.now() + 3_600_000)
  await checkA11y(page)
})
