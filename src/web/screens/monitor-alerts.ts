/**
 * A monitor's alerts (views in views/monitor-alerts.ts), on the service the management API calls
 * (MonitorAlertsService):
 *
 *   GET  /user/monitors/:id/alerts   the channels it alerts, reminders and the snooze
 *   POST /user/monitors/:id/alerts   save them (errors beside their fields, nothing changed)
 */
import { Elysia, t } from 'elysia'
import type { Owner } from '../../modules/accounts/service.ts'
import type { MonitorAlertInput } from '../../modules/monitor-alerts/service.ts'
import { badRequest } from '../../lib/errors.ts'
import { emptyForm, errorStatus, formFields, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { alertValues, monitorAlertsView, type AlertChannelChoice } from '../views/monitor-alerts.ts'
import { monitorPath, monitorsCrumbs } from '../views/monitors.ts'
import { listValues } from './form-lists.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const LOOK = { head: '<link rel="stylesheet" href="/static/user/monitors.css">' }

/** The form as the service's input; an unreadable number is an error on its field. */
function readAlertForm(body: unknown, now: number): { input?: MonitorAlertInput; state: FormState } {
  const fields = formFields(body)
  const ids = listValues(body, 'channel_ids')
  const state: FormState = { values: { ...fields, channel_ids: ids.join(',') }, errors: {} }
  const whole = (name: string, raw: string | undefined) => {
    const text = (raw ?? '').trim()
    if (text === '') return null
    if (!/^\d{1,7}$/.test(text)) state.errors[name] = `${name} must be a whole number`
    return Number(text)
  }
  const every = whole('remind_every_minutes', fields.remind_every_minutes)
  const max = whole('remind_max', fields.remind_max)
  if (ids.some((id) => !/^\d{1,15}$/.test(id))) state.errors.channel_ids = 'channel_ids must hold channel ids'
  const snooze = fields.snooze ?? 'keep'
  const input: MonitorAlertInput = { channel_ids: ids.map(Number), remind_every_minutes: every, remind_max: max ?? 0 }
  if (snooze === 'end') input.snoozed_until = null
  else if (/^\d{1,6}$/.test(snooze)) input.snoozed_until = now + Number(snooze) * 60_000
  else if (snooze !== 'keep') state.errors.snooze = 'snooze must be one of the choices'
  return Object.keys(state.errors).length > 0 ? { state } : { input, state }
}

export function monitorAlertScreens(deps: ScreenDeps<'accounts' | 'clock' | 'monitors' | 'channels' | 'monitorAlerts'>) {
  const { services, config } = deps
  const { monitors, channels, monitorAlerts } = services
  const screen = screens({ accounts: services.accounts, config })

  async function channelChoices(user: Owner): Promise<AlertChannelChoice[]> {
    return (await channels.list(user)).map((c) => ({ id: c.id, name: c.name, type: c.type, allMonitors: c.allMonitors }))
  }

  async function show(user: Owner, monitorId: number, render: ScreenContext['render'], form?: FormState, status?: number): Promise<Response> {
    const monitor = await monitors.get(user, monitorId)
    const settings = await monitorAlerts.get(user, monitorId)
    const name = monitor.definition.name
    const body = monitorAlertsView({ monitorId, monitorName: name, settings, channels: await channelChoices(user), form: form ?? emptyForm(alertValues(settings)) })
    return render({ title: `Alerts: ${name}`, crumbs: monitorsCrumbs({ label: name, href: monitorPath(monitorId) }, { label: 'Alerts' }), ...LOOK }, body, status)
  }

  return new Elysia()
    .get('/user/monitors/:id/alerts', screen(async ({ user, params, render }) => show(user, idParam(params.id), render)), {
      params: IdPath,
      response: { 200: HtmlResponse, 404: HtmlResponse },
      detail: detail('A monitor: its alerts, reminders and snooze'),
    })
    .post(
      '/user/monitors/:id/alerts',
      screen(async ({ user, params, body, render, redirect }) => {
        const id = idParam(params.id)
        const { input, state } = readAlertForm(body, services.clock.now())
        if (!input) return show(user, id, render, state, 400)
        try {
          if (input.remind_every_minutes === null && (input.remind_max ?? 0) > 0) throw badRequest('remind_every_minutes is needed for reminders (or set remind_max to 0)')
          await monitorAlerts.update(user, id, input)
        } catch (error) {
          return show(user, id, render, serviceErrorState(error, state), errorStatus(error))
        }
        return redirect(monitorPath(id), 'Alerts saved.')
      }),
      { params: IdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse }, detail: detail("Save a monitor's alerts (form post)") },
    )
}

