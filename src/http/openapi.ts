/**
 * The OpenAPI document (`/swagger/json`) of what programs call, and the API viewer (`/swagger`,
 * src/http/api-viewer.ts) that reads it.
 *
 * The document declares OpenAPI 3.1: its schemas are JSON Schema (what Elysia's `t` produces:
 * `type: 'null'` in unions, `const`, `examples`), which 3.0 cannot express. @elysiajs/swagger builds
 * the paths from the service app's routes (a route or a whole plugin marked `detail: { hide: true }`
 * stays out: pages and forms for people); `finishDocument` then adds the machine-read routes of the
 * status hosts, which live in another app (src/modules/status-site/), and applies the rules that
 * hold for every operation and schema, whichever route declared it (openapi-operations.ts,
 * openapi-schema.ts, openapi-examples.ts). The test suite lints the result with Redocly and
 * Spectral (test/http/openapi-lint.test.ts).
 */
import type { ElysiaSwaggerConfig } from '@elysiajs/swagger'
import { Elysia } from 'elysia'
import { APP_VERSION } from '../lib/version.ts'
import type { OpenApiDoc } from './api-reference.ts'
import { apiViewerRoutes } from './api-viewer.ts'
import { exampleOf } from './openapi-examples.ts'
import { describeStatus, finishOperation, operationsOf, withoutTrailingSlashes, type PathItem } from './openapi-operations.ts'
import { documentSchema } from './openapi-schema.ts'
import { addWebhooks } from './openapi-webhooks.ts'

export const SPEC_PATH = '/swagger/json'

/** What the document needs to know about a route of the status hosts (an Elysia route). */
export interface DocumentedRoute {
  method: string
  path: string
  hooks?: { detail?: Record<string, unknown>; params?: unknown; query?: unknown } | undefined
}

export interface OpenApiOptions {
  /** BASE_URL: the service host. */
  baseUrl: string
  scheme: 'http' | 'https'
  statusDomain: string
  /** The routes of the status hosts (read when the document is first asked for). */
  statusRoutes: () => readonly DocumentedRoute[]
  /** The finished document as `/swagger/json` answers it, for the reference page at `/swagger`. */
  loadDocument: () => Promise<OpenApiDoc>
}

const TAGS = [
  { name: 'Embeds', description: 'Public snippets, badges, widget and status JSON' },
  { name: 'Status pages', description: 'Manage your status pages' },
  { name: 'Components', description: 'Components of a page and their status history' },
  { name: 'Incidents', description: 'Incidents with affected components and a timeline of updates' },
  { name: 'Incident templates', description: 'Reusable incident texts with {{component}} and {{page}}' },
  { name: 'Maintenances', description: 'Scheduled maintenance windows' },
  { name: 'Page transfers', description: 'Hand a status page to another account: offer, cancel, accept or decline' },
  { name: 'Subscribers', description: 'People and webhooks that get the updates of a page: list, add, remove, CSV import and export' },
  { name: 'Checks', description: 'Check results reported for components (response times, up/down)' },
  { name: 'Monitors', description: 'Monitors that check your services (HTTP, keyword, JSON, TCP, DNS, TLS, push, SSL, DNSBL, email authentication) and their results' },
  { name: 'Notification channels', description: 'Where your alerts go: email, webhook, Slack, Discord, Telegram, Teams, ntfy, PagerDuty' },
  { name: 'API keys', description: 'Create (web session only), list and revoke your API keys' },
  { name: 'Sessions', description: 'Your login sessions: list them, end one, end all others' },
  { name: 'Teams', description: 'Your teams: create one, members and their roles, invitations, joining by an invitation' },
  { name: 'Plan', description: 'Your plan, what it allows and your usage' },
  { name: 'Configuration as code', description: "A team's pages, components, channels and monitors as one YAML file: export, plan, apply (for CI pipelines), and the file's JSON Schema" },
  { name: 'Operations', description: 'Health and operations' },
  { name: 'Probes', description: 'For probe processes in other regions (`lantern probe`), with a probe token: their monitors and their results' },
  { name: 'Analytics', description: 'Page views, uptime and share tokens of your status pages' },
  { name: 'SLA', description: 'SLA targets per component, reports (JSON, CSV, PDF) and the monthly report mail' },
  { name: 'Tools', description: 'One-off domain lookups (DNS, MX, SPF, DKIM, DMARC, SSL, DNSBL) and your recent checks' },
  { name: 'Site', description: 'The changelog feed of the service host' },
  { name: 'MCP', description: 'The Model Context Protocol endpoint for AI agents, with an API key' },
  {
    name: 'Status host',
    description:
      'Routes of each status page, answered on `<slug>.<STATUS_DOMAIN>` and on its custom domain (see each path\'s server), not on the service host',
  },
]

