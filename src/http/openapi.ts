/**
 * The OpenAPI document (`/swagger/json`) of every route a client can call, and the API viewer
 * (`/swagger`, src/http/api-viewer.ts) that reads it.
 *
 * The document declares OpenAPI 3.1: its schemas are JSON Schema (what Elysia's `t` produces:
 * `type: 'null'` in unions, `const`, `examples`), which 3.0 cannot express. @elysiajs/swagger builds
 * the paths from the service app's routes; `finishDocument` then does the two things the plugin
 * cannot be told: a description and the real media type of every response (OpenAPI requires the
 * one; the plugin lists JSON, multipart and text for every answer) and the routes of the status
 * hosts, which live in another app (src/modules/status-site/).
 */
import { swagger } from '@elysiajs/swagger'
import { Elysia } from 'elysia'
import { APP_VERSION } from '../lib/version.ts'
import type { OpenApiDoc } from './api-reference.ts'
import { apiViewerRoutes } from './api-viewer.ts'

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
  { name: 'API keys', description: 'Create (web session only), list and revoke your API keys' },
  { name: 'Sessions', description: 'Your login sessions: list them, end one, end all others' },
  { name: 'Plan', description: 'Your plan, what it allows and your usage' },
  { name: 'Operations', description: 'Health and operations' },
  { name: 'Probes', description: 'For probe processes in other regions (`lantern probe`), with a probe token: their monitors and their results' },
  { name: 'Analytics', description: 'Page views, uptime and share tokens of your status pages' },
  { name: 'SLA', description: 'SLA targets per component, reports (JSON, CSV, PDF) and the monthly report mail' },
  { name: 'Tools', description: 'One-off domain lookups (DNS, MX, SPF, DKIM, DMARC, SSL, DNSBL) and your recent checks' },
  { name: 'User area', description: 'Login, logout and the server-rendered user area' },
  { name: 'Site', description: 'Landing page, docs, blog, changelog, API viewer, robots.txt and sitemap of the service host' },
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
  return (
    new Elysia({ name: 'openapi' })
      // Runs for the plugin's document route, which is registered after it.
      .onAfterHandle(({ path, response }) => (path === SPEC_PATH ? finish(response as OpenApiDocument) : undefined))
      .use(
        swagger({
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
        }),
      )
      // After the plugin: these pages replace its page (which loads a viewer from a CDN).
      .use(apiViewerRoutes(SPEC_PATH, options.loadDocument))
  )
}

type OpenApiDocument = { paths: Record<string, Record<string, any>> } & Record<string, unknown>
type Server = { url: string; description: string }

/** The plugin's document with a description on every response and the status hosts' routes. */
export function finishDocument(plugin: OpenApiDocument, statusRoutes: readonly DocumentedRoute[], statusServer: Server): OpenApiDocument {
  // A copy: the plugin keeps its document between calls.
  const doc = JSON.parse(JSON.stringify(plugin)) as OpenApiDocument
  for (const route of statusRoutes) addStatusHostRoute(doc, route, statusServer)
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      if (typeof operation !== 'object' || operation === null || !operation.responses) continue
      for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
        // The plugin spreads a string schema's keywords (contentMediaType, maxLength…) into the
        // Response Object, which has none of them: they stay in the schema.
        for (const key of Object.keys(response)) if (!RESPONSE_FIELDS.has(key) && !key.startsWith('x-')) delete response[key]
        if (typeof response.description !== 'string' || response.description === '') response.description = describeStatus(status)
        if (response.content) response.content = answerContent(response.content)
      }
    }
  }
  return doc
}

/** The fields of an OpenAPI 3.1 Response Object. */
const RESPONSE_FIELDS = new Set(['description', 'headers', 'content', 'links', '$ref', 'summary'])

/** What the plugin lists for every answer whatever the route sends. */
const PLUGIN_DEFAULT_TYPES = ['application/json', 'multipart/form-data', 'text/plain']

/**
 * The media type an answer is sent with: the schema's `contentMediaType` (`textAnswer` in
 * schemas.ts), else JSON for objects, arrays and models. A string without one keeps the plugin's
 * list: the route has not said what it sends.
 */
function answerContent(content: Record<string, { schema?: unknown }>): Record<string, { schema?: unknown }> {
  const types = Object.keys(content)
  if (types.length !== PLUGIN_DEFAULT_TYPES.length || !PLUGIN_DEFAULT_TYPES.every((type) => types.includes(type))) return content
  const entry = content['application/json']!
  const schema = (entry.schema ?? {}) as { contentMediaType?: unknown; type?: unknown }
  if (typeof schema.contentMediaType === 'string') return { [schema.contentMediaType]: entry }
  if (schema.type === 'string') return content
  return { 'application/json': entry }
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  301: 'Moved permanently (to the canonical address)',
  302: 'Found (redirect)',
  303: 'See other (redirect after a form)',
  304: 'Not modified (the ETag matched)',
  400: 'Bad request',
  401: 'Not signed in or no valid key',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  429: 'Too many requests',
  503: 'Unavailable',
}

const describeStatus = (status: string): string => STATUS_TEXT[status] ?? `HTTP ${status}`

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
 * A route of the status hosts, with the status host as its server. A path and method the
 * service host answers too (`/`, `/robots.txt`) cannot hold two operations of one method, so there
 * the service host's operation says what the status host answers.
 */
function addStatusHostRoute(doc: OpenApiDocument, route: DocumentedRoute, server: Server): void {
  const path = toOpenApiPath(route.path)
  const method = route.method.toLowerCase()
  const detail = (route.hooks?.detail ?? {}) as { summary?: string; tags?: string[] }
  const item = (doc.paths[path] ??= {})
  const existing = item[method]
  if (existing) {
    const note = `On a status host (\`${server.url}${path}\`): ${detail.summary ?? 'answered by the status page'}.`
    existing.description = existing.description ? `${existing.description}\n\n${note}` : note
    return
  }
  const parameters = parametersOf(route.hooks)
  // The server on the operation, not the path: the service host may answer other methods there.
  item[method] = {
      servers: [server],
      operationId: `statusHost${method[0]!.toUpperCase()}${method.slice(1)}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      tags: detail.tags ?? ['Status host'],
      summary: detail.summary,
      ...(parameters.length ? { parameters } : {}),
      responses: { 200: { description: describeStatus('200') } },
  }
}
