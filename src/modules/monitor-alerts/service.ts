/**
 * A monitor's own alerts: its state changes become monitor.* events (held under the cause its
 * component's events share, so one outage is one message per channel), reminders while it stays
 * down, and a snooze that keeps it quiet until a time. The channels a monitor picked, and those
 * that take every monitor of the owner, hear them (channels/service.ts fan-out).
 */
import type { Db } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import type { StateChangeHook } from '../monitors/run/index.ts'
import type { NotifyEvent } from '../notify/contract.ts'
import { alertKindOf, MAX_REMIND_EVERY_MIN, MAX_REMINDERS, MAX_SNOOZE_MS, reminderDue } from './rules.ts'

export interface AlertSink {
  emit(db: Db, event: NotifyEvent): Promise<void>
}

export interface MonitorAlertSettings {
  monitorId: number
  channelIds: number[]
  remindEveryMinutes: number | null
  remindMax: number
  /** Null, or a time after now: nothing is sent for the monitor until then. */
  snoozedUntil: number | null
}

export interface MonitorAlertInput {
  channel_ids?: number[]
  remind_every_minutes?: number | null
  remind_max?: number
  /** Epoch ms, or null to end a snooze. */
  snoozed_until?: number | null
}

export class MonitorAlertsService {
  constructor(private readonly deps: { db: Db; notifier: AlertSink; clock: Clock }) {}

  /** In the recorder's transaction: the outage's bookkeeping, and the alert unless snoozed. */
  readonly stateChanged: StateChangeHook = async (db, change) => {
    const row = await db.selectFrom('monitor_alerts').selectAll().where('monitor_id', '=', change.monitorId).executeTakeFirst()
    // An outage runs from leaving up (or pending) until up again; its start names its alert.
    const bad = change.to !== 'up' && change.to !== 'pending'
    const kind = alertKindOf(change.from, change.to, row?.outage_since != null && row.last_alert_at != null)
    const outageSince = bad ? (row?.outage_since ?? change.at) : null
    const since = kind === 'monitor.up' ? (row?.outage_since ?? change.previousSince) : (outageSince ?? change.at)
    const values = {
      outage_since: outageSince,
      // Set by every alert of the outage (down, degraded, misconfigured), snoozed or not: reminders count from it.
      last_alert_at: kind !== null && kind !== 'monitor.up' ? change.at : bad ? (row?.last_alert_at ?? null) : null,
      reminders_sent: change.to === 'down' ? 0 : (row?.reminders_sent ?? 0),
    }
    await db
      .insertInto('monitor_alerts')
      .values({ monitor_id: change.monitorId, remind_every_min: null, remind_max: 0, snoozed_until: null, ...values })
      .onConflict((oc) => oc.column('monitor_id').doUpdateSet(values))
      .execute()
    if (kind === null) return
    if (row?.snoozed_until != null && row.snoozed_until > change.at) return
    await this.deps.notifier.emit(db, {
      kind, pageId: change.pageId, ownerId: change.ownerId, monitorId: change.monitorId, from: change.from, to: change.to, since, at: change.at, cause: change.cause,
    })
  }

  /** Sends the reminders that are due (a leader job); answers how many. */
  async remind(limit = 500): Promise<number> {
    const now = this.deps.clock.now()
    const rows = await this.deps.db
      .selectFrom('monitor_alerts')
      .innerJoin('monitors', 'monitors.id', 'monitor_alerts.monitor_id')
      .select(['monitor_alerts.monitor_id', 'monitor_alerts.remind_every_min', 'monitor_alerts.remind_max', 'monitor_alerts.reminders_sent', 'monitor_alerts.last_alert_at', 'monitor_alerts.snoozed_until', 'monitor_alerts.outage_since', 'monitors.owner_id', 'monitors.page_id', 'monitors.state_since'])
      .where('monitors.state', '=', 'down')
      .where('monitors.enabled', '=', 1)
      .where('monitor_alerts.remind_every_min', 'is not', null)
      .where('monitor_alerts.last_alert_at', 'is not', null)
      .whereRef('monitor_alerts.reminders_sent', '<', 'monitor_alerts.remind_max')
      .orderBy('monitor_alerts.last_alert_at')
      .limit(limit)
      .execute()
    let sent = 0
    for (const row of rows) {
      if (!reminderDue(row, now)) continue
      const reminder = row.reminders_sent + 1
      await this.deps.db.transaction().execute(async (trx) => {
        // Claimed by its count: two leaders in a row never send the same reminder twice.
        const claimed = await trx
          .updateTable('monitor_alerts')
          .set({ reminders_sent: reminder, last_alert_at: now })
          .where('monitor_id', '=', row.monitor_id)
          .where('reminders_sent', '=', row.reminders_sent)
          .executeTakeFirst()
        if (Number(claimed.numUpdatedRows) !== 1) return
        await this.deps.notifier.emit(trx, {
          kind: 'monitor.down', pageId: row.page_id, ownerId: row.owner_id, monitorId: row.monitor_id, from: 'down', to: 'down', since: row.outage_since ?? row.state_since, at: now, reminder,
        })
        sent++
      })
    }
    return sent
  }