export function openApi(options: OpenApiOptions) {
  const statusServer = {
    url: `${options.scheme}://{slug}.${options.statusDomain}`,
    description: 'A status page (a custom domain serves the same routes)',
    variables: { slug: { default: 'acme', description: "The page's slug" } },
  }
  // Routes are fixed once the app is built: finish the document once per set of routes.
  let finished: { key: string; doc: OpenApiDocument } | undefined
  const finish = (plugin: OpenApiDocument): OpenApiDocument => {
    const statusRoutes = options.statusRoutes()
    const key = `${Object.keys(plugin.paths).length}:${statusRoutes.length}`
    if (finished?.key !== key) finished = { key, doc: finishDocument(plugin, statusRoutes, statusServer) }
    return finished.doc
  }
  // Built by @elysiajs/swagger from the routes of the app this plugin is used in, as before; the
  // plugin reads them through getGlobalRoutes, which Elysia binds to the enclosing app on use().
  let specHandler: Promise<() => unknown> | undefined
  const loadSpecHandler = () =>
    (specHandler ??= import('@elysiajs/swagger').then(({ swagger }) => {
      const plugin = swagger(SWAGGER_CONFIG(options))
      // Protected in Elysia's types; the plugin's own route calls them on itself.
      const [target, source] = [plugin, openapi] as unknown as [GlobalReads, GlobalReads]
      target.getGlobalRoutes = () => source.getGlobalRoutes()
      target.getGlobalDefinitions = () => source.getGlobalDefinitions()
      const route = plugin.router.history.find((r) => r.method === 'GET' && r.path === SPEC_PATH)
      if (!route) throw new Error('@elysiajs/swagger: no document route')
      return route.handler as () => unknown
    }))
  const openapi = new Elysia({ name: 'openapi' })
  return (
    openapi
      // Runs for the document route, which is registered after it.
      .onAfterHandle(({ path, response }) => (path === SPEC_PATH ? finish(response as OpenApiDocument) : undefined))
      // The plugin (with @scalar/themes, which it imports) loads on the first request of the document.
      .get(SPEC_PATH, async () => (await loadSpecHandler())(), { detail: { hide: true } })
      // The plugin's own page (which loads a viewer from a CDN) is never routed: these pages are.
      .use(apiViewerRoutes(SPEC_PATH, options.loadDocument))
  )
}

const SWAGGER_CONFIG = (options: OpenApiOptions): ElysiaSwaggerConfig<string> => ({
  path: '/swagger',
  specPath: SPEC_PATH,
  // Badges and the widget script have a dot in their paths: list them too.
  excludeStaticFile: false,
  documentation: {
    // The plugin writes 3.0.3 unless told; the schemas are JSON Schema, which is 3.1.
    openapi: '3.1.0',
    info: {
      title: 'Lantern API',
      version: APP_VERSION,
      description:
        'Status pages, embeds and the management API of a Lantern instance. Management routes take an API key (`Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`) created in the web app (API keys) or with `lantern key create`. Errors are `{"error": "…"}` with the status code. Routes tagged "Status host" are answered on the status pages\' own hosts.',
      // The instance's own API guide: who runs an instance is not known to the code.
      contact: { name: 'The API guide of this instance', url: `${options.baseUrl}/docs/api` },
    },
    servers: [{ url: options.baseUrl, description: 'The service host (BASE_URL)' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: lnt_…' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'lantern_session', description: 'The login session (user area)' },
        probeToken: { type: 'http', scheme: 'bearer', description: 'A probe token: lpt_… (`lantern probe-token create --region NAME`)' },
      },
    },
  } as never,
})

type GlobalReads = { getGlobalRoutes(): unknown; getGlobalDefinitions(): unknown }
type OpenApiDocument = { paths: Record<string, PathItem>; webhooks?: Record<string, PathItem>; components?: Record<string, any>; tags?: Array<{ name: string }> } & Record<string, unknown>
type Server = { url: string; description: string }

/**
 * The plugin's document finished: the status hosts' routes added, then the rules of
 * openapi-operations.ts for every operation, the schemas as clients need them (openapi-schema.ts),
 * an example for each JSON body and answer, and only the models and tags something uses.
 */
