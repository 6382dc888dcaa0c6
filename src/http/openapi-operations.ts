/**
 * The rules every operation of the OpenAPI document follows, whichever route declared it (the
 * plugin builds operations from routes; these rules finish them):
 * - a path is written without a trailing slash (the router answers both spellings);
 * - an operation without `security` is public and says so (`security: []`);
 * - a body or answer has the media type it is sent with, not the plugin's list of three;
 * - every response has a description; error answers (the shared `Error` model) say when they
 *   happen; every operation lists the errors that can happen to it: 400 always (the Host check
 *   before any route, and the route's own validation), 429 under `/api/` (the rate limit), no
 *   409 on a read, no 403 on an owner's read (the cross-site refusal is for writes, and plans
 *   limit what is created or changed, not what is read) and no 404 where nothing names a resource;
 * - every operation has a description (its summary and who may call it, when it gives none).
 */
import { isRateLimited } from './edge/rate-limit.ts'

export type Operation = Record<string, any>
export type PathItem = Record<string, any>

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** Every operation of a map of path items, with its path and method. */
export function* operationsOf(paths: Record<string, PathItem> | undefined): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(paths ?? {})) {
    for (const method of METHODS) if (item[method]) yield [path, method, item[method]]
  }
}

/** `/user/api/v1/status-pages/` is `/user/api/v1/status-pages`: the router is not strict about the slash. */
export function withoutTrailingSlashes(paths: Record<string, PathItem>): Record<string, PathItem> {
  const out: Record<string, PathItem> = {}
  for (const [path, item] of Object.entries(paths)) {
    const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
    out[bare] = { ...out[bare], ...item }
  }
  return out
}

const ERROR_REF = '#/components/schemas/Error'

/** When each error answer happens (the text of `error` then says what exactly). */
const ERROR_TEXT: Record<string, string> = {
  400: 'Bad request: a parameter or the body is not valid (the error names the field), or the Host header is missing or malformed',
  401: 'No valid credentials',
  403: 'Forbidden: the plan does not include this, or a write signed in by the session cookie came from another site',
  404: 'Not found (a resource of another account is not found either)',
  409: 'Conflict with the current state (the error says which)',
  410: 'Gone: expired or already used',
  413: 'The body is too large',
  429: 'Too many requests: try again after the Retry-After header\'s seconds',
  503: 'Unavailable for now',
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
}

export const describeStatus = (status: string): string => STATUS_TEXT[status] ?? ERROR_TEXT[status] ?? `HTTP ${status}`

/** The fields of an OpenAPI 3.1 Response Object. */
const RESPONSE_FIELDS = new Set(['description', 'headers', 'content', 'links', '$ref', 'summary'])

/** What the plugin lists for every body and answer whatever the route takes or sends. */
const PLUGIN_DEFAULT_TYPES = ['application/json', 'multipart/form-data', 'text/plain']

const SAFE_METHODS = new Set(['get', 'head', 'options'])

const errorAnswer = (status: string) => ({ description: describeStatus(status), content: { 'application/json': { schema: { $ref: ERROR_REF } } } })

/** Signed in by the owner's API key or login session. */
const isOwnerOperation = (operation: Operation): boolean =>
  (operation.security as Array<Record<string, unknown>>).some((requirement) => 'bearerAuth' in requirement || 'sessionCookie' in requirement)

const isErrorAnswer = (response: any): boolean => response?.content?.['application/json']?.schema?.$ref === ERROR_REF

/** Applies the rules above to one operation of the service or a status host. */
export function finishOperation(path: string, method: string, operation: Operation, errorDescription: string | undefined): void {
  // `detail.hide: false` (a route listed inside a hidden group) is the plugin's word, not OpenAPI's.
  delete operation.hide
  operation.security ??= []
  if (operation.requestBody?.content) operation.requestBody.content = mediaTypes(operation.requestBody.content)
  const responses: Record<string, any> = (operation.responses ??= {})
  for (const [status, response] of Object.entries<Record<string, any>>(responses)) {
    // The plugin spreads a string schema's keywords (contentMediaType, maxLength…) into the
    // Response Object, which has none of them: they stay in the schema.
    for (const key of Object.keys(response)) if (!RESPONSE_FIELDS.has(key) && !key.startsWith('x-')) delete response[key]
    if (response.content) response.content = mediaTypes(response.content)
    // The model's own description says what the body is, not when it comes.
    if (typeof response.description !== 'string' || response.description === '' || (isErrorAnswer(response) && response.description === errorDescription)) {
      response.description = describeStatus(status)
    }
  }
  const namesResource = (operation.parameters ?? []).length > 0 || operation.requestBody !== undefined
  if (SAFE_METHODS.has(method) && isErrorAnswer(responses[409])) delete responses[409]
  if (SAFE_METHODS.has(method) && isOwnerOperation(operation) && isErrorAnswer(responses[403])) delete responses[403]
  if (!namesResource && isErrorAnswer(responses[404])) delete responses[404]
  responses[400] ??= errorAnswer('400')
  if (isRateLimited(method.toUpperCase(), path)) responses[429] ??= errorAnswer('429')
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)))
  operation.description ??= describeOperation(operation)
}

/**
 * The media type a body or answer is sent with: the schema's `contentMediaType` (`textAnswer` in
 * schemas.ts), else JSON for objects, arrays and models. A string without one keeps the plugin's
 * list: the route has not said what it sends.
 */
function mediaTypes(content: Record<string, { schema?: unknown }>): Record<string, { schema?: unknown }> {
  const types = Object.keys(content)
  if (types.length !== PLUGIN_DEFAULT_TYPES.length || !PLUGIN_DEFAULT_TYPES.every((type) => types.includes(type))) return content
  const entry = content['application/json']!
  const schema = (entry.schema ?? {}) as { contentMediaType?: unknown; type?: unknown }
  if (typeof schema.contentMediaType === 'string') return { [schema.contentMediaType]: entry }
  if (schema.type === 'string') return content
  return { 'application/json': entry }
}

/** The operation's summary and who may call it. */
function describeOperation(operation: Operation): string {
  const summary = typeof operation.summary === 'string' ? operation.summary.replace(/\.?$/, '.') : ''
  const schemes = new Set((operation.security as Array<Record<string, unknown>>).flatMap((requirement) => Object.keys(requirement)))
  const who =
    schemes.size === 0 ? 'Public: no credentials needed.'
    : schemes.has('probeToken') ? 'Needs a probe token.'
    : schemes.has('sessionCookie') && !schemes.has('bearerAuth') ? 'Needs the login session (the web app), not an API key.'
    : 'Needs an API key or the login session of the owner.'
  return `${summary} ${who}`.trim()
}
