/**
 * The SLA checker, on the injected clock (main.ts runs it every few minutes; tests call it):
 *
 * - Breach alerts: for each component whose target has alerts on, the report over its running
 *   period (month, quarter or year); at 50, 80 and 100 % of that period's error budget, one
 *   `sla.breach` event, emitted through the notifier IN the transaction that records the alert in
 *   sla_alerts. The table's primary key (component, period start, threshold) makes it once per
 *   threshold per period, even with two checkers racing; the channels' fan-out delivers it.
 * - Monthly report mail: on the 1st from 06:00 UTC (and on the 2nd and 3rd, should the server have
 *   been down), the previous calendar month's report as a PDF, mailed to the owner's account address
 *   for each page that opted in, once per page and month (sla_monthly_mails). Skipped while mail
 *   is off, so turning mail on later still sends the month.
 */
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { formatDateTime, formatDayRange, formatMonth } from '../../lib/human-time.ts'
import type { Notifier, OutboxWriter } from '../notify/contract.ts'
import { formatDuration, formatPpm } from './compute.ts'
import { dayString, periodOf, previousMonth } from './period.ts'
import { SlaRepo } from './repo.ts'
import type { SlaReport, SlaService } from './service.ts'
import type { SlaPeriod } from './tables.ts'

export const BREACH_THRESHOLDS = [50, 80, 100] as const
/** How often main.ts runs the checker: a breach is noticed within this long of crossing. */
export const CHECK_INTERVAL_MS = 5 * 60_000
/** The monthly mail goes from this hour (UTC) on the 1st. */
const MONTHLY_HOUR_UTC = 6
/** Days into the month the monthly mail may still go, should the server have been down on the 1st. */
const MONTHLY_GRACE_DAYS = 3
/** Pages mailed per run, at most (the rest on the next run). */
const MONTHLY_BATCH = 50

export interface SlaCheckerDeps {
  db: Db
  sla: SlaService
  notifier: Pick<Notifier, 'emit'>
  outbox: OutboxWriter
  clock: Clock
  baseUrl: string
}

export class SlaChecker {
  private readonly repo: SlaRepo

  constructor(private readonly deps: SlaCheckerDeps) {
    this.repo = new SlaRepo(deps.db)
  }

  /** Both checks; returns how many alerts and monthly mails it recorded. */
  async run(): Promise<{ alerts: number; monthly: number }> {
    return { alerts: await this.checkBreaches(), monthly: await this.sendMonthlyReports() }
  }

  async checkBreaches(): Promise<number> {
    const now = this.deps.clock.now()
    let recorded = 0
    for (const page of await this.repo.pagesWithAlertTargets()) {
      const targets = (await this.repo.targetsOfPage(page.id)).filter((row) => row.breach_alerts === 1)
      for (const period of new Set<SlaPeriod>(targets.map((row) => row.period))) {
        const span = periodOf(now, period)
        const report = await this.deps.sla.reportOfPage(page, span)
        for (const component of report.components) {
          if (component.target?.period !== period || !component.target.breachAlerts || !component.budget) continue
          for (const threshold of BREACH_THRESHOLDS) {
            if (component.budget.usedPct < threshold) break
            const claimed = await this.deps.db.transaction().execute(async (trx) => {
              const repo = new SlaRepo(trx)
              const usedPct = Number.isFinite(component.budget!.usedPct) ? component.budget!.usedPct : 1e9
              if (!(await repo.claimAlert(component.id, span.start, threshold, usedPct, now))) return false
              await this.deps.notifier.emit(trx, {
                kind: 'sla.breach',
                pageId: page.id,
                componentId: component.id,
                thresholdPct: threshold,
                periodStart: span.start,
                targetPct: component.target!.targetPpm / 10_000,
                actualPct: (component.actualPpm ?? 0) / 10_000,
                at: now,
              })
              return true
            })
            if (claimed) recorded++
          }
        }
      }
    }
    return recorded
  }

  async sendMonthlyReports(): Promise<number> {
    if (!this.deps.outbox.mailEnabled) return 0
    const now = this.deps.clock.now()
    const month = periodOf(now, 'month')
    const opens = month.start + MONTHLY_HOUR_UTC * 3_600_000
    if (now < opens || now >= month.start + MONTHLY_GRACE_DAYS * 86_400_000) return 0
    const reported = previousMonth(now)
    let sent = 0
    for (const due of await this.repo.monthlyDue(reported.start, MONTHLY_BATCH)) {
      const report = await this.deps.sla.reportOfPage({ id: due.page_id, name: due.name, slug: due.slug }, reported)
      const pdf = await (await import('./pdf.ts')).renderSlaPdf(report)
      const claimed = await this.deps.db.transaction().execute(async (trx) => {
        if (!(await new SlaRepo(trx).claimMonthlyMail(due.page_id, reported.start, now))) return false
        await this.deps.outbox.enqueue(trx, [
          {
            target: `account:${due.owner_id}`,
            mail: {
              to: due.email,
              subject: `SLA report for ${due.name}: ${formatMonth(reported.start)}`,
              text: monthlyText(report, this.deps.baseUrl),
              attachments: [{ filename: `sla-${due.slug}-${dayString(reported.start).slice(0, 7)}.pdf`, contentType: 'application/pdf', contentBase64: pdf.toBase64() }],
            },
          },
        ])
        return true
      })
      if (claimed) sent++
    }
    return sent
  }
}

/** The mail's plain text: the figures per component and the policy, the PDF attached. */
export function monthlyText(report: SlaReport, baseUrl: string): string {
  const lines = [`SLA report for ${report.page.name}, ${formatDayRange(report.from, report.to - 86_400_000)} (UTC days).`, '']
  for (const c of report.components) {
    const target = c.target ? `target ${formatPpm(c.target.targetPpm)} %` : 'no target'
    const actual = c.actualPpm === null ? 'no data' : `${formatPpm(c.actualPpm)} %`
    const budget = c.budget ? `, budget used ${Number.isFinite(c.budget.usedPct) ? c.budget.usedPct.toFixed(2) : 'over'} %` : ''
    lines.push(`- ${c.name}: ${actual} (${target}), down ${formatDuration(c.downtimeMs)}${budget}`)
  }
  lines.push('', ...report.policies, '', `The full report is attached as a PDF. Generated ${formatDateTime(report.generatedAt)}.`)
  lines.push(`Turn these mails off in the page's SLA section: ${baseUrl}/user/pages/${report.page.id}/sla`)
  return lines.join('\n')
}