  /** The channels each of the owner's monitors picked, by monitor id (monitors without any left out). */
  async channelsOfMonitors(owner: Owner): Promise<Map<number, number[]>> {
    const rows = await this.deps.db
      .selectFrom('monitor_alert_channels')
      .innerJoin('monitors', 'monitors.id', 'monitor_alert_channels.monitor_id')
      .select(['monitor_alert_channels.monitor_id', 'monitor_alert_channels.channel_id'])
      .where('monitors.owner_id', '=', owner.id)
      .orderBy('monitor_alert_channels.channel_id')
      .execute()
    const out = new Map<number, number[]>()
    for (const row of rows) out.set(row.monitor_id, [...(out.get(row.monitor_id) ?? []), row.channel_id])
    return out
  }

  async get(owner: Owner, monitorId: number): Promise<MonitorAlertSettings> {
    await this.ownMonitor(owner, monitorId)
    const [row, channels] = await Promise.all([
      this.deps.db.selectFrom('monitor_alerts').selectAll().where('monitor_id', '=', monitorId).executeTakeFirst(),
      this.deps.db.selectFrom('monitor_alert_channels').select('channel_id').where('monitor_id', '=', monitorId).orderBy('channel_id').execute(),
    ])
    const now = this.deps.clock.now()
    return {
      monitorId,
      channelIds: channels.map((c) => c.channel_id),
      remindEveryMinutes: row?.remind_every_min ?? null,
      remindMax: row?.remind_max ?? 0,
      snoozedUntil: row?.snoozed_until != null && row.snoozed_until > now ? row.snoozed_until : null,
    }
  }

  /** Changes what is given; a field left out keeps its value. Bad input changes nothing. */
  async update(owner: Owner, monitorId: number, input: MonitorAlertInput): Promise<MonitorAlertSettings> {
    await this.ownMonitor(owner, monitorId)
    const now = this.deps.clock.now()
    const changes: { remind_every_min?: number | null; remind_max?: number; snoozed_until?: number | null } = {}
    if (input.remind_every_minutes !== undefined) {
      const every = input.remind_every_minutes
      if (every !== null && (!Number.isInteger(every) || every < 1 || every > MAX_REMIND_EVERY_MIN)) throw badRequest(`remind_every_minutes must be a whole number from 1 to ${MAX_REMIND_EVERY_MIN}, or null for no reminders`)
      changes.remind_every_min = every
    }
    if (input.remind_max !== undefined) {
      if (!Number.isInteger(input.remind_max) || input.remind_max < 0 || input.remind_max > MAX_REMINDERS) throw badRequest(`remind_max must be a whole number from 0 to ${MAX_REMINDERS}`)
      changes.remind_max = input.remind_max
    }
    if (input.snoozed_until !== undefined) {
      const until = input.snoozed_until
      if (until !== null && (!Number.isFinite(until) || until <= now)) throw badRequest('snoozed_until must be a time in the future, or null to end the snooze')
      if (until !== null && until > now + MAX_SNOOZE_MS) throw badRequest('a snooze lasts at most 30 days')
      changes.snoozed_until = until
    }
    let channelIds: number[] | undefined
    if (input.channel_ids !== undefined) {
      channelIds = [...new Set(input.channel_ids)]
      if (channelIds.some((id) => !Number.isSafeInteger(id) || id < 1)) throw badRequest('channel_ids must hold channel ids')
      const found = channelIds.length === 0 ? [] : await this.deps.db.selectFrom('notification_channels').select('id').where('owner_id', '=', owner.id).where('id', 'in', channelIds).execute()
      const known = new Set(found.map((c) => c.id))
      const missing = channelIds.find((id) => !known.has(id))
      if (missing !== undefined) throw badRequest(`channel_ids holds ${missing}, which is not one of your notification channels`)
    }
    await this.deps.db.transaction().execute(async (trx) => {
      if (Object.keys(changes).length > 0) {
        await trx
          .insertInto('monitor_alerts')
          .values({ monitor_id: monitorId, remind_every_min: null, remind_max: 0, snoozed_until: null, outage_since: null, last_alert_at: null, reminders_sent: 0, ...changes })
          .onConflict((oc) => oc.column('monitor_id').doUpdateSet(changes))
          .execute()
      }
      if (channelIds !== undefined) {
        await trx.deleteFrom('monitor_alert_channels').where('monitor_id', '=', monitorId).execute()
        if (channelIds.length > 0) await trx.insertInto('monitor_alert_channels').values(channelIds.map((channel_id) => ({ monitor_id: monitorId, channel_id }))).execute()
      }
    })
    return this.get(owner, monitorId)
  }

  private async ownMonitor(owner: Owner, monitorId: number): Promise<void> {
    const row = await this.deps.db.selectFrom('monitors').select('owner_id').where('id', '=', monitorId).executeTakeFirst()
    if (!row || row.owner_id !== owner.id) throw notFound()
  }
}
