/**
 * HTTP(S) checks through the address guard: every hop's host is resolved once and checked, and the
 * request goes to that checked IP with `Host` (and TLS SNI) set to the name, so `fetch` never looks
 * the name up again. Redirects are followed here by hand (bounded), never by `fetch`.
 */
import { isIpLiteral, urlHost, type AddressGuard } from '../../../lib/address-guard.ts'
import type { MonitorDefinition } from '../definition.ts'
import { evaluateConditions, MAX_CONDITIONS, parseConditions } from './conditions.ts'
import { describeFailure, FIXES, misconfiguredResult, thrownResult } from './failure.ts'
import { commonSpec, type MonitorKind } from './kind.ts'
import { clipMessage, DEFAULTS, HTTP_METHODS, type CheckDeps, type CheckResult, type HttpSpec } from './spec.ts'
import { DEFAULT_ACCEPTED_STATUS, parseAcceptedStatus, statusAccepted } from './status-codes.ts'
import { fieldChecks, HEADER_NAME, MAX_HEADERS, MAX_REQUEST_BODY, type SpecProblem } from './validate.ts'

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Headers the engine owns; a spec cannot set them. */
const OWNED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer'])
/** Credentials that do not follow a redirect to another origin (as browsers' fetch does). */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization']

export async function runHttpCheck(spec: HttpSpec, deps: CheckDeps): Promise<CheckResult> {
  const elapsed = deps.elapsed ?? (() => performance.now())
  const started = elapsed()
  // Settings the engine cannot run, and a first address it may not fetch, are the configuration's fault, not the target's.
  const accepted = parseAcceptedStatus(spec.acceptedStatus ?? DEFAULT_ACCEPTED_STATUS)
  if (!accepted.ok) return misconfiguredResult(`invalid accepted status codes: ${accepted.message}`, FIXES.editSettings)
  const parsedConditions = parseConditions(spec.conditions ?? [])
  if (!parsedConditions.ok) return misconfiguredResult(`invalid condition: ${parsedConditions.errors[0]!.message}`, FIXES.editSettings)

  const signal = AbortSignal.timeout(spec.timeoutMs)
  let url: URL
  try {
    url = new URL(spec.url)
  } catch {
    return misconfiguredResult('the URL is not valid', FIXES.editTarget)
  }
  let method: string = spec.method ?? 'GET'
  let body = spec.body ?? undefined
  let headers = requestHeaders(spec, deps)
  let redirects = 0
  let response: Response
  let address: string
  try {
    for (;;) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return redirects === 0 ? misconfiguredResult(`cannot fetch a ${url.protocol} URL`, FIXES.editTarget) : failure(`cannot fetch a ${url.protocol} URL`, { redirects })
      }
      if (url.username || url.password) {
        const why = 'URLs with credentials are not fetched; use an Authorization header'
        return redirects === 0 ? misconfiguredResult(why, FIXES.editTarget) : failure(why, { redirects })
      }
      const checked = await deps.guard.check(url.hostname, signal)
      address = checked.address
      response = await fetchAt(url, checked.address, { method, headers, body, signal, trustedCa: deps.trustedCa })
      const location = response.headers.get('location')
      if (spec.followRedirects === false || !REDIRECTS.has(response.status) || location === null) break
      await response.body?.cancel()
      if (redirects >= DEFAULTS.maxRedirects) return failure(`more than ${DEFAULTS.maxRedirects} redirects`, { redirects })
      redirects++
      const next = new URL(location, url)
      if (next.origin !== url.origin) headers = withoutOriginBound(headers)
      // 303 always, and 301/302 after a POST, become a GET without body (as fetch does).
      if (response.status === 303 ? method !== 'HEAD' : (response.status === 301 || response.status === 302) && method === 'POST') {
        method = 'GET'
        body = undefined
        headers = withoutBodyHeaders(headers)
      }
      url = next
    }
  } catch (error) {
    // A redirect's address is refused like the target's own: the monitor cannot follow it here.
    return thrownResult(error, signal, spec.timeoutMs, { allowPrivate: deps.guard.allowPrivate, context: redirects > 0 ? `redirect ${redirects} to ${url.href}` : undefined, details: { redirects } })
  }

  const responseTimeMs = Math.round(elapsed() - started)
  const statusCode = response.status
  const details = { address, redirects }
  const needsBody = Boolean(spec.keyword?.text) || parsedConditions.conditions.length > 0
  let bodyText: { text: string; truncated: boolean } | undefined
  try {
    if (needsBody) bodyText = await readLimited(response, DEFAULTS.bodyLimitBytes)
    else await response.body?.cancel()
  } catch (error) {
    return { ...failure(`reading the body: ${describeFailure(error, signal, spec.timeoutMs)}`, details), statusCode }
  }
  const verdict = (outcome: 'ok' | 'fail', message: string): CheckResult => {
    const slow = outcome === 'ok' && spec.degradedAfterMs != null && responseTimeMs > spec.degradedAfterMs
    const final = slow ? `${message}, slower than ${spec.degradedAfterMs} ms` : message
    return { outcome: slow ? 'degraded' : outcome, responseTimeMs, statusCode, message: clipMessage(final), details }
  }

  if (!statusAccepted(statusCode, accepted.ranges)) {
    return verdict('fail', `HTTP ${statusCode} is not an accepted status (${spec.acceptedStatus ?? DEFAULT_ACCEPTED_STATUS})`)
  }
  if (spec.keyword?.text && bodyText) {
    const caseSensitive = spec.keyword.caseSensitive !== false
    const haystack = caseSensitive ? bodyText.text : bodyText.text.toLowerCase()
    const needle = caseSensitive ? spec.keyword.text : spec.keyword.text.toLowerCase()
    const found = haystack.includes(needle)
    const wanted = spec.keyword.present !== false
    if (found !== wanted) {
      const where = bodyText.truncated ? ` in the first ${DEFAULTS.bodyLimitBytes} bytes` : ''
      return verdict('fail', `keyword "${spec.keyword.text}" ${wanted ? 'not found' : 'found'}${where}`)
    }
  }
  if (parsedConditions.conditions.length > 0) {
    const result = evaluateConditions(parsedConditions.conditions, { status: statusCode, responseTimeMs, body: bodyText })
    if (!result.ok) return verdict('fail', result.reason)
  }
  return verdict('ok', `HTTP ${statusCode}`)
}

