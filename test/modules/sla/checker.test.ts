import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, json, type TestContext } from '../../helpers/context.ts'
import { startSmtp, type SmtpHarness } from '../../helpers/smtp.ts'
import { createComponent, importHistory, slug } from '../analytics/helpers.ts'
import { pdfText } from './helpers.ts'
import type { NotifyEvent } from '../../../src/modules/notify/contract.ts'

const MIN = 60_000
const START = Date.UTC(2026, 10, 10, 12, 0, 0) // 2026-11-10T12:00Z

describe('SLA breach alerts and the monthly report mail (real SMTP server)', () => {
  let smtp: SmtpHarness
  let ctx: TestContext
  let key: string
  let ownerEmail: string
  let pageId: number
  let componentId: number
  const events: NotifyEvent[] = []

  beforeAll(async () => {
    smtp = await startSmtp()
    ctx = await createTestContext({ env: smtp.env, now: START })
    const owner = await ctx.createOwner('free')
    key = owner.key
    ownerEmail = owner.user.email
    pageId = (await ctx.createPage(key, { slug: slug('breach'), name: 'Breach page' })).id
    componentId = await createComponent(ctx, key, pageId, 'API')
    await importHistory(ctx, key, componentId, [{ status: 'up', at: '2026-10-20T00:00:00Z' }])
    // The owner's channels are another feature's fan-out; this one records each event and mails
    // the owner through the same outbox, so what reaches the SMTP server is what was emitted.
    const { notifier, outbox } = ctx.app.services
    notifier.use(async (db, group) => {
      for (const event of group) {
        events.push(event)
        if (event.kind !== 'sla.breach') continue
        await outbox.enqueue(db, [
          { target: `address:${ownerEmail}`, mail: { to: ownerEmail, subject: `SLA budget ${event.thresholdPct} % used`, text: `component ${event.componentId}` } },
        ])
      }
    })
  })
  afterAll(async () => {
    await ctx.close()
    await smtp.close()
  })

  const setStatus = async (status: string) => {
    const response = await ctx.request(`/user/api/v1/components/${componentId}`, { method: 'PATCH', key, json: { status } })
    expect(response.status).toBe(200)
  }
  const at = (ms: number) => ctx.clock.set(ms)
  const check = () => ctx.app.services.slaChecker.checkBreaches()
  const alertRows = () => ctx.database.db.selectFrom('sla_alerts').selectAll().orderBy('threshold').execute()

  test('50, 80 and 100 % of the month budget each emit once and mail once; the next month starts over', async () => {
    const target = await ctx.request(`/user/api/v1/components/${componentId}/sla-target`, { method: 'PUT', key, json: { target_percent: 99.9, period: 'month' } })
    expect(target.status).toBe(200)
    // November's budget at 99.9 %: 30 days × 0.1 % = 2592 s.
    expect(await check()).toBe(0)
    await setStatus('down')
    at(START + 21 * MIN) // 1260 s: 48.6 %
    expect(await check()).toBe(0)
    at(START + 22 * MIN) // 1320 s: 50.9 %
    expect(await check()).toBe(1)
    expect(await check()).toBe(0)
    at(START + 35 * MIN) // 2100 s: 81 %
    expect(await Promise.all([check(), check()]).then((n) => n[0]! + n[1]!)).toBe(1)
    await setStatus('up')
    at(START + 2 * 60 * MIN)
    expect(await check()).toBe(0)
    await setStatus('down')
    at(START + 2 * 60 * MIN + 9 * MIN) // 2100 + 540 = 2640 s: 101.8 %
    expect(await check()).toBe(1)
    await setStatus('up')
    at(START + 3 * 60 * MIN)
    expect(await check()).toBe(0)

    const breaches = events.filter((e) => e.kind === 'sla.breach')
    expect(breaches.map((e) => (e.kind === 'sla.breach' ? e.thresholdPct : 0))).toEqual([50, 80, 100])
    expect(breaches[0]).toMatchObject({ pageId, componentId, periodStart: Date.UTC(2026, 10, 1), targetPct: 99.9 })
    expect((await alertRows()).map((r) => [r.threshold, r.period_start])).toEqual([
      [50, Date.UTC(2026, 10, 1)],
      [80, Date.UTC(2026, 10, 1)],
      [100, Date.UTC(2026, 10, 1)],
    ])
    await ctx.app.services.outboxWorker.drain()
    await smtp.waitForCount(3)
    const subjects = smtp.mails.filter((m) => m.to === ownerEmail.toLowerCase() && m.subject.startsWith('SLA budget')).map((m) => m.subject)
    expect(subjects.sort()).toEqual(['SLA budget 100 % used', 'SLA budget 50 % used', 'SLA budget 80 % used'])

    // December: a new period, a new budget; November's alerts do not stop December's.
    at(Date.UTC(2026, 11, 2, 0, 0, 0))
    await setStatus('down')
    at(Date.UTC(2026, 11, 2, 0, 23, 0)) // 1380 s of December's 2678.4 s: 51.5 %
    expect(await check()).toBe(1)
    await setStatus('up')
    expect((await alertRows()).filter((r) => r.period_start === Date.UTC(2026, 11, 1)).map((r) => r.threshold)).toEqual([50])
  })

  test('the monthly report goes on the 1st from 06:00 UTC, once, with the PDF attached, to the owner', async () => {
    const settings = await ctx.request(`/user/api/v1/status-pages/${pageId}/sla/settings`, { method: 'PUT', key, json: { monthly_report: true } })
    expect(settings.status).toBe(200)
    const { slaChecker, outboxWorker } = ctx.app.services
    at(Date.UTC(2026, 11, 1, 5, 59, 0))
    expect(await slaChecker.sendMonthlyReports()).toBe(0)
    at(Date.UTC(2026, 11, 1, 6, 0, 0))
    expect(await slaChecker.sendMonthlyReports()).toBe(1)
    expect(await slaChecker.sendMonthlyReports()).toBe(0)
    await outboxWorker.drain()
    const mail = await smtp.waitFor((m) => m.subject === 'SLA report for Breach page: November 2026')
    expect(mail.to).toBe(ownerEmail.toLowerCase())
    expect(mail.text).toContain('API: 99.8981 % (target 99.9000 %), down 0:44:00')
    const attachment = mail.parsed.attachments[0]!
    expect(attachment.contentType).toBe('application/pdf')
    expect(attachment.filename).toMatch(/^sla-breach-.+-2026-11\.pdf$/)
    const text = pdfText(new Uint8Array(attachment.content))
    expect(text).toContain('SLA report: Breach page')
    expect(text).toContain('1 Nov 2026 to 30 Nov 2026')
    expect(text).toMatch(/API\s+99\.9000 %\s+99\.8981 %\s+no\s+0:44:00\s+101\.85 %\s+-0:00:48/)
    // Not again in December, nor after the grace days.
    at(Date.UTC(2026, 11, 2, 6, 0, 0))
    expect(await slaChecker.sendMonthlyReports()).toBe(0)
  })
})

describe('with mail off', () => {
  test('the monthly report is not claimed, so it still goes once mail is on', async () => {
    const ctx = await createTestContext({ now: Date.UTC(2026, 11, 1, 7, 0, 0) })
    try {
      const { key } = await ctx.createOwner('free')
      const page = await ctx.createPage(key, { slug: slug('off'), name: 'Off' })
      const put = await ctx.request(`/user/api/v1/status-pages/${page.id}/sla/settings`, { method: 'PUT', key, json: { monthly_report: true } })
      expect((await json(put)).data).toEqual({ monthly_report: true })
      expect(await ctx.app.services.slaChecker.sendMonthlyReports()).toBe(0)
      expect(await ctx.database.db.selectFrom('sla_monthly_mails').selectAll().execute()).toEqual([])
    } finally {
      await ctx.close()
    }
  })
})