export function finishDocument(plugin: OpenApiDocument, statusRoutes: readonly DocumentedRoute[], statusServer: Server): OpenApiDocument {
  // A copy: the plugin keeps its document between calls.
  const doc = JSON.parse(JSON.stringify(plugin)) as OpenApiDocument
  for (const route of statusRoutes) addStatusHostRoute(doc, route, statusServer)
  // Other sections (the outgoing webhooks) are added here, before the rules below apply to them.
  addWebhooks(doc)
  doc.paths = withoutTrailingSlashes(doc.paths)
  const errorDescription = doc.components?.schemas?.Error?.description
  for (const [path, method, operation] of operationsOf(doc.paths)) finishOperation(path, method, operation, errorDescription)
  for (const section of [doc.paths, doc.webhooks]) rewriteSchemas(section)
  if (doc.components?.schemas) {
    doc.components.schemas = Object.fromEntries(Object.entries(doc.components.schemas).map(([name, schema]) => [name, documentSchema(schema)]))
  }
  const components = doc.components?.schemas ?? {}
  for (const section of [doc.paths, doc.webhooks]) for (const [, , operation] of operationsOf(section)) addExamples(operation, components)
  keepUsedModels(doc)
  keepUsedTags(doc)
  return doc
}

/** Every `schema` of a section (parameters, bodies, answers, headers) as documentSchema shows it. */
function rewriteSchemas(value: unknown): void {
  if (value === null || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (key === 'schema' && child !== null && typeof child === 'object') (value as Record<string, unknown>)[key] = documentSchema(child)
    else rewriteSchemas(child)
  }
}

const JSON_TYPE = 'application/json'

/** An example for the JSON body and the JSON success answer, unless the route gave one. */
function addExamples(operation: Record<string, any>, components: Record<string, unknown>): void {
  const success = Object.entries<any>(operation.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1]
  for (const media of [operation.requestBody?.content?.[JSON_TYPE], success?.content?.[JSON_TYPE]]) {
    if (!media?.schema || 'example' in media || 'examples' in media) continue
    const example = exampleOf(media.schema, components)
    if (example !== undefined) media.example = example
  }
}

/** The models something refers to, directly or through another model; the rest go. */
function keepUsedModels(doc: OpenApiDocument): void {
  const schemas = doc.components?.schemas as Record<string, unknown> | undefined
  if (!schemas) return
  const used = new Set<string>()
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    const ref = (value as { $ref?: unknown }).$ref
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length)
      if (!used.has(name)) {
        used.add(name)
        visit(schemas[name])
      }
    }
    for (const child of Object.values(value)) visit(child)
  }
  visit({ ...doc, components: { ...doc.components, schemas: {} } })
  doc.components!.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)))
}

/** The tags some operation has. */
function keepUsedTags(doc: OpenApiDocument): void {
  const used = new Set<string>()
  for (const section of [doc.paths, doc.webhooks]) for (const [, , operation] of operationsOf(section)) for (const tag of operation.tags ?? []) used.add(tag)
  doc.tags = (doc.tags ?? []).filter((tag) => used.has(tag.name))
}

const toOpenApiPath = (path: string): string => path.replace(/:(\w+)\??/g, '{$1}')

/** The parameters of a route from its `params` and `query` schemas (TypeBox objects). */
function parametersOf(hooks: DocumentedRoute['hooks']): unknown[] {
  const out: unknown[] = []
  for (const [where, schema] of [['path', hooks?.params], ['query', hooks?.query]] as const) {
    const object = schema as { properties?: Record<string, { description?: string }>; required?: string[] } | undefined
    for (const [name, property] of Object.entries(object?.properties ?? {})) {
      const { description, ...rest } = JSON.parse(JSON.stringify(property)) as { description?: string }
      out.push({ name, in: where, required: where === 'path' || (object?.required ?? []).includes(name), description, schema: rest })
    }
  }
  return out
}

/**
 * A route of the status hosts, with the status host as its server (routes for people, marked
 * `hide`, stay out). A path and method the service host answers too cannot hold two operations
 * of one method, so there the service host's operation says what the status host answers.
 */
function addStatusHostRoute(doc: OpenApiDocument, route: DocumentedRoute, server: Server): void {
  const detail = (route.hooks?.detail ?? {}) as { summary?: string; description?: string; tags?: string[]; hide?: boolean; parameters?: unknown[]; responses?: Record<string, unknown> }
  if (detail.hide) return
  const path = toOpenApiPath(route.path)
  const method = route.method.toLowerCase()
  const item = (doc.paths[path] ??= {})
  const existing = item[method]
  if (existing) {
    const note = `On a status host (\`${server.url}${path}\`): ${detail.summary ?? 'answered by the status page'}.`
    existing.description = existing.description ? `${existing.description}\n\n${note}` : note
    return
  }
  const parameters = [...parametersOf(route.hooks), ...(detail.parameters ?? [])]
  // The server on the operation, not the path: the service host may answer other methods there.
  item[method] = {
    servers: [server],
    operationId: `statusHost${method[0]!.toUpperCase()}${method.slice(1)}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: detail.tags ?? ['Status host'],
    summary: detail.summary,
    ...(detail.description ? { description: detail.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    responses: detail.responses ?? { 200: { description: describeStatus('200') } },
  }
}
