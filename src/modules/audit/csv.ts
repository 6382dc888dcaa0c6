/**
 * The audit log as CSV (RFC 4180, CRLF line ends), newest row first. Text cells a spreadsheet would
 * run as a formula (starting with = + - @, TAB or CR) get a leading apostrophe.
 */
import { toIso } from '../../lib/time.ts'
import type { AuditEntry } from './service.ts'

export const AUDIT_CSV_HEADER = ['id', 'created_at', 'actor_kind', 'actor_user_id', 'actor', 'page_id', 'action', 'object_type', 'object_id', 'fields', 'address', 'client'] as const

/** A text cell made safe for spreadsheets, then quoted when it holds a separator, quote or line end. */
export function csvCell(value: string | number | null): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = [AUDIT_CSV_HEADER.join(',')]
  for (const e of entries) {
    lines.push(
      [e.id, toIso(e.createdAt), e.actorKind, e.actorUserId, e.actorLabel, e.pageId, e.action, e.objectType, e.objectId, e.fields.join(' '), e.address, e.client]
        .map(csvCell)
        .join(','),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}
