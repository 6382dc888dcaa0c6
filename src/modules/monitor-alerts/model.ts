/** The monitor alerts API's schemas (named models of the OpenAPI document) and JSON shape. */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import { badRequest } from '../../lib/errors.ts'
import { parseRfc3339, toIsoOrNull } from '../../lib/time.ts'
import { MAX_REMIND_EVERY_MIN, MAX_REMINDERS } from './rules.ts'
import type { MonitorAlertInput, MonitorAlertSettings } from './service.ts'

export const MonitorAlertsBody = t.Object({
  channel_ids: t.Optional(
    t.Array(t.Integer({ minimum: 1, error: 'channel_ids must contain positive integer ids' }), {
      maxItems: 50,
      error: 'channel_ids must be an array of at most 50 channel ids',
      description: "The notification channels this monitor's alerts go to (replaces the set). Channels that take every monitor hear it anyway.",
    }),
  ),
  remind_every_minutes: t.Optional(
    t.Nullable(t.Integer({ minimum: 1, maximum: MAX_REMIND_EVERY_MIN, error: `remind_every_minutes must be a whole number from 1 to ${MAX_REMIND_EVERY_MIN}, or null`, description: 'While the monitor stays down, remind every this many minutes (null: no reminders)' })),
  ),
  remind_max: t.Optional(t.Integer({ minimum: 0, maximum: MAX_REMINDERS, error: `remind_max must be a whole number from 0 to ${MAX_REMINDERS}`, description: 'At most this many reminders per outage' })),
  snoozed_until: t.Optional(
    t.Nullable(t.String({ maxLength: 40, error: 'snoozed_until must be an RFC 3339 time, or null', description: 'RFC 3339: send nothing for this monitor until then (at most 30 days ahead); null ends a snooze' })),
  ),
})

const MonitorAlertsJson = t.Object({
  monitor_id: t.Integer(),
  channel_ids: t.Array(t.Integer(), { description: 'The channels the monitor picked' }),
  remind_every_minutes: t.Nullable(t.Integer({ description: 'Reminder interval while down (null: none)' })),
  remind_max: t.Integer({ description: 'Reminders per outage at most' }),
  snoozed_until: t.Nullable(t.String({ description: 'RFC 3339: the monitor is silent until then (null: not snoozed)' })),
})

export const monitorAlertModels = namedModels({ MonitorAlerts: MonitorAlertsJson })
export const MonitorAlertsRef = modelRef(monitorAlertModels, 'MonitorAlerts')

export function monitorAlertsJson(settings: MonitorAlertSettings): Static<typeof MonitorAlertsJson> {
  return {
    monitor_id: settings.monitorId,
    channel_ids: settings.channelIds,
    remind_every_minutes: settings.remindEveryMinutes,
    remind_max: settings.remindMax,
    snoozed_until: toIsoOrNull(settings.snoozedUntil),
  }
}

/** The body as the service takes it (times as epoch ms). */
export function monitorAlertInput(body: Static<typeof MonitorAlertsBody>): MonitorAlertInput {
  const { snoozed_until, ...rest } = body
  if (snoozed_until === undefined || snoozed_until === null) return { ...rest, ...(snoozed_until === null ? { snoozed_until: null } : {}) }
  const until = parseRfc3339(snoozed_until)
  if (until === undefined) throw badRequest('snoozed_until must be an RFC 3339 time such as 2026-12-01T08:00:00Z, or null')
  return { ...rest, snoozed_until: until }
}
