/** The automatic-incidents API's schemas (named models of the OpenAPI document) and JSON shape. */
import { t, type Static } from 'elysia'
import { modelRef, namedModels } from '../../http/schemas.ts'
import { toIsoOrNull } from '../../lib/time.ts'
import { REOPEN_WINDOW_MS } from './rules.ts'
import type { PageAutomation } from './service.ts'

const flag = (field: string, description: string) => t.Optional(t.Boolean({ error: `${field} must be true or false`, description }))

export const AutomationBody = t.Object({
  auto_incidents: flag(
    'auto_incidents',
    'Auto Incidents: when a chosen component is confirmed down, an incident "<Component> is experiencing issues" opens in Investigating',
  ),
  auto_incident_notify: flag('auto_incident_notify', 'Auto Incident Notify: automatic incidents tell subscribers (opening and resolution)'),
  auto_resolve: flag('auto_resolve', 'Auto Resolve: when the component is confirmed up again, the automatic incident resolves with the recovery time and outage length'),
  component_ids: t.Optional(
    t.Array(t.Integer({ minimum: 1, error: 'component_ids must contain positive integer ids' }), {
      maxItems: 500,
      error: 'component_ids must be an array of at most 500 component ids',
      description: 'The components of this page to have automatic incidents on (replaces the set). Each counts against the plan limit.',
    }),
  ),
})

const ComponentAutomationJson = t.Object({
  id: t.Integer(),
  name: t.String(),
  monitored: t.Boolean({ description: 'A monitor watches the component; without one no automatic incident can open' }),
  enabled: t.Boolean({ description: 'Automatic incidents are on for this component' }),
  enabled_at: t.Nullable(t.String({ description: 'RFC 3339: when they were turned on (the plan keeps the oldest working)' })),
  active: t.Boolean({ description: 'Enabled and acting now' }),
  paused_reason: t.Nullable(
    t.Union([t.Literal('plan_limit'), t.Literal('page_off')], {
      description: 'plan_limit: beyond the plan limit (after a downgrade only the oldest N act); page_off: the page has Auto Incidents off',
    }),
  ),
})

const AutomationJson = t.Object({
  status_page_id: t.Integer(),
  auto_incidents: t.Boolean(),
  auto_incident_notify: t.Boolean(),
  auto_resolve: t.Boolean(),
  reopen_window_seconds: t.Integer({ description: 'A failure within this time after an automatic resolve reopens the same incident' }),
  components: t.Array(ComponentAutomationJson),
  plan: t.Object({
    name: t.String(),
    limit: t.Nullable(t.Integer({ description: 'Components with automatic incidents on, over all your pages (null: no limit)' })),
    used: t.Integer(),
  }),
})

export const autoIncidentModels = namedModels({ AutoIncidentSettings: AutomationJson })
export const AutoIncidentSettingsRef = modelRef(autoIncidentModels, 'AutoIncidentSettings')

export function automationJson(automation: PageAutomation): Static<typeof AutomationJson> {
  return {
    status_page_id: automation.pageId,
    auto_incidents: automation.autoIncidents,
    auto_incident_notify: automation.notify,
    auto_resolve: automation.autoResolve,
    reopen_window_seconds: REOPEN_WINDOW_MS / 1000,
    components: automation.components.map((c) => ({
      id: c.id,
      name: c.name,
      monitored: c.monitored,
      enabled: c.enabled,
      enabled_at: toIsoOrNull(c.enabledAt),
      active: c.active,
      paused_reason: c.pausedReason,
    })),
    plan: { name: automation.plan, limit: automation.limit, used: automation.used },
  }
}
