/** Which alert a monitor's state change makes, and the limits of its settings (pure). */
import type { MonitorEventKind } from '../notify/contract.ts'

export const MAX_REMIND_EVERY_MIN = 7 * 24 * 60
export const MAX_REMINDERS = 100
/** A snooze lasts at most this long. */
export const MAX_SNOOZE_MS = 30 * 24 * 3_600_000

/**
 * The alert of a change from `from` to `to`: every state but up alerts on entering it; up alerts
 * only after one of them (a new monitor's first good check says nothing); pending never alerts, nor
 * does unreachable (a parent is down: the parent's alert tells it). Coming back from unreachable,
 * up alerts only when this outage alerted (`alerted`: the child was down before its parent).
 */
export function alertKindOf(from: string, to: string, alerted = false): MonitorEventKind | null {
  switch (to) {
    case 'down':
      return 'monitor.down'
    case 'degraded':
      return 'monitor.degraded'
    case 'misconfigured':
      return 'monitor.misconfigured'
    case 'up':
      return from === 'down' || from === 'degraded' || from === 'misconfigured' || (from === 'unreachable' && alerted) ? 'monitor.up' : null
    default:
      return null
  }
}

/** Whether a reminder is due: still down, reminders on and left, the interval past, not snoozed. */
export function reminderDue(
  alert: { remind_every_min: number | null; remind_max: number; reminders_sent: number; last_alert_at: number | null; snoozed_until: number | null },
  now: number,
): boolean {
  if (alert.remind_every_min === null || alert.last_alert_at === null) return false
  if (alert.reminders_sent >= alert.remind_max) return false
  if (alert.snoozed_until !== null && alert.snoozed_until > now) return false
  return now >= alert.last_alert_at + alert.remind_every_min * 60_000
}