function requestHeaders(spec: HttpSpec, deps: CheckDeps): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    if (!OWNED_HEADERS.has(name.toLowerCase())) headers.set(name, value)
  }
  if (!headers.has('user-agent')) headers.set('user-agent', deps.userAgent ?? 'Lantern-Monitor')
  return headers
}

function withoutOriginBound(headers: Headers): Headers {
  const next = new Headers(headers)
  for (const name of ORIGIN_BOUND_HEADERS) next.delete(name)
  return next
}

function withoutBodyHeaders(headers: Headers): Headers {
  const next = new Headers(headers)
  for (const name of ['content-type', 'content-encoding', 'content-language', 'content-location']) next.delete(name)
  return next
}

/** One request to the checked address: Host and SNI carry the name, the socket goes to `address`. */
export function fetchAt(
  url: URL,
  address: string,
  options: { method: string; headers: Headers; body: string | undefined; signal: AbortSignal; trustedCa: string | undefined },
): Promise<Response> {
  const target = new URL(url)
  target.hostname = urlHost(address)
  const headers = new Headers(options.headers)
  headers.set('host', url.host)
  const tls: { serverName?: string; ca?: string } = {}
  if (url.protocol === 'https:' && !isIpLiteral(url.hostname.replace(/^\[|\]$/g, ''))) tls.serverName = url.hostname
  if (options.trustedCa) tls.ca = options.trustedCa
  return fetch(target, {
    method: options.method,
    headers,
    body: options.method === 'GET' || options.method === 'HEAD' ? undefined : options.body,
    redirect: 'manual',
    signal: options.signal,
    // A fresh connection per check: a pooled socket must never carry one host's TLS session to another.
    keepalive: false,
    tls,
  })
}

