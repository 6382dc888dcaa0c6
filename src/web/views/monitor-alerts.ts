/**
 * A monitor's alerts screen (pure): the channels its down, up, degraded and misconfigured alerts go
 * to, reminders while it stays down, and a snooze; and the one-line summary on the monitor's screen.
 */
import { html } from '../../lib/html.ts'
import { CHANNEL_TYPE_LABELS, type ChannelType } from '../../modules/channels/types.ts'
import type { MonitorAlertSettings } from '../../modules/monitor-alerts/service.ts'
import { errorSummary, fieldErrorText, selectField, textField, type FormState } from '../kit/forms.ts'
import { formatTime, monitorPath } from './monitors.ts'

export interface AlertChannelChoice {
  id: number
  name: string
  type: ChannelType
  allMonitors: boolean
}

const LABELS = { channel_ids: 'Channels', remind_every_minutes: 'Remind every (minutes)', remind_max: 'At most (reminders)', snooze: 'Snooze' }

/** The snooze choices: minutes from now, `keep` as it is, `end` to end it. */
export const SNOOZE_CHOICES = [
  { value: 'keep', label: 'Leave as it is' },
  { value: '60', label: 'For 1 hour' },
  { value: '240', label: 'For 4 hours' },
  { value: '1440', label: 'For 1 day' },
  { value: '10080', label: 'For 7 days' },
  { value: 'end', label: 'End the snooze' },
] as const

export const alertsPath = (monitorId: number) => `${monitorPath(monitorId)}/alerts`

export function alertValues(settings: MonitorAlertSettings): Record<string, string> {
  return {
    channel_ids: settings.channelIds.join(','),
    remind_every_minutes: settings.remindEveryMinutes === null ? '' : String(settings.remindEveryMinutes),
    remind_max: String(settings.remindMax),
    snooze: 'keep',
  }
}

/** "Snoozed until …" or where the alerts go, for the monitor's screen. */
export function alertsSummary(monitorId: number, settings: MonitorAlertSettings, channels: readonly AlertChannelChoice[]): string {
  const picked = channels.filter((c) => c.allMonitors || settings.channelIds.includes(c.id))
  const where = picked.length === 0 ? 'no channel: this monitor alerts nobody' : picked.map((c) => c.name).join(', ')
  const snooze = settings.snoozedUntil === null ? '' : html`<p class="snoozed" role="status"><strong>Snoozed</strong> until <time datetime="${new Date(settings.snoozedUntil).toISOString()}">${formatTime(settings.snoozedUntil)}</time>: no alerts or reminders until then.</p>`
  const reminders = settings.remindEveryMinutes === null || settings.remindMax === 0 ? 'no reminders' : `reminders every ${settings.remindEveryMinutes} min while down, at most ${settings.remindMax}`
  return html`<section class="card" aria-labelledby="alerts-heading"><h2 id="alerts-heading">Alerts</h2>
!${snooze}
<p>Alerts go to ${where}; ${reminders}.</p>
<div class="actions"><a class="button secondary" href="${alertsPath(monitorId)}">Alerts and snooze</a></div>
</section>`
}

export function monitorAlertsView(d: { monitorId: number; monitorName: string; settings: MonitorAlertSettings; channels: readonly AlertChannelChoice[]; form: FormState }): string {
  const ticked = new Set((d.form.values.channel_ids ?? '').split(',').filter(Boolean))
  const error = fieldErrorText(d.form, 'channel_ids', LABELS.channel_ids)
  const boxes = d.channels.map((c) =>
    c.allMonitors
      ? html`<li><input type="checkbox" id="f-channel-${String(c.id)}" checked disabled> <label for="f-channel-${String(c.id)}">${c.name} (${CHANNEL_TYPE_LABELS[c.type]}) — takes every monitor</label></li>`
      : html`<li><input type="checkbox" id="f-channel-${String(c.id)}" name="channel_ids" value="${String(c.id)}"!${ticked.has(String(c.id)) ? ' checked' : ''}> <label for="f-channel-${String(c.id)}">${c.name} (${CHANNEL_TYPE_LABELS[c.type]})</label></li>`,
  )
  const snoozed = d.settings.snoozedUntil === null ? html`<p class="hint">Not snoozed.</p>` : html`<p class="snoozed" role="status"><strong>Snoozed</strong> until <time datetime="${new Date(d.settings.snoozedUntil).toISOString()}">${formatTime(d.settings.snoozedUntil)}</time>.</p>`
  return html`<h1>Alerts: ${d.monitorName}</h1>
<p>When this monitor goes down, comes back up, turns degraded or cannot run, the channels below get one message; when it feeds a component, what the outage causes (the component's status, the automatic incident) comes in that same message.</p>
<form method="post" action="${alertsPath(d.monitorId)}" class="card" novalidate>
  !${errorSummary(d.form, LABELS)}
  <fieldset class="field!${error ? ' has-error' : ''}" id="f-channel_ids"!${error ? ' aria-describedby="f-channel_ids-error"' : ''}>
    <legend>Channels</legend>
    !${d.channels.length === 0 ? html`<p class="hint">You have no notification channels yet: <a href="/user/notifications">add one</a>.</p>` : html`<ul class="choices">!${boxes.join('')}</ul>`}
    !${error ? html`<p class="field-error" id="f-channel_ids-error">${error}</p>` : ''}
  </fieldset>
  <fieldset><legend>Reminders while down</legend>
    !${textField({ name: 'remind_every_minutes', label: LABELS.remind_every_minutes, state: d.form, type: 'number', hint: 'Empty: no reminders.' })}
    !${textField({ name: 'remind_max', label: LABELS.remind_max, state: d.form, type: 'number', hint: 'Per outage.' })}
  </fieldset>
  <fieldset><legend>Snooze</legend>
    !${snoozed}
    !${selectField({ name: 'snooze', label: LABELS.snooze, state: d.form, options: SNOOZE_CHOICES, hint: 'A snoozed monitor sends no alert and no reminder; its component and incidents still notify as usual.' })}
  </fieldset>
  <div class="actions"><button type="submit">Save alerts</button> <a class="button secondary" href="${monitorPath(d.monitorId)}">Back to the monitor</a></div>
</form>`
}

