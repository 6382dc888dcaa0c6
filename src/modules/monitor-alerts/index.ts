/** A monitor's alerts in the management API: the channels it picked, reminders and the snooze. */
import { Elysia, t } from 'elysia'
import { errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { monitorAlertInput, monitorAlertModels, MonitorAlertsBody, monitorAlertsJson, MonitorAlertsRef } from './model.ts'
import type { MonitorAlertsService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Monitors'], summary, description, security: apiKeySecurity })
const one = t.Object({ data: MonitorAlertsRef })

export function monitorAlertsRoutes(deps: { accounts: AccountsService; alerts: MonitorAlertsService }) {
  const { alerts } = deps
  return new Elysia({ name: 'monitor-alerts', prefix: '/user/api/v1/monitors' })
    .model(sharedModels)
    .model(monitorAlertModels)
    .use(ownerAuth(deps.accounts))
    .get('/:id/alerts', async ({ owner, params }) => ({ data: monitorAlertsJson(await alerts.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail(
        "A monitor's alerts",
        'The channels its monitor.down, monitor.up, monitor.degraded and monitor.misconfigured events go to, its reminders while down, and its snooze.',
      ),
    })
    .patch('/:id/alerts', async ({ owner, params, body }) => ({ data: monitorAlertsJson(await alerts.update(owner, params.id, monitorAlertInput(body))) }), {
      params: IdParams,
      body: MonitorAlertsBody,
      response: { 200: one, ...errorResponses },
      detail: detail(
        "Change a monitor's alerts",
        'Fields left out keep their value; `channel_ids` replaces the set (each must be one of your channels). A snooze silences the monitor\'s own alerts and reminders until `snoozed_until` (at most 30 days); its component and incidents still notify as before.',
      ),
    })
}
