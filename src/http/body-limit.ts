/**
 * How large a request body may be: 2 MB, except where a screen takes a large file (the Import
 * screen's Uptime Kuma database). The edge refuses a declared Content-Length past the path's limit
 * with 413 before anything reads the body. The server's own cap (main.ts) is the largest of these, so
 * a body sent without a length (chunked) would only stop there: on a path with a smaller limit it is
 * refused with 411 instead, and the client is asked to declare the length.
 */
import { KUMA_UPLOAD_MAX_BYTES, KUMA_UPLOAD_PATH } from '../modules/importers/types.ts'

export const DEFAULT_BODY_LIMIT_BYTES = 2 * 1024 * 1024

/** Room for the multipart form around the file (boundaries, headers, the other fields). */
const FORM_MARGIN_BYTES = 64 * 1024

const LARGER: ReadonlyMap<string, number> = new Map([[KUMA_UPLOAD_PATH, KUMA_UPLOAD_MAX_BYTES + FORM_MARGIN_BYTES]])

/** The largest body any path takes: the server's cap. */
export const LARGEST_BODY_LIMIT_BYTES = Math.max(DEFAULT_BODY_LIMIT_BYTES, ...LARGER.values())

export function bodyLimitFor(path: string): number {
  return LARGER.get(path) ?? DEFAULT_BODY_LIMIT_BYTES
}

/** The limit as people read it: `50 MB`. */
export const limitLabel = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`

/** What the refusal says. */
export const tooLargeMessage = (limit: number): string => `the request body is larger than ${limitLabel(limit)}, the most this address takes`

/** A write whose declared length is past its path's limit; undefined when it may go on. */
export function declaredTooLarge(request: Request, path: string): number | undefined {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined
  const declared = request.headers.get('content-length')
  if (declared === null) return undefined
  const limit = bodyLimitFor(path)
  return Number(declared) > limit ? limit : undefined
}

/** A write that sends a body without declaring its length, to a path whose limit is below the server's cap. */
export function undeclaredLength(request: Request, path: string): number | undefined {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined
  if (request.headers.get('content-length') !== null || request.headers.get('transfer-encoding') === null) return undefined
  const limit = bodyLimitFor(path)
  return limit < LARGEST_BODY_LIMIT_BYTES ? limit : undefined
}

/** What the 411 says. */
export const lengthRequiredMessage = (limit: number): string =>
  `send the request body with a Content-Length header: this address takes at most ${limitLabel(limit)}`
