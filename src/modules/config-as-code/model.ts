/**
 * The configuration file (`lantern.yaml`, version 1) as a schema, built from the same request schemas
 * the API checks (a page's, a component's, a channel's, a monitor's, an SLA target's, the branding's,
 * the automatic incidents', a maintenance window's or series' and a template's body), with objects
 * named by stable keys instead of ids; and the plan and apply API's bodies and answers. The JSON
 * Schema published for editors is this schema.
 */
import { t, type Static, type TSchema } from 'elysia'
import { boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { CreateStatusPageBody } from '../status-pages/model.ts'
import { CreateComponentBody } from '../components/model.ts'
import { CreateChannelBody } from '../channels/model.ts'
import { CreateMonitorBody } from '../monitors/model.ts'
import { SlaTargetBody } from '../sla/model.ts'
import { AutomationBody } from '../auto-incidents/model.ts'
import { PALETTE_KEYS } from '../branding/palette.ts'
import { CreateMaintenanceBody, CreateMaintenanceSeriesBody } from '../maintenances/model.ts'
import { TemplateBody } from '../incidents/model.ts'
import { MAX_TEMPLATE_NAME, MAX_TITLE } from '../incidents/service.ts'
import { MAX_CONFIG_BYTES, type ConfigPlan } from './types.ts'

/** Where the JSON Schema of the file is served (public, cacheable). */
export const CONFIG_SCHEMA_PATH = '/schemas/lantern-config.v1.json'

const names = (what: string, description: string) =>
  t.Array(t.String({ minLength: 1, maxLength: 253 }), { maxItems: 1000, error: `${what} must be a list of names`, description })

const SlaEntry = t.Object(
  {
    ...SlaTargetBody.properties,
    target_percent: t.Number({ minimum: 50, maximum: 99.9999, error: 'target_percent must be a number from 50 to 99.9999', description: 'From 50 to 99.9999, at most 4 decimals' }),
  },
  {
    additionalProperties: false,
    error: 'sla must be an SLA target with target_percent',
    description: "The component's SLA target, as `PUT /user/api/v1/components/{id}/sla-target` takes it. Left out: kept as it is (removed with prune)",
  },
)

const ComponentEntry = t.Object(
  {
    name: CreateComponentBody.properties.name,
    type: CreateComponentBody.properties.type,
    group: CreateComponentBody.properties.group,
    description: CreateComponentBody.properties.description,
    sla: t.Optional(SlaEntry),
  },
  { additionalProperties: false, description: 'A component, named within its page; the list order is the order on the page' },
)

const hexColor = (key: string) => t.Optional(t.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', error: `palette.${key} must be a hex colour like #1f6feb`, description: `The ${key} colour (#rgb or #rrggbb)` }))

const BrandingEntry = t.Object(
  {
    palette: t.Optional(
      t.Object(Object.fromEntries(PALETTE_KEYS.map((key) => [key, hexColor(key)])) as Record<(typeof PALETTE_KEYS)[number], ReturnType<typeof hexColor>>, {
        additionalProperties: false,
        error: `palette must be an object of hex colours (${PALETTE_KEYS.join(', ')})`,
        description: "The page's colours; one left out is Lantern's own. Text must be readable on the background (4.5:1)",
      }),
    ),
  },
  { additionalProperties: false, error: 'branding must be an object with palette', description: "The page's branding colours, as `PATCH /user/api/v1/status-pages/{id}/branding` takes them. Left out: kept as they are (Lantern's own with prune)" },
)

const AutomaticIncidentsEntry = t.Object(
  {
    auto_incidents: AutomationBody.properties.auto_incidents,
    auto_incident_notify: AutomationBody.properties.auto_incident_notify,
    auto_resolve: AutomationBody.properties.auto_resolve,
    components: t.Optional(names('automatic_incidents.components', "The names of the page's components to have automatic incidents on; each counts against the plan's limit")),
  },
  {
    additionalProperties: false,
    error: 'automatic_incidents must be an object of auto_incidents, auto_incident_notify, auto_resolve and components',
    description: "The page's automatic-incident settings, as `PATCH /user/api/v1/status-pages/{id}/auto-incidents` takes them (a switch left out is off). Left out: kept as they are (all off with prune)",
  },
)

const maintenanceComponents = () => t.Optional(names('components', 'The names of the page\'s components it concerns; none: the whole page'))

const MaintenanceEntry = t.Object(
  {
    title: CreateMaintenanceBody.properties.title,
    start_at: CreateMaintenanceBody.properties.start_at,
    end_at: CreateMaintenanceBody.properties.end_at,
    message: CreateMaintenanceBody.properties.message,
    components: maintenanceComponents(),
    notify_subscribers: CreateMaintenanceBody.properties.notify_subscribers,
  },
  {
    additionalProperties: false,
    error: 'a maintenance window must have title, start_at and end_at',
    description: 'A one-off maintenance window, named by its title within its page, as `POST /user/api/v1/maintenances` takes it. Windows that are over are history: export leaves them out and apply leaves them alone',
  },
)

const { status_page_id: _seriesPage, component_ids: _seriesComponents, ...seriesRest } = CreateMaintenanceSeriesBody.properties
const RecurringMaintenanceEntry = t.Object(
  { ...seriesRest, components: maintenanceComponents() },
  {
    additionalProperties: false,
    error: 'a recurring maintenance must have title, time_zone, starts_on, start_time, duration_minutes and frequency',
    description: 'A recurring maintenance, named by its title within its page: its rule in its time zone, as `POST /user/api/v1/maintenance-series` takes it. Prune cancels one the file no longer names',
  },
)

const PageEntry = t.Object(
  {
    slug: t.String({ minLength: 1, maxLength: 200, error: 'slug must be a string of letters, digits and hyphens', description: 'The page\'s key: its address, unique on the instance' }),
    name: CreateStatusPageBody.properties.name,
    visibility: CreateStatusPageBody.properties.visibility,
    language: CreateStatusPageBody.properties.language,
    time_zone: CreateStatusPageBody.properties.time_zone,
    description: CreateStatusPageBody.properties.description,
    custom_domain: CreateStatusPageBody.properties.custom_domain,
    components: t.Optional(t.Array(ComponentEntry, { maxItems: 1000, error: 'components must be a list of components' })),
    branding: t.Optional(BrandingEntry),
    automatic_incidents: t.Optional(AutomaticIncidentsEntry),
    maintenance: t.Optional(t.Array(MaintenanceEntry, { maxItems: 1000, error: 'maintenance must be a list of maintenance windows' })),
    recurring_maintenance: t.Optional(t.Array(RecurringMaintenanceEntry, { maxItems: 200, error: 'recurring_maintenance must be a list of recurring maintenances' })),
  },
  { additionalProperties: false, description: 'A status page, named by its slug' },
)

const { type: channelType, name: channelName, page_ids: _pageIds, ...channelRest } = CreateChannelBody.properties
const ChannelEntry = t.Object(
  {
    name: channelName,
    type: channelType,
    ...channelRest,
    pages: t.Optional(names('pages', 'The slugs of the pages whose events it hears (with all_pages false)')),
  },
  {
    additionalProperties: false,
    description: 'A notification channel, named by its name. Secret settings are written as `${LANTERN_CHANNEL_<NAME>_<FIELD>}` and read from the environment (or the request\'s `secrets`) on apply',
  },
)

const { component_id: _componentId, status_page_id: _pageId, parents: _parents, ...monitorRest } = CreateMonitorBody.properties
const MonitorEntry = t.Object(
  {
    ...monitorRest,
    page: t.Optional(t.String({ minLength: 1, maxLength: 200, error: 'page must be a page slug', description: 'The slug of the page it belongs to (with component: the component\'s page)' })),
    component: t.Optional(t.String({ minLength: 1, maxLength: 100, error: 'component must be a component name', description: 'The name of the component (on `page`) whose status follows it' })),
    parents: t.Optional(names('parents', 'The names of the monitors it depends on')),
    alert_channels: t.Optional(names('alert_channels', 'The names of the channels its own alerts go to (besides channels that take every monitor)')),
  },
  { additionalProperties: false, description: 'A monitor, named by its name within the team; the fields are the monitors API\'s' },
)

const TemplateEntry = t.Object(
  {
    // The template API's fields; name and title are required to make one.
    name: boundedText('name', MAX_TEMPLATE_NAME),
    title: boundedText('title', MAX_TITLE),
    message: TemplateBody.properties.message,
  },
  {
    additionalProperties: false,
    error: 'a template must have name and title',
    description: 'An incident template, named by its name within the team, as `POST /user/api/v1/incident-templates` takes it; `{{component}}` and `{{page}}` are filled when an incident is opened from it',
  },
)

export const ConfigFileSchema = t.Object(
  {
    version: t.Literal(1, { error: 'version must be 1', description: 'The file format\'s version' }),
    pages: t.Optional(t.Array(PageEntry, { maxItems: 1000, error: 'pages must be a list of pages' })),
    channels: t.Optional(t.Array(ChannelEntry, { maxItems: 1000, error: 'channels must be a list of channels' })),
    monitors: t.Optional(t.Array(MonitorEntry, { maxItems: 10_000, error: 'monitors must be a list of monitors' })),
    templates: t.Optional(t.Array(TemplateEntry, { maxItems: 1000, error: 'templates must be a list of incident templates' })),
  },
  { additionalProperties: false, title: 'Lantern configuration, version 1', description: 'A team\'s configuration as code: what `lantern apply` makes so' },
)

export type ConfigFile = Static<typeof ConfigFileSchema>
export type PageEntry = Static<typeof PageEntry>
export type ComponentEntry = Static<typeof ComponentEntry>
export type ChannelEntry = Static<typeof ChannelEntry>
export type MonitorEntry = Static<typeof MonitorEntry>
export type SlaEntry = Static<typeof SlaEntry>
export type TemplateEntry = Static<typeof TemplateEntry>
export type MaintenanceEntry = Static<typeof MaintenanceEntry>
export type RecurringMaintenanceEntry = Static<typeof RecurringMaintenanceEntry>
export type BrandingEntry = Static<typeof BrandingEntry>
export type AutomaticIncidentsEntry = Static<typeof AutomaticIncidentsEntry>

/** Elysia's own keywords (its error texts, OpenAPI's `nullable` beside an explicit null type): no JSON Schema's. */
const NOT_JSON_SCHEMA = new Set(['error', 'nullable'])

/** The schema as a JSON Schema document (draft 2020-12). */
export function configJsonSchema(baseUrl: string): Record<string, unknown> {
  const strip = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(strip)
    if (schema === null || typeof schema !== 'object') return schema
    // Elysia's integers and booleans also take their spelling as a query string: a file has the value itself.
    const branches = (schema as { anyOf?: Array<Record<string, unknown>> }).anyOf
    const typed = branches?.find((branch) => branch.type === 'integer' || branch.type === 'boolean')
    if (branches?.length === 2 && typed && branches.some((branch) => branch.type === 'string' && branch !== typed)) return strip(typed)
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(schema)) if (!NOT_JSON_SCHEMA.has(key)) out[key] = strip(value)
    return out
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `${baseUrl}${CONFIG_SCHEMA_PATH}`, ...(strip(ConfigFileSchema as TSchema) as Record<string, unknown>) }
}

