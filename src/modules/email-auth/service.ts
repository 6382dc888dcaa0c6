/** The last answered report of an owner's email-auth monitor (what the API and the detail screen show). */
import { notFound } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import type { MonitorsService } from '../monitors/service.ts'
import type { EmailAuthReport } from '../monitors/kinds/index.ts'
import type { EmailAuthRepo } from './repo.ts'

export interface StoredEmailAuthReport {
  report: EmailAuthReport
  summary: string
  checkedAt: number
  changedAt: number
}

export class EmailAuthService {
  constructor(
    private readonly repo: EmailAuthRepo,
    private readonly monitors: Pick<MonitorsService, 'get'>,
  ) {}

  /** Null until the first run answered; 404 for another owner's monitor or one of another type. */
  async lastReport(owner: Owner, monitorId: number): Promise<StoredEmailAuthReport | null> {
    const monitor = await this.monitors.get(owner, monitorId)
    if (monitor.definition.type !== 'email_auth') throw notFound('not an email_auth monitor')
    const row = await this.repo.find(monitorId)
    // A report of the domain the monitor watched before a change of target is not this domain's.
    if (!row || row.domain !== (monitor.definition.target ?? '').toLowerCase()) return null
    return { report: JSON.parse(row.report_json) as EmailAuthReport, summary: row.summary, checkedAt: row.checked_at, changedAt: row.changed_at }
  }
}
