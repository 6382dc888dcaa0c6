/**
 * After each email-auth run, in the recorder's transaction: keep the report, and when its summary
 * (each part's status) differs from the last answered one for the same domain, emit
 * `email_auth.changed` through the notifier in that same transaction. A run whose DNS failed even
 * after the retries claims nothing: the last report stays and nothing is emitted. The first report
 * of a domain is the baseline, not a change.
 */
import type { Db } from '../../db/client.ts'
import type { MonitorRow } from '../monitors/run/index.ts'
import type { CheckResult } from '../monitors/kinds/index.ts'
import type { Notifier } from '../notify/contract.ts'
import { EmailAuthRepo } from './repo.ts'

export function emailAuthResultHook(notifier: Pick<Notifier, 'emit'>) {
  return async (db: Db, monitor: Pick<MonitorRow, 'id' | 'type' | 'owner_id' | 'page_id' | 'target'>, result: CheckResult, at: number): Promise<void> => {
    if (monitor.type !== 'email_auth') return
    const details = result.details
    if (!details || typeof details.report !== 'string' || typeof details.summary !== 'string' || details.dns_error === true) return
    const repo = new EmailAuthRepo(db)
    const domain = String(monitor.target ?? '').toLowerCase()
    const previous = await repo.find(monitor.id)
    const sameDomain = previous?.domain === domain
    const changed = sameDomain && previous.summary !== details.summary
    await repo.save({ monitor_id: monitor.id, domain, summary: details.summary, report_json: details.report, checked_at: at, changed_at: sameDomain && !changed ? previous.changed_at : at })
    if (changed) {
      await notifier.emit(db, { kind: 'email_auth.changed', pageId: monitor.page_id, ownerId: monitor.owner_id, monitorId: monitor.id, domain, summary: `${previous.summary} → ${details.summary}`, at })
    }
  }
}