const fileText = t.String({
  maxLength: MAX_CONFIG_BYTES,
  error: `file must be the configuration as YAML or JSON text, at most ${MAX_CONFIG_BYTES} characters`,
  description: 'The configuration file, YAML or JSON, as text (what `lantern export` writes)',
  examples: ['version: 1\npages:\n  - slug: acme\n    name: Acme\n'],
})

export const PlanBody = t.Object({
  file: fileText,
  prune: t.Optional(t.Boolean({ error: 'prune must be true or false', description: 'Also delete what the file no longer names (pages, components, channels, monitors, templates, maintenance windows not over yet, recurring maintenance (cancelled); the SLA target, branding colours and automatic-incident settings of a page or component the file names without them). Default false' })),
  secrets: t.Optional(
    t.Record(t.String({ pattern: '^[A-Z_][A-Z0-9_]{0,127}$' }), t.String({ maxLength: 4096 }), {
      maxProperties: 500,
      error: 'secrets must be an object of NAME: value (upper-case names)',
      description: 'The values of the `${NAME}` references in the file (a CI pipeline passes its own environment\'s). The server\'s environment is never read. A reference without a value is a 400 and nothing is applied',
    }),
  ),
})

const ChangeJson = t.Object({
  action: t.Union([t.Literal('create'), t.Literal('update'), t.Literal('delete')]),
  kind: t.Union([t.Literal('page'), t.Literal('component'), t.Literal('channel'), t.Literal('monitor'), t.Literal('template'), t.Literal('maintenance'), t.Literal('recurring_maintenance'), t.Literal('sla_target'), t.Literal('branding'), t.Literal('automatic_incidents')], {
    description: "template: an incident template; maintenance: a one-off maintenance window; recurring_maintenance: a recurring one (deleted: cancelled); sla_target: a component's SLA target; branding: a page's colours; automatic_incidents: a page's automatic-incident settings",
  }),
  key: t.String({ description: 'The object\'s stable key: a page slug (also of its branding and automatic incidents), `slug/component` (also of its SLA target), `slug/title` of a maintenance, a channel, monitor or template name', examples: ['acme/API'] }),
  fields: t.Array(t.String(), { description: 'With update: the fields that change (names only, never values)' }),
})

const PlanJson = t.Object({
  changes: t.Array(ChangeJson, { description: 'What apply makes (or made), in the order it does it; empty: nothing to do' }),
  summary: t.Object({ create: t.Integer(), update: t.Integer(), delete: t.Integer() }),
  applied: t.Boolean({ description: 'true: the changes were made (apply); false: a plan only' }),
})

export const configModels = namedModels({ ConfigPlan: PlanJson })
export const ConfigPlanRef = modelRef(configModels, 'ConfigPlan')

export const ExportQuery = t.Object({})

export function planJson(plan: ConfigPlan, applied: boolean): Static<typeof PlanJson> {
  const count = (action: string) => plan.changes.filter((change) => change.action === action).length
  return {
    changes: plan.changes.map((change) => ({ action: change.action, kind: change.kind, key: change.key, fields: [...change.fields] })),
    summary: { create: count('create'), update: count('update'), delete: count('delete') },
    applied,
  }
}
