/**
 * Configuration as code over the API (for CI pipelines, with an API key): export, plan, apply; and
 * the file's JSON Schema, public, for editors.
 */
import { Elysia, t } from 'elysia'
import { conflictResponse, errorResponses, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth, requestAudit } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import { configText, parseConfigText } from './file.ts'
import { CONFIG_SCHEMA_PATH, configJsonSchema, configModels, ConfigPlanRef, PlanBody, planJson } from './model.ts'
import type { ConfigService } from './service.ts'

const detail = (summary: string, description: string) => ({ tags: ['Configuration as code'], summary, description, security: apiKeySecurity })

const ExportJson = t.Object({
  file: t.String({ description: 'The configuration as YAML: what `lantern apply -f` and POST …/config/apply take', examples: ['version: 1\npages:\n  - slug: acme\n    name: Acme\n'] }),
  secrets: t.Array(t.String(), { description: 'The names of the `${NAME}` references the file holds (never their values): what apply needs in `secrets` or the environment', examples: [['LANTERN_CHANNEL_OPS_SLACK_URL']] }),
})

const PlanJson = t.Object({
  data: ConfigPlanRef,
  notes: t.Array(t.String(), { description: 'What needs your eye before applying: a maintenance window of the file that is over (apply leaves it alone)' }),
})

const ApplyJson = t.Object({
  data: ConfigPlanRef,
  notes: t.Array(t.String(), { description: "What needs your eye: a new push monitor's URL (shown once), a target that does not resolve yet, a window of the file that is over" }),
})

export function configRoutes(deps: { accounts: AccountsService; config: ConfigService }) {
  const { config } = deps
  return new Elysia({ name: 'config-as-code', prefix: '/user/api/v1/config' })
    .model(sharedModels)
    .model(configModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/export',
      async ({ owner }) => {
        const exported = await config.export(owner)
        return { file: configText(exported.file), secrets: Object.keys(exported.secrets).sort() }
      },
      {
        response: { 200: ExportJson, ...errorResponses, ...conflictResponse },
        detail: detail(
          "The team's configuration as a file",
          'Pages with their components (and SLA targets), branding colours, automatic-incident settings and maintenance (one-off windows not over yet, recurring series), notification channels, monitors and incident templates, each named by a stable key (page slug, component name or maintenance title within its page, channel, monitor and template name). Secret settings (chat webhook URLs, tokens, signing secrets, a monitor target with a password, credential headers) are `${LANTERN_…}` references, never values. 409 when two channels or monitors (or two components of a page) share a name.',
        ),
      },
    )
    .post(
      '/plan',
      async ({ owner, body }) => {
        const plan = await config.plan(owner, parseConfigText(body.file), { prune: body.prune === true, env: body.secrets ?? {} })
        return { data: planJson(plan, false), notes: plan.notes }
      },
      {
        body: PlanBody,
        response: { 200: PlanJson, ...errorResponses, ...conflictResponse },
        detail: detail(
          'What applying a file would change',
          'Creates, changes (with the names of the fields) and, with `prune`, deletes, in the order apply makes them. Nothing is written; any member may ask. A file the API would refuse (a bad monitor, a reference to a page that is not there) is a 400 naming the object and the field.',
        ),
      },
    )
    .post(
      '/apply',
      async ({ owner, body, request, route }) => {
        const { address, client } = requestAudit(owner, request, route, {}, undefined)
        const result = await config.apply(owner, parseConfigText(body.file), { prune: body.prune === true, env: body.secrets ?? {}, address, client })
        return { data: planJson(result.plan, true), notes: result.notes }
      },
      {
        body: PlanBody,
        response: { 200: ApplyJson, ...errorResponses, ...conflictResponse },
        detail: detail(
          'Make the team’s configuration what a file says',
          'One transaction through the same checks and plan limits as the other routes: when one object is refused (400, 403 over a plan limit) nothing is applied. Needs the editor role; with `prune`, deleting a page needs the admin role. Applying the same file again changes nothing. Every change is a row of the audit log (`config.monitor.update`, …) naming the fields, never their values.',
        ),
      },
    )
}

const SchemaJson = t.Record(t.String(), t.Unknown(), { description: 'A JSON Schema (draft 2020-12)' })

/** The file's JSON Schema, for editors (`# yaml-language-server: $schema=…`) and CI checks. */
export function configSchemaRoutes(baseUrl: string) {
  const body = JSON.stringify(configJsonSchema(baseUrl), null, 2)
  return new Elysia({ name: 'config-schema' }).get(
    CONFIG_SCHEMA_PATH,
    () => new Response(body, { headers: { 'content-type': 'application/schema+json; charset=utf-8', 'cache-control': 'public, max-age=3600' } }),
    {
      response: { 200: SchemaJson },
      detail: {
        tags: ['Configuration as code'],
        summary: 'The configuration file’s JSON Schema',
        description: 'The schema of `lantern.yaml` (version 1), generated from the same schemas the API checks: editors complete and check the file with it. Public and cacheable.',
      },
    },
  )
}
