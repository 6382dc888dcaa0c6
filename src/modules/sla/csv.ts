/**
 * The SLA report as CSV (RFC 4180, CRLF line ends): one row per component per UTC day, with the
 * component's target and policy on every row so each row stands alone in a spreadsheet. Text cells
 * a spreadsheet would run as a formula (starting with = + - @, TAB or CR) get a leading apostrophe
 * (OWASP "CSV Injection"); numbers are written as numbers.
 */
import { describePolicy, formatPpm } from './compute.ts'
import { dayString } from './period.ts'
import type { SlaReport } from './service.ts'

export const CSV_HEADER = [
  'component',
  'date',
  'target_percent',
  'percent',
  'up_seconds',
  'degraded_seconds',
  'down_seconds',
  'maintenance_seconds',
  'level',
  'policy',
] as const

/** A text cell made safe for spreadsheets, then quoted when it holds a separator, quote or line end. */
export function csvCell(value: string | number | null): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

export function slaReportCsv(report: SlaReport): string {
  const lines = [CSV_HEADER.join(',')]
  const seconds = (ms: number) => Math.round(ms / 1000)
  for (const component of report.components) {
    const target = component.target ? formatPpm(component.target.targetPpm) : null
    const policy = describePolicy(component.policy)
    for (const day of component.strip) {
      lines.push(
        [
          csvCell(component.name),
          csvCell(dayString(day.start)),
          csvCell(target),
          csvCell(day.percent === null ? null : day.percent.toFixed(4)),
          csvCell(seconds(day.upMs)),
          csvCell(seconds(day.degradedMs)),
          csvCell(seconds(day.downMs)),
          csvCell(seconds(day.maintenanceMs)),
          csvCell(day.level),
          csvCell(policy),
        ].join(','),
      )
    }
  }
  return lines.join('\r\n') + '\r\n'
}
