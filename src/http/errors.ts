/**
 * How errors become answers, for every app: the Elysia error mapping (coded errors, validation,
 * parse errors, unknown routes, the rest a logged 500), the one-line validation message, the body
 * guard run before validation, and no-store on every error answer.
 */
import type { ValidationError } from 'elysia'
import { withHeader } from './response.ts'
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../lib/body-depth.ts'
import { badRequest, errorResponse, HttpError } from '../lib/errors.ts'
import { assertWellFormedText } from '../lib/text.ts'

/**
 * Turns Elysia's validation error into the one line API users need: `field is required`, the
 * schema's own `error` text, or `field: what is wrong`. Array items read `history[3].at` when the
 * schema has a `title`.
 */
export function validationMessage(error: Readonly<ValidationError>): string {
  const root = (error.validator as { schema?: { title?: string } } | undefined)?.schema
  let first: { path?: string; value?: unknown; schema?: { error?: unknown }; message?: string } | undefined
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
  if (first.value === undefined) return `${field} is required`
  if (typeof first.schema?.error === 'string') return first.schema.error
  return `${field}: ${first.message ?? 'invalid value'}`
}

/** The Elysia error mapping of the service app: coded errors keep their status; the rest is a logged 500. */
export function mapError(logError: (error: unknown) => void) {
  return ({ code, error }: { code: unknown; error: unknown }): Response => {
    if (error instanceof HttpError) return errorResponse(error.status, error.message)
    switch (code) {
      case 'VALIDATION':
        return errorResponse(400, validationMessage(error as ValidationError))
      case 'PARSE':
        return errorResponse(400, 'request body is not valid JSON')
      case 'NOT_FOUND':
        return errorResponse(404, 'not found')
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
