/**
 * CORS of the endpoints made to be read from any site (status JSON, feeds, badges, the widget).
 * They carry no credentials, so `*` is safe; their errors are opened too, so a widget on another
 * site reads "private" or "not found" instead of failing with a CORS error. Which paths are open is
 * decided at the front door (src/http/front.ts for the service host, status-site/site-entry.ts for status hosts).
 */
import { withHeader } from './response.ts'

export const ANY_ORIGIN = { 'access-control-allow-origin': '*' } as const

/** Request headers a preflight may ask for: a list of header names, nothing else. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/

/** The answer to a CORS preflight: GET and HEAD from any origin, with the headers it asked for. */
export function corsPreflight(request: Request): Response {
  const asked = request.headers.get('access-control-request-headers')?.trim() ?? ''
  const headers: Record<string, string> = {
    ...ANY_ORIGIN,
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': asked.length > 0 && asked.length <= 1000 && HEADER_LIST.test(asked) ? asked : 'If-None-Match',
    'access-control-max-age': '86400',
    'cache-control': 'public, max-age=86400',
    vary: 'Access-Control-Request-Headers',
  }
  return new Response(null, { status: 204, headers })
}

/** The response with `Access-Control-Allow-Origin: *` unless it names an origin of its own. */
export function withAnyOrigin(response: Response): Response {
  return response.headers.has('access-control-allow-origin') ? response : withHeader(response, 'access-control-allow-origin', '*')
}
