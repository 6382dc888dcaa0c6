/**
 * Corrections of a component's status history (pure): the owner says what status a span [from, to)
 * really had, with a reason. The changes inside the span are replaced by one change to that status
 * at `from` (unless it already held then) and, at `to`, one back to the status that was in force
 * there (unless a change already stands at `to`, or it is the same status). So the history before
 * and after the span, and the component's current status, stay exactly as they were: a correction
 * repairs figures (uptime, bars, SLA, analytics), it never announces anything.
 */
import { badRequest } from '../../lib/errors.ts'
import { parseText } from '../../lib/text.ts'
import { parseRfc3339, toIso } from '../../lib/time.ts'
import type { ComponentStatus } from './tables.ts'

export const CORRECTION_STATUSES: readonly ComponentStatus[] = ['up', 'degraded', 'partial', 'down']
export const MAX_CORRECTION_REASON = 500

export interface StatusChangeAt {
  status: ComponentStatus
  at: number
}

export interface CorrectionInput {
  from: string
  to: string
  status: string
  reason: string
}

export interface CorrectionSpan {
  from: number
  to: number
  status: ComponentStatus
  reason: string
}

/** Validates a correction; throws a 400 naming the first bad field. Spans must lie in the past, from before to. */
export function parseCorrection(input: CorrectionInput, now: number): CorrectionSpan {
  const from = parseRfc3339(input.from)
  if (from === undefined) throw badRequest('from must be an RFC 3339 date-time with offset')
  const to = parseRfc3339(input.to)
  if (to === undefined) throw badRequest('to must be an RFC 3339 date-time with offset')
  if (to <= from) throw badRequest('to must be after from')
  if (to > now) throw badRequest(`to must not be in the future (now is ${toIso(now)})`)
  if (!(CORRECTION_STATUSES as readonly string[]).includes(input.status)) throw badRequest(`status must be one of ${CORRECTION_STATUSES.join(', ')}`)
  const reason = parseText('reason', input.reason, { max: MAX_CORRECTION_REASON, multiline: true })
  return { from, to, status: input.status as ComponentStatus, reason }
}

/**
 * The changes that replace those inside the span. `before`: the change in force when the span
 * begins (none when the span starts at the first recorded change); `inside`: the changes in
 * [from, to), oldest first; `changeAtTo`: a change is recorded exactly at `to` (it stays).
 */
export function correctionEntries(span: Pick<CorrectionSpan, 'from' | 'to' | 'status'>, before: StatusChangeAt | undefined, inside: readonly StatusChangeAt[], changeAtTo: boolean): StatusChangeAt[] {
  const entries: StatusChangeAt[] = []
  if (before?.status !== span.status) entries.push({ status: span.status, at: span.from })
  const inForceAtTo = inside.at(-1)?.status ?? before?.status
  if (!changeAtTo && inForceAtTo !== undefined && inForceAtTo !== span.status) entries.push({ status: inForceAtTo, at: span.to })
  return entries
}
