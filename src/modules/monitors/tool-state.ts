/**
 * The SSL and DNSBL monitors' stored side: the last report per monitor and what was announced.
 * `recordToolReport` runs inside the recorder's transaction, so the report, the announced state
 * and the events' outbox rows (through the notifier's fan-outs) commit together or not at all.
 */
import type { Db } from '../../db/client.ts'
import type { NotifyEvent } from '../notify/contract.ts'
import { dnsblEvents, NOTHING_ANNOUNCED, sslEvents, type AnnouncedState, type MonitorRef } from './tool-events.ts'
import type { ToolReport } from './kinds/spec.ts'

/** What the recorder hands events to: the Notifier (services.notifier), or nothing in bare setups. */
export interface EventSink {
  emit(db: Db, event: NotifyEvent): Promise<void>
  /** The events of a cause were all emitted: they go out as one message per channel. */
  flush?(key: string): Promise<void>
}

export interface StoredToolReport {
  report: ToolReport
  checkedAt: number
}

export async function recordToolReport(trx: Db, report: ToolReport, monitor: MonitorRef, at: number, sink: EventSink | undefined): Promise<NotifyEvent[]> {
  const row = await trx.selectFrom('monitor_tool_states').selectAll().where('monitor_id', '=', monitor.monitorId).executeTakeFirst()
  const previous: AnnouncedState = row
    ? {
        certFingerprint: row.cert_fingerprint,
        certNotAfter: row.cert_not_after,
        expiryNotified: row.expiry_notified ? row.expiry_notified.split(',').map(Number) : [],
        listed: JSON.parse(row.listed_json) as string[],
      }
    : NOTHING_ANNOUNCED
  const { state, events } = report.kind === 'ssl' ? sslEvents(previous, report, monitor, at) : dnsblEvents(previous, report, monitor, at)
  const columns = {
    report_json: JSON.stringify(report),
    checked_at: at,
    cert_fingerprint: state.certFingerprint,
    cert_not_after: state.certNotAfter,
    expiry_notified: state.expiryNotified.join(','),
    listed_json: JSON.stringify(state.listed),
  }
  await trx
    .insertInto('monitor_tool_states')
    .values({ monitor_id: monitor.monitorId, ...columns })
    .onConflict((oc) => oc.column('monitor_id').doUpdateSet(columns))
    .execute()
  for (const event of events) await sink?.emit(trx, event)
  return events
}

export async function readToolReport(db: Db, monitorId: number): Promise<StoredToolReport | null> {
  const row = await db.selectFrom('monitor_tool_states').select(['report_json', 'checked_at']).where('monitor_id', '=', monitorId).executeTakeFirst()
  return row ? { report: JSON.parse(row.report_json) as ToolReport, checkedAt: row.checked_at } : null
}

/** A monitor pointed elsewhere starts over: nothing announced about the old target counts. */
export async function clearToolState(db: Db, monitorId: number): Promise<void> {
  await db.deleteFrom('monitor_tool_states').where('monitor_id', '=', monitorId).execute()
}
