/** SQL of the email-auth reports: the last answered report per monitor. */
import type { Selectable } from 'kysely'
import type { Db } from '../../db/client.ts'
import type { EmailAuthReportsTable } from './tables.ts'

export type EmailAuthReportRow = Selectable<EmailAuthReportsTable>

export class EmailAuthRepo {
  constructor(private readonly db: Db) {}

  find(monitorId: number): Promise<EmailAuthReportRow | undefined> {
    return this.db.selectFrom('email_auth_reports').selectAll().where('monitor_id', '=', monitorId).executeTakeFirst()
  }

  async save(row: EmailAuthReportRow): Promise<void> {
    await this.db
      .insertInto('email_auth_reports')
      .values(row)
      .onConflict((oc) => oc.column('monitor_id').doUpdateSet({ domain: row.domain, summary: row.summary, report_json: row.report_json, checked_at: row.checked_at, changed_at: row.changed_at }))
      .execute()
  }
}