/** Reads at most `limit` bytes of the body as UTF-8 and stops reading there. */
export async function readLimited(response: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const room = limit - size
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room))
      size = limit
      truncated = true
      await reader.cancel()
      break
    }
    chunks.push(value)
    size += value.byteLength
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return { text: new TextDecoder().decode(bytes), truncated }
}

function failure(message: string, details?: CheckResult['details']): CheckResult {
  return { outcome: 'fail', responseTimeMs: null, message: clipMessage(message), ...(details ? { details } : {}) }
}

/** The request of an http, keyword or json monitor (keyword only for the keyword type). */
export function httpSpec(definition: MonitorDefinition): HttpSpec {
  const { options: o, target } = definition
  return {
    type: 'http',
    url: target ?? '',
    ...commonSpec(definition),
    ...(o.method ? { method: o.method } : {}),
    ...(o.headers ? { headers: o.headers } : {}),
    ...(o.body != null ? { body: o.body } : {}),
    ...(o.accepted_status ? { acceptedStatus: o.accepted_status } : {}),
    ...(o.follow_redirects !== undefined ? { followRedirects: o.follow_redirects } : {}),
    keyword: definition.type === 'keyword' && o.keyword ? { text: o.keyword, present: o.keyword_present ?? true, caseSensitive: o.keyword_case_sensitive ?? true } : null,
    ...(o.conditions?.length ? { conditions: o.conditions } : {}),
  }
}

export function validateHttpSpec(spec: HttpSpec, guard: AddressGuard): SpecProblem[] {
  const check = fieldChecks(guard)
  const { problems, problem } = check
  let url: URL | undefined
  try {
    url = new URL(spec.url)
  } catch {
    problem('url', 'must be an absolute http(s) URL')
  }
  if (url) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problem('url', 'must use http or https')
    else if (url.username || url.password) problem('url', 'must not carry credentials; use an Authorization header')
    else check.host('url', url.hostname)
  }
  if (spec.method !== undefined && !HTTP_METHODS.includes(spec.method)) problem('method', `must be one of ${HTTP_METHODS.join(', ')}`)
  const headers = Object.entries(spec.headers ?? {})
  if (headers.length > MAX_HEADERS) problem('headers', `at most ${MAX_HEADERS} headers`)
  for (const [name, value] of headers) {
    if (!HEADER_NAME.test(name)) problem('headers', `"${name.slice(0, 100)}" is not a header name`)
    else if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > 4096) problem('headers', `${name} must be one line of at most 4096 characters`)
  }
  if (spec.body != null && new TextEncoder().encode(spec.body).byteLength > MAX_REQUEST_BODY) problem('body', `at most ${MAX_REQUEST_BODY} bytes`)
  const accepted = parseAcceptedStatus(spec.acceptedStatus ?? '200-299')
  if (!accepted.ok) problem('acceptedStatus', accepted.message)
  if (spec.keyword && (typeof spec.keyword.text !== 'string' || spec.keyword.text.length < 1 || spec.keyword.text.length > 200)) {
    problem('keyword', 'the keyword must be 1 to 200 characters')
  }
  if (spec.method === 'HEAD' && (spec.keyword || spec.conditions?.some((condition) => condition.includes('[BODY]')))) {
    problem('method', 'a HEAD request has no body for a keyword or a [BODY] condition')
  }
  const conditions = parseConditions(spec.conditions ?? [])
  if (!conditions.ok) {
    for (const error of conditions.errors) problems.push({ field: 'conditions', message: `condition ${error.index + 1}: ${error.message}`, index: error.index, position: error.position })
  } else if ((spec.conditions?.length ?? 0) > MAX_CONDITIONS) problem('conditions', `at most ${MAX_CONDITIONS}`)
  return problems
}

/** http: the status code (and timing) of a request. keyword and json (files beside this one) are the same request with more to check. */
export const httpKind: MonitorKind<HttpSpec> = { type: 'http', toSpec: httpSpec, validate: validateHttpSpec, run: runHttpCheck, probeable: true }
