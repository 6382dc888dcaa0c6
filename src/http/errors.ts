/**
 * How errors become answers, for every app: the Elysia error mapping (coded errors, validation,
 * parse errors, unknown routes by Accept, the rest a logged 500), the one-line validation message, the body
 * guard run before validation, and no-store on every error answer.
 */
import type { ValidationError } from 'elysia'
import { withHeader } from './response.ts'
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../lib/body-depth.ts'
import { badRequest, errorResponse, HttpError } from '../lib/errors.ts'
import { schemaErrorSentence } from '../lib/schema-errors.ts'
import { assertWellFormedText } from '../lib/text.ts'

/**
 * Turns Elysia's validation error into the one sentence API users need: `field is required`, the
 * schema's own `error` text, or a sentence built from the rule (src/lib/schema-errors.ts). Array
 * items read `history[3].at` when the schema has a `title`.
 */
export function validationMessage(error: Readonly<ValidationError>): string {
  const root = (error.validator as { schema?: { title?: string } } | undefined)?.schema
  let first: { path?: string; type?: number; value?: unknown; schema?: { error?: unknown }; message?: string } | undefined
  try {
    first = error.all[0]
  } catch {
    // Elysia's summaries print the value; one that cannot be printed must not turn into a 500.
    return `request ${error.type} is not valid`
  }
  if (!first) return 'invalid request'
  const segments = (first.path ?? '').split('/').filter(Boolean)
  const field = segments.reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), root?.title ?? '')
  if (!field) return typeof first.schema?.error === 'string' ? first.schema.error : `request ${error.type} is not valid`
  return schemaErrorSentence(field, first)
}

/**
 * Whether the client would rather have HTML than JSON, from its Accept header: `text/html` (or
 * `text/*`) is listed with a weight above zero and above `application/json`'s. Browsers send that;
 * API clients, tools without an Accept header and a bare `*` + `/*` do not. A tie goes to JSON.
 */
export function prefersHtml(accept: string | null | undefined): boolean {
  if (!accept) return false
  let html = 0
  let json = 0
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase())
    const qParameter = parameters.find((parameter) => parameter.startsWith('q='))
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2))
    if (!Number.isFinite(q)) continue
    if (type === 'text/html' || type === 'text/*') html = Math.max(html, q)
    else if (type === 'application/json' || type === 'application/*') json = Math.max(json, q)
  }
  return html > 0 && html > json
}

/** The service host's HTML 404 page (the site's look), for browsers. */
export type NotFoundPage = () => Response | Promise<Response>

/**
 * The Elysia error mapping of the service app: coded errors keep their status; the rest is a logged
 * 500. An unknown path is the HTML 404 page for a browser and `{"error": "not found"}` for API
 * clients (see `prefersHtml`); a HEAD request gets the same status and headers without the body.
 */
export function mapError(logError: (error: unknown) => void, notFoundPage?: NotFoundPage) {
  const unknownPath = async (request: Request | undefined): Promise<Response> => {
    const answer = notFoundPage && prefersHtml(request?.headers.get('accept')) ? await notFoundPage() : errorResponse(404, 'not found')
    const out = new Response(request?.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: answer.headers })
    // The answer depends on Accept: a shared cache must not hand the page to an API client.
    out.headers.set('vary', 'Accept')
    return out
  }
  return ({ code, error, request }: { code: unknown; error: unknown; request?: Request }): Response | Promise<Response> => {
    if (error instanceof HttpError) return errorResponse(error.status, error.message)
    switch (code) {
      case 'VALIDATION':
        return errorResponse(400, validationMessage(error as ValidationError))
      case 'PARSE':
        return errorResponse(400, 'request body is not valid JSON')
      case 'NOT_FOUND':
        return unknownPath(request)
      default:
        logError(error)
        return errorResponse(500, 'internal error')
    }
  }
}

/**
 * Runs between parsing and validation, for every body route and every parser (multipart fields that
 * look like JSON are parsed as JSON too). Depth first: the text walk then never meets a deep body.
 * One text rule for every body: a lone surrogate anywhere is a 400 (src/lib/text.ts).
 */
// An arrow on purpose: Elysia reads a hook's source to see which parts of the request it uses.
export const guardBody = ({ body }: { body: unknown }): void => {
  if (nestedDeeperThan(body, MAX_BODY_DEPTH)) throw badRequest(`request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`)
  assertWellFormedText(body)
}

/**
 * An error answer may never be stored by a browser or a shared cache: a page created, a key fixed
 * or a limit lifted a moment later must not hide behind it. Applied to every answer of the app.
 */
export function noStoreOnError(response: Response): Response {
  if (response.status < 400 || /\bno-store\b/.test(response.headers.get('cache-control') ?? '')) return response
  return withHeader(response, 'cache-control', 'no-store')
}
