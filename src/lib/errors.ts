/**
 * The one error type that carries an HTTP meaning. Services throw it; the app's error handler turns
 * it into `{"error": message}` with its status. Anything else becomes a generic 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/**
 * An HttpError about one page (a plan that lacks a feature): a cached answer built from it is tagged
 * with the page, so a change to the page or its owner's plan drops it.
 */
export class PageHttpError extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly pageId: number,
  ) {
    super(status, message)
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message)
export const unauthorized = (message = 'unauthorized'): HttpError => new HttpError(401, message)
export const forbidden = (message: string): HttpError => new HttpError(403, message)
export const notFound = (message = 'not found'): HttpError => new HttpError(404, message)
export const conflict = (message: string): HttpError => new HttpError(409, message)

/** A JSON error response in the shape every API of Lantern uses. */
export function errorResponse(status: number, message: string, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify({ error: message }), { status, headers })
  response.headers.set('content-type', 'application/json; charset=utf-8')
  return response
}
